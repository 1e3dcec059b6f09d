import { createExecutor, type Executor } from '@sinew/bt-runtime';
import { createStandardRegistry, instrumentBot, observeWorld, type SinewBot } from '@sinew/capabilities';
import { connectBot, placeTree, setBlock } from '@sinew/testkit';
import type { RepairHook } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { createNeedsPlanner, createPlannerRepairHook, createRouter, DEFAULT_ROUTING_RULES, type RouteEvent } from '../../src/index.js';
import { createMinecraftHtn, focusAround } from '../../src/minecraft/index.js';
import { useEmbeddedServer } from '../support/server.js';

// One server for the file; each test resets it and connects a fresh bot beside a fresh tree.
const embedded = useEmbeddedServer();

async function botBesideTree(username: string) {
  await placeTree(embedded.server(), embedded.server().spawn.offset(3, 0, 2).floored(), { kind: 'oak', height: 5 });
  const bot = instrumentBot(await connectBot(embedded.server(), { username }));
  embedded.track(bot);
  const snapshot = () => observeWorld(bot, { positions: focusAround(bot.entity.position, 6) });
  return { bot, snapshot };
}

const registry = createStandardRegistry();

function executorFor(bot: SinewBot, repair: RepairHook): Executor<SinewBot> {
  const executor = createExecutor({ registry, body: bot, repair });
  embedded.track(bot, executor);
  return executor;
}

const count = (bot: SinewBot, name: string) => bot.inventory.items().filter((i) => i.name === name).reduce((n, i) => n + i.count, 0);

describe('precondition repair on the embedded server', () => {
  it('empty inventory beside a tree → wooden pickaxe: one craft step, the rest from the repair hook', async () => {
    const { bot, snapshot } = await botBesideTree('repairer');
    const repairs: string[] = [];
    const htn = createMinecraftHtn({ registry });
    const executor = executorFor(bot, createPlannerRepairHook(htn, snapshot, { onRepair: (e) => repairs.push(e.reason) }));
    const outcome = await executor.run({ planId: 'pickaxe', intentId: 'pickaxe', steps: [{ stepId: 's1', type: 'craft_item', args: { item: 'wooden_pickaxe' } }] });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('completed');
    expect(count(bot, 'wooden_pickaxe')).toBe(1);
    expect(outcome.repairs).toBeGreaterThanOrEqual(1);
    expect(repairs[0]).toContain('gather(oak_log');
    expect(outcome.steps.some((s) => s.verb === 'gather' && s.status === 'succeeded')).toBe(true);
    expect(outcome.steps.some((s) => s.verb === 'craft_item' && s.status === 'failed' && s.failure?.code === 'precond_missing')).toBe(true);
  });

  it('need wood demo: perception → needs → intent → router → HTN → executor; the pickaxe step fails on has_item:stick:2 and repair crafts sticks', async () => {
    const { bot, snapshot } = await botBesideTree('demo');
    const events: RouteEvent[] = [];
    const thoughts: string[] = [];
    const needs = createNeedsPlanner({ seed: 1, onThought: (t) => thoughts.push(t.text) });
    const router = createRouter({ planners: [createMinecraftHtn({ registry }), needs], rules: DEFAULT_ROUTING_RULES, onEvent: (e) => events.push(e) });
    const repairs: { stepId: string; reason: string }[] = [];
    const executor = executorFor(bot, createPlannerRepairHook(router, snapshot, { onRepair: (e) => repairs.push(e) }));
    // Perception → need → intent (the needs planner), then intent → router → HTN.
    const intent = needs.formIntent(snapshot());
    expect(intent.goal).toBe('need wood');
    expect(thoughts).toEqual(['no pickaxe and no wood → need wood']);
    const planned = await router.plan(intent, snapshot());
    expect(planned.ok).toBe(true);
    if (!planned.ok) return;
    expect(events[0]).toMatchObject({ type: 'route', chosen: 'htn' });
    expect(planned.plan.steps.map((s) => s.type)).toEqual(['gather', 'craft_item', 'craft_item', 'place_block', 'craft_item']);
    const outcome = await executor.run(planned.plan);
    router.recordOutcome(planned.plan.planId, outcome.status === 'completed');
    const trace = JSON.stringify({ repairs, steps: outcome.steps.map((s) => [s.stepId, s.verb, s.status, s.failure?.reason]) }, null, 1);
    expect(outcome.status, trace).toBe('completed');
    expect(repairs[0]!.stepId, trace).toBe('s5');
    expect(repairs[0]!.reason, trace).toContain('has_item:stick:2');
    expect(repairs[0]!.reason, trace).toContain('craft_item(stick ×2)');
    expect(count(bot, 'wooden_pickaxe')).toBe(1);
  });

  it('a step whose work is done but whose declared near_block effect is not observed is replaced by a walk back, not redone', async () => {
    // The shape of a flee that preempts place_block right after the table went down: the table stands, the bot is away.
    const bot = instrumentBot(await connectBot(embedded.server(), { username: 'walker' }));
    embedded.track(bot);
    const table = embedded.server().spawn.offset(9, 0, 0).floored();
    await setBlock(embedded.server(), table, 'crafting_table');
    const repairs: string[] = [];
    const snapshot = () => observeWorld(bot, { positions: focusAround(bot.entity.position, 6) });
    const executor = executorFor(bot, createPlannerRepairHook(createMinecraftHtn({ registry }), snapshot, { onRepair: (e) => repairs.push(e.reason) }));
    const outcome = await executor.run({
      planId: 'walk-back',
      intentId: 'walk-back',
      steps: [{ stepId: 's1', type: 'place_block', args: { item: 'crafting_table', position: { x: table.x, y: table.y, z: table.z } }, effects: ['near_block:crafting_table'] }],
    });
    const trace = JSON.stringify(outcome.steps.map((s) => [s.stepId, s.verb, s.status, s.failure?.reason]));
    expect(outcome.status, trace).toBe('completed');
    expect(outcome.steps.map((s) => [s.stepId, s.verb, s.status]), trace).toEqual([
      ['s1', 'place_block', 'failed'],
      ['s1.r1.1', 'navigate', 'succeeded'],
    ]);
    expect(outcome.steps[0]!.failure?.code).toBe('effects_unmet');
    expect(repairs[0], trace).toContain('instead of redoing it');
    expect(bot.entity.position.distanceTo(table.offset(0.5, 0.5, 0.5))).toBeLessThanOrEqual(4);
    expect(count(bot, 'crafting_table')).toBe(0);
  });
});

