import { createExecutor, type Executor } from '@sinew/bt-runtime';
import { instrumentBot, observeWorld, type SinewBot } from '@sinew/capabilities';
import { connectBot, reset, setBlock, startServer, type TestServer } from '@sinew/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearColumn, createRegistry } from '../src/index.js';

let server: TestServer;
let bot: SinewBot;
let executor: Executor<SinewBot>;
let planSeq = 0;

beforeAll(async () => {
  server = await startServer();
  bot = instrumentBot(await connectBot(server, { username: 'digger' }));
  executor = createExecutor({ registry: createRegistry(), body: bot, policy: { maxLocalRetries: 0 } });
});
afterAll(async () => {
  await executor?.close();
  bot?.quit();
  await server?.stop();
});
beforeEach(async () => {
  await reset(server);
});

const run = (steps: { type: string; args: Record<string, unknown> }[]) =>
  executor.run({ planId: `p${++planSeq}`, intentId: 'example', steps: steps.map((s, i) => ({ stepId: `s${i + 1}`, ...s })) });

/** Stacks `height` dirt blocks at `base` and waits until the bot sees the top one. */
async function pillar(base: { x: number; y: number; z: number }, height: number) {
  for (let i = 0; i < height; i += 1) await setBlock(server, { ...base, y: base.y + i }, 'dirt');
  const top = bot.entity.position.floored().set(base.x, base.y + height - 1, base.z);
  await expect.poll(() => bot.blockAt(top)?.name, { timeout: 3_000 }).toBe('dirt');
}

describe('clear_column, a capability of our own beside the standard set', () => {
  it('is registered next to the standard verbs', () => {
    const verbs = createRegistry().verbs();
    expect(verbs).toContain('clear_column');
    expect(verbs).toEqual(expect.arrayContaining(['navigate', 'dig_block', 'craft_item']));
  });

  it('after a standard navigate step, digs out a two-block column; the world shows air', async () => {
    const base = server.spawn.offset(8, 0, 0).floored();
    await pillar(base, 2);
    const outcome = await run([
      { type: 'navigate', args: { position: base.offset(-2, 0, 0), range: 1 } },
      { type: 'clear_column', args: { base, height: 2 } },
    ]);
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('completed');
    expect(outcome.steps.map((s) => [s.verb, s.status])).toEqual([
      ['navigate', 'succeeded'],
      ['clear_column', 'succeeded'],
    ]);
    expect(bot.blockAt(base)?.name).toBe('air');
    expect(bot.blockAt(base.offset(0, 1, 0))?.name).toBe('air');
  });

  it('a column out of reach fails its guard with precond_missing within_reach, and nothing is dug', async () => {
    const base = server.spawn.offset(12, 0, 0).floored();
    await pillar(base, 1);
    const outcome = await run([{ type: 'clear_column', args: { base, height: 1 } }]);
    expect(outcome.status).toBe('failed');
    expect(outcome.failure).toMatchObject({ code: 'precond_missing', missing: ['within_reach'] });
    expect(bot.blockAt(base)?.name).toBe('dirt');
    // The acceptance reads the world, not the runner's word: a column still standing is effects_unmet.
    const args = clearColumn.inputSchema.parse({ base, height: 1 });
    const seen = observeWorld(bot, { positions: [base] });
    expect(clearColumn.acceptance(seen, seen, args)).toMatchObject({ ok: false, unmet: ['column:air'] });
  });

  it('bad args fail with invalid_args before the bot moves', async () => {
    const outcome = await run([{ type: 'clear_column', args: { base: server.spawn, height: 9 } }]);
    expect(outcome.status).toBe('failed');
    expect(outcome.failure?.code).toBe('invalid_args');
  });
});
