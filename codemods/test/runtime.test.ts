import { mkdtempSync, rmSync, symlinkSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ManualClock } from '@sinew/executor-contracts';
import { createTestRunContext } from '@sinew/bt-runtime/testing';
import type { Capability, RunContext } from '@sinew/executor-contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapRunners } from '../src/index.js';
import { fixtures, memoryProject, fixture, repoRoot } from './helpers.js';

/** A small fake of the shape fixtures' Bot: records what it is asked to do, fails when told to. */
class FakeBot {
  time = 1000;
  said: string[] = [];
  dug: string[] = [];
  craftable = new Set(['stick']);
  reachable = true;
  chatFails = false;
  chat(message: string): void {
    if (this.chatFails) throw new Error('kicked for spam');
    this.said.push(message);
  }
  async craft(item: string, count: number): Promise<boolean> {
    return this.craftable.has(item) && count > 0;
  }
  async goto(): Promise<boolean> {
    return this.reachable;
  }
  async dig(x: number, y: number, z: number): Promise<void> {
    this.dug.push(`${x},${y},${z}`);
  }
  async waitForTicks(): Promise<void> {}
}

function context(body: FakeBot, signal?: AbortSignal): RunContext<FakeBot> {
  return createTestRunContext({ body, clock: new ManualClock(), ...(signal ? { signal } : {}) });
}

type Loaded = Record<string, Capability<FakeBot>>;
let dir: string;
const modules: Record<string, Loaded> = {};

// The generated files run for real: written to a temp dir beside copies of their sources and imported.
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sinew-runtime-'));
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const names = ['body', 'function', 'dispatcher', 'leaf'];
  const project = memoryProject(Object.fromEntries(names.map((n) => [join(dir, `${n}.ts`), fixture(`shapes/${n}.ts`)])));
  const result = wrapRunners(project, { files: ['function', 'dispatcher', 'leaf'].map((n) => join(dir, `${n}.ts`)) });
  cpSync(join(fixtures, 'shapes/body.ts'), join(dir, 'body.ts'));
  for (const n of ['function', 'leaf']) cpSync(join(fixtures, `shapes/${n}.ts`), join(dir, `${n}.ts`));
  for (const change of result.changes) writeFileSync(change.path, change.after);
  for (const n of ['function', 'dispatcher', 'leaf']) {
    modules[n] = (await import(pathToFileURL(join(dir, `${n}.capabilities.ts`)).href)) as Loaded;
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('generated capabilities at run time, on a fake body', () => {
  it('passes ctx.body as the bot and applies schema defaults', async () => {
    const craft = modules.function!.craftItemCapability!;
    const bot = new FakeBot();
    const args = craft.inputSchema.parse({ itemName: 'stick' });
    expect(args).toEqual({ itemName: 'stick', quantity: 1 });
    await expect(craft.run(context(bot), args)).resolves.toEqual({ ok: true });
  });

  it('rejects a misspelled argument (strict input schemas), at the top level and nested', () => {
    const craft = modules.function!.craftItemCapability!;
    const misspelled = craft.inputSchema.safeParse({ itemName: 'stick', quantiy: 2 });
    expect(misspelled.success).toBe(false);
    expect(JSON.stringify(misspelled.error?.issues)).toContain('quantiy');
    const goTo = modules.function!.goToCapability!;
    expect(goTo.inputSchema.safeParse({ target: { x: 1, y: 2, z: 3, w: 4 } }).success).toBe(false);
  });

  it('turns { success: false, error } into runner_error with the error as reason', async () => {
    const craft = modules.function!.craftItemCapability!;
    await expect(craft.run(context(new FakeBot()), { itemName: 'diamond', quantity: 1 })).resolves.toEqual({
      ok: false,
      code: 'runner_error',
      reason: 'cannot craft diamond',
      retryable: true,
    });
  });

  it('turns false into runner_error naming the runner', async () => {
    const goTo = modules.function!.goToCapability!;
    const bot = Object.assign(new FakeBot(), { reachable: false });
    const args = goTo.inputSchema.parse({ target: { x: 1, y: 2, z: 3 } });
    await expect(goTo.run(context(bot), args)).resolves.toEqual({ ok: false, code: 'runner_error', reason: 'goTo returned false', retryable: true });
  });

  it('turns a throw into runner_error, but rethrows when the step was aborted', async () => {
    const sayHello = modules.function!.sayHelloCapability!;
    const bot = Object.assign(new FakeBot(), { chatFails: true });
    await expect(sayHello.run(context(bot), { names: ['alex'], extra: 1 })).resolves.toEqual({
      ok: false,
      code: 'runner_error',
      reason: 'kicked for spam',
      retryable: true,
    });
    const aborted = new AbortController();
    aborted.abort();
    await expect(sayHello.run(context(bot, aborted.signal), { names: ['alex'], extra: 1 })).rejects.toThrow('kicked for spam');
  });

  it('dispatches a case through executeAction on an instance built from ctx.body', async () => {
    const dig = modules.dispatcher!.digBlockCapability!;
    const bot = new FakeBot();
    await expect(dig.run(context(bot), { x: 1, y: 64, z: -3 })).resolves.toEqual({ ok: true });
    await expect(dig.run(context(bot), { x: 2, y: 64, z: -3 })).resolves.toEqual({ ok: true });
    expect(bot.dug).toEqual(['1,64,-3', '2,64,-3']);
    expect(dig.aliases).toEqual(['mine']);
  });

  it('runs a leaf with a context mapped from the RunContext and adapts its status', async () => {
    const chat = modules.leaf!.sendChatCapability!;
    const bot = new FakeBot();
    await expect(chat.run(context(bot), { message: 'hi', whisperTo: 'steve' })).resolves.toEqual({ ok: true });
    expect(bot.said).toEqual(['/msg steve hi']);
    const aborted = new AbortController();
    aborted.abort();
    const result = await chat.run(context(bot, aborted.signal), { message: 'late' });
    expect(result).toMatchObject({ ok: false, code: 'runner_error' });
    expect(bot.said).toEqual(['/msg steve hi']);
  });

  it('declares acceptance unverified so the verb gate reports it', () => {
    for (const loaded of Object.values(modules)) {
      for (const capability of Object.values(loaded)) expect(capability.unverified?.reason).toMatch(/^wrapped from .* by sinew-codemod/);
    }
  });
});
