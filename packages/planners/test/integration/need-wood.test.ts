import { createExecutor, type Executor } from '@sinew/bt-runtime';
import { createStandardRegistry, instrumentBot, observeWorld, type SinewBot } from '@sinew/capabilities';
import { connectBot, placeTree, startServer, teleport, type TestServer } from '@sinew/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNeedsPlanner, createRouter, DEFAULT_ROUTING_RULES, plannerRepairHook, type RouteEvent } from '../../src/index.js';
import { createMinecraftHtn, focusAround, needWoodIntent } from '../../src/minecraft/index.js';

// One server for the file; each test gets its own bot beside its own tree (no reset between them).
let server: TestServer;
const bots: SinewBot[] = [];
const executors: Executor<SinewBot>[] = [];

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  for (const executor of executors) await executor.close();
  for (const bot of bots) bot.quit();
  await server?.stop();
});

async function botBesideTree(username: string, offsetX: number) {
  await placeTree(server, server.spawn.offset(offsetX + 3, 0, 2).floored(), { kind: 'oak', height: 5 });
  const bot = instrumentBot(await connectBot(server, { username }));
  bots.push(bot);
  if (offsetX) await teleport(bot, server.spawn.offset(offsetX, 0, 0));
  const snapshot = () => observeWorld(bot, { positions: focusAround(bot.entity.position, 6) });
  return { bot, snapshot };
}

const count = (bot: SinewBot, name: string) => bot.inventory.items().filter((i) => i.name === name).reduce((n, i) => n + i.count, 0);

describe('precondition repair on the embedded server', () => {
  it('empty inventory beside a tree → wooden pickaxe: one craft step, the rest from the repair hook', async () => {
    const { bot, snapshot } = await botBesideTree('repairer', 0);
    const repairs: string[] = [];
    const htn = createMinecraftHtn();
    const executor = createExecutor({ registry: createStandardRegistry(), body: bot, repair: plannerRepairHook(htn, snapshot, { onRepair: (e) => repairs.push(e.reason) }) });
    executors.push(executor);
    const outcome = await executor.run({ planId: 'pickaxe', intentId: 'pickaxe', steps: [{ stepId: 's1', type: 'craft_item', args: { item: 'wooden_pickaxe' } }] });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('completed');
    expect(count(bot, 'wooden_pickaxe')).toBe(1);
    expect(outcome.repairs).toBeGreaterThanOrEqual(1);
    expect(repairs[0]).toContain('gather(oak_log');
    expect(outcome.steps.some((s) => s.verb === 'gather' && s.status === 'succeeded')).toBe(true);
    expect(outcome.steps.some((s) => s.verb === 'craft_item' && s.status === 'failed' && s.failure?.code === 'precond_missing')).toBe(true);
  });

  it('need wood demo: intent → router → HTN → executor; the pickaxe step fails on has_item:stick:2 and repair crafts sticks', async () => {
    const { bot, snapshot } = await botBesideTree('demo', 12);
    const events: RouteEvent[] = [];
    const router = createRouter({ planners: [createMinecraftHtn(), createNeedsPlanner({ seed: 1 })], rules: DEFAULT_ROUTING_RULES, onEvent: (e) => events.push(e) });
    const repairs: { stepId: string; reason: string }[] = [];
    const executor = createExecutor({
      registry: createStandardRegistry(),
      body: bot,
      repair: plannerRepairHook(router, snapshot, { onRepair: (e) => repairs.push(e) }),
    });
    executors.push(executor);
    const planned = await router.plan(needWoodIntent(), snapshot());
    expect(planned.ok).toBe(true);
    if (!planned.ok) return;
    expect(events[0]).toMatchObject({ type: 'route', chosen: 'htn' });
    const outcome = await executor.run(planned.plan);
    router.recordOutcome(planned.plan.planId, outcome.status === 'completed');
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('completed');
    expect(repairs[0]!.stepId).toBe('s5');
    expect(repairs[0]!.reason).toContain('has_item:stick:2');
    expect(repairs[0]!.reason).toContain('craft_item(stick ×2)');
    expect(count(bot, 'wooden_pickaxe')).toBe(1);
  });
});
