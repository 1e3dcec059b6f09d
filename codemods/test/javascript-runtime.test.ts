import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createExecutor, type Executor } from '@sinew/bt-runtime';
import { instrumentBot, type SinewBot } from '@sinew/capabilities';
import type { CapabilityRegistry, StepOutcome } from '@sinew/executor-contracts';
import { connectBot, give, setBlock, startServer, type TestServer } from '@sinew/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapRunners } from '../src/index.js';
import { fixtures, memoryProject, fixture, repoRoot } from './helpers.js';

let dir: string;
let server: TestServer;
let bot: SinewBot;
let executor: Executor<SinewBot>;
let registry: CapabilityRegistry;
let plans = 0;

async function step(type: string, args: Record<string, unknown>): Promise<StepOutcome> {
  plans += 1;
  const outcome = await executor.run({ planId: `js${plans}`, intentId: 'codemod', steps: [{ stepId: 's1', type, args }] });
  return outcome.steps.at(-1)!;
}

// The generated JavaScript (capabilities and registry) runs unchanged beside a copy of the skills library,
// on a real mineflayer bot against the embedded server, through the real executor.
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sinew-js-runtime-'));
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const source = join(dir, 'skills.js');
  copyFileSync(join(fixtures, 'js/skills.js'), source);
  const result = wrapRunners(memoryProject({ [source]: fixture('js/skills.js') }), { files: [source] });
  for (const change of result.changes) writeFileSync(change.path, change.after);
  ({ registry } = (await import(pathToFileURL(join(dir, 'sinew.registry.js')).href)) as { registry: CapabilityRegistry });
  server = await startServer();
  bot = instrumentBot(await connectBot(server, { username: 'skills' }));
  executor = createExecutor({ registry, body: bot, policy: { maxLocalRetries: 0 } });
});

afterAll(async () => {
  await executor?.close();
  bot?.quit();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the generated JavaScript skills capabilities on a real bot', () => {
  it('registers every wrapped skill from the generated registry', () => {
    expect(registry.verbs()).toEqual(expect.arrayContaining(['chat', 'equip', 'dig_block_at', 'collect_block', 'go_to_position']));
    expect(registry.verbs().length).toBeGreaterThanOrEqual(30);
  });

  it('chat: says the message through the instrumented bot', async () => {
    const heard = new Promise<string>((resolve) => bot.once('chat', (_user, message) => resolve(message)));
    const outcome = await step('chat', { message: 'hello from a wrapped skill' });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    await expect(heard).resolves.toBe('hello from a wrapped skill');
  });

  it('equip: holds the item; a missing item ends runner_error naming the skill', async () => {
    await give(bot, 'stone_pickaxe');
    const outcome = await step('equip', { itemName: 'stone_pickaxe' });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(bot.heldItem?.name).toBe('stone_pickaxe');
    const missing = await step('equip', { itemName: 'diamond_sword', destination: 'off-hand' });
    expect(missing.failure).toMatchObject({ code: 'runner_error', reason: 'equip returned false' });
  });

  it('dig_block_at: breaks the block at the position', async () => {
    const target = server.spawn.offset(2, 0, 0).floored();
    await setBlock(server, target, 'dirt');
    const outcome = await step('dig_block_at', { x: target.x, y: target.y, z: target.z });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(bot.blockAt(target)?.name).toBe('air');
  });

  it('rejects a misspelled argument as invalid_args before the skill runs', async () => {
    const outcome = await step('equip', { itemName: 'stone_pickaxe', destinaton: 'hand' });
    expect(outcome.failure?.code).toBe('invalid_args');
  });
});
