import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecutor, type Executor } from '@sinew/bt-runtime';
import { createStandardRegistry, instrumentBot, type SinewBot } from '@sinew/capabilities';
import { connectBot, damage, give, placeTree, reset, setFood, startServer, type TestServer } from '@sinew/testkit';
import type { ModeEvent } from '@sinew/belief';
import { attachModes, type AttachedModes } from '@sinew/belief/mineflayer';

// Issue 27 item 2: the modes let the work finish. A plan step preempted by a self-preservation mode resumes as
// the same attempt: what it did before the preemption counts (its `pre` observation is kept), so a gather of 3
// logs interrupted after its first log stops at 3, not at 1 + 3. Every wait is on a real event (inventory, outcome).
let server: TestServer;
let bot: SinewBot;
let executor: Executor<SinewBot>;
let modes: AttachedModes;
const events: ModeEvent[] = [];

beforeAll(async () => {
  server = await startServer();
  bot = instrumentBot(await connectBot(server, { username: 'resumer' }));
  executor = createExecutor({ registry: createStandardRegistry(), body: bot, policy: { maxLocalRetries: 0 } });
  modes = attachModes(bot, { preemptor: executor, onEvent: (e) => events.push(e) });
});

afterAll(async () => {
  modes?.detach();
  await modes?.idle();
  await executor?.close();
  bot?.quit();
  await server?.stop();
});

const logs = () => bot.inventory.items().filter((item) => item.name === 'birch_log').reduce((sum, item) => sum + item.count, 0);

/** Resolves on the inventory update that brings the birch logs to `count`. */
function logsReach(count: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (logs() < count) return;
      bot.inventory.removeListener('updateSlot', check);
      resolve();
    };
    bot.inventory.on('updateSlot', check);
    check();
  });
}

describe('a plan step preempted by the modes resumes with what it already did', () => {
  it('gather 3 birch logs, hurt after the first (low_health eats): the step resumes, succeeds, and gathered exactly 3', async () => {
    await reset(server);
    // a tree off to one side, its trunk taller than 1 + 3 logs: a resume that forgot its first log would find a fourth
    await placeTree(server, server.spawn.offset(-4, 0, 5).floored(), { kind: 'birch', height: 7 });
    await give(bot, 'cooked_cod', 6);
    const preempted: string[] = [];
    executor.on('step.preempted', (e) => void preempted.push(`${e.stepId}:${e.reason}`));
    const plan = executor.run({ planId: 'resume-gather', intentId: 'logs', steps: [{ stepId: 'logs', type: 'gather', args: { block: 'birch_log', count: 3 } }] });
    await logsReach(1);
    // room in the food bar, then a blow: low_health rises and its fast path (consume_food) preempts the gather
    await setFood(bot, 10);
    await damage(bot, 13);
    const outcome = await plan;
    await modes.idle();
    expect(preempted.some((p) => p.startsWith('logs:mode:low_health'))).toBe(true);
    expect(events.some((e) => e.type === 'outcome' && e.mode === 'low_health' && e.outcomes.some((o) => o.verb === 'consume_food' && o.status === 'succeeded'))).toBe(true);
    expect(outcome.status).toBe('completed');
    expect(outcome.steps[0]).toMatchObject({ stepId: 'logs', status: 'succeeded' });
    expect(logs()).toBe(3);
  });
});
