import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ManualClock } from '@sinew/executor-contracts';
import { createTestRunContext } from '@sinew/bt-runtime/testing';
import type { Capability, RunContext } from '@sinew/executor-contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapRunners, type WrapResult } from '../src/index.js';
import { fixture, fixtures, memoryProject, repoRoot } from './helpers.js';

const SOURCE = '/project/bot/commands.js';
const result: WrapResult = wrapRunners(memoryProject({ [SOURCE]: fixture('js/commands.js') }), { files: [SOURCE] });
const text = result.changes.find((c) => c.path === '/project/bot/commands.capabilities.js')?.after ?? '';
const context = result.changes.find((c) => c.path === '/project/bot/sinew.context.js');

describe('command tables ({ name: "!x", params, perform(agent, …) })', () => {
  it('makes one capability per entry, the verb from the name without its "!"', () => {
    const entries = [...fixture('js/commands.js').matchAll(/^ {4}name: '!(\w+)'/gm)].length;
    const wrapped = result.report.findings.filter((f) => f.kind === 'wrapped');
    expect(wrapped).toHaveLength(entries);
    expect(wrapped.every((f) => f.shape === 'command')).toBe(true);
    expect(wrapped.map((f) => f.verb)).toContain('collect_blocks');
  });

  it('builds the schema from the param declarations: int, float, named kinds, domains, optional, default', () => {
    expect(text).toMatch(/name: 'collect_blocks',[\s\S]*?type: z\.string\(\),\s+num: z\.number\(\)\.int\(\)\.min\(1\)\.max\(100\),/);
    expect(text).toContain('numTimes: z.number().int().min(1).lt(4),'); // domain [1, 4, '[)']
    expect(text).toContain('closeness: z.number().min(0).default(1),'); // Infinity is no bound
    expect(text).toContain('persist: z.boolean().optional(),');
    expect(text).toContain("prompt: z.unknown() /* sinew-codemod: args.prompt is declared of type 'text'");
  });

  it('calls perform through the table by name with the agent from the context file', () => {
    expect(text).toContain("commandNamed(actionsList, '!collectBlocks').perform(toAgent(ctx), args.type, args.num)");
    expect(text).toContain("import { toAgent } from './sinew.context.js';");
    expect(context?.kind).toBe('context');
    expect(context?.after).toContain('export function toAgent(ctx) {');
  });

  it('leaves an existing context file alone and reports an adapter it lacks', () => {
    const project = memoryProject({ [SOURCE]: fixture('js/commands.js') });
    project.getFileSystem().writeFileSync('/project/bot/sinew.context.js', 'export function toPlayer(ctx) {}\n');
    const again = wrapRunners(project, { files: [SOURCE] });
    expect(again.changes.some((c) => c.kind === 'context')).toBe(false);
    expect(again.report.findings.find((f) => f.code === 'context_incomplete')).toMatchObject({ kind: 'unsafe', symbol: 'toAgent' });
  });
});

describe('generated command capabilities at run time, on a small fake body', () => {
  let dir: string;
  let caps: Record<string, Capability<FakeBot>>;
  class FakeBot {
    entity = { position: { floored: () => ({ x: 4, y: 64, z: -2 }) } };
    said: string[] = [];
    chat(message: string): void {
      this.said.push(message);
    }
  }
  const ctxOf = (body: FakeBot): RunContext<FakeBot> => createTestRunContext({ body, clock: new ManualClock() });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sinew-commands-'));
    symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
    cpSync(join(fixtures, 'js/commands.js'), join(dir, 'commands.js'));
    const source = join(dir, 'commands.js');
    const generated = wrapRunners(memoryProject({ [source]: fixture('js/commands.js') }), { files: [source] });
    for (const change of generated.changes) writeFileSync(change.path, change.after);
    caps = (await import(pathToFileURL(join(dir, 'commands.capabilities.js')).href)) as Record<string, Capability<FakeBot>>;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs perform with the agent, returning its message as an observable', async () => {
    const bot = new FakeBot();
    const say = caps.sayCapability!;
    await expect(say.run(ctxOf(bot), say.inputSchema.parse({ message: 'hi' }))).resolves.toEqual({ ok: true, observables: { result: 'Said "hi".' } });
    expect(bot.said).toEqual(['hi']);
  });

  it('keeps one agent per bot, so what a command stores lasts to the next step', async () => {
    const bot = new FakeBot();
    await caps.rememberCapability!.run(ctxOf(bot), { name: 'home' });
    const mode = await caps.setModeCapability!.run(ctxOf(bot), { mode: 'cowardice', on: true });
    expect(mode).toEqual({ ok: true, observables: { result: 'Mode cowardice is on.' } });
    const other = await caps.rememberCapability!.run(ctxOf(new FakeBot()), { name: 'mine' });
    expect(other).toEqual({ ok: true, observables: { result: 'Remembered mine at 4, 64, -2.' } });
  });

  it('rejects an out-of-domain or misspelled argument at the schema', () => {
    expect(caps.collectBlocksCapability!.inputSchema.safeParse({ type: 'oak_log', num: 101 }).success).toBe(false);
    expect(caps.collectBlocksCapability!.inputSchema.safeParse({ type: 'oak_log', nmu: 3 }).success).toBe(false);
    expect(caps.collectBlocksCapability!.inputSchema.safeParse({ type: 'oak_log', num: 3 }).success).toBe(true);
  });
});
