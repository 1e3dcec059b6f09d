import { createExecutor } from '@sinew/bt-runtime';
import { createStandardRegistry, instrumentBot, observeWorld, type SinewBot } from '@sinew/capabilities';
import { pred, type CapabilityRegistry } from '@sinew/executor-contracts';
import { connectBot, placeTree } from '@sinew/testkit';
import { describe, expect, it } from 'vitest';
import { createGoapPlanner, createPlannerRepairHook } from '../../src/index.js';
import { focusAround, minecraftGoapDomain, recipeBook } from '../../src/minecraft/index.js';
import { useEmbeddedServer } from '../support/server.js';

const embedded = useEmbeddedServer();

const count = (bot: SinewBot, name: string) => bot.inventory.items().filter((i) => i.name === name).reduce((n, i) => n + i.count, 0);

async function setup(username: string) {
  await placeTree(embedded.server(), embedded.server().spawn.offset(3, 0, 2).floored(), { kind: 'oak', height: 5 });
  const bot = instrumentBot(await connectBot(embedded.server(), { username }));
  const registry = createStandardRegistry();
  const goap = createGoapPlanner({ registry: registry as unknown as CapabilityRegistry<unknown>, domain: minecraftGoapDomain(recipeBook()), limits: { maxNodes: 5_000, maxMs: 2_000 } });
  const snapshot = () => observeWorld(bot, { positions: focusAround(bot.entity.position, 6) });
  const executor = createExecutor({ registry, body: bot, repair: createPlannerRepairHook(goap, snapshot) });
  embedded.track(bot, executor);
  return { bot, goap, snapshot, executor };
}

describe('the goal-oriented planner on the embedded server', () => {
  it('has_item:wooden_pickaxe:1 from an empty inventory beside a tree: the plan from declarations completes', async () => {
    const { bot, goap, snapshot, executor } = await setup('goap');
    const planned = goap.planGoal([pred.hasItem('wooden_pickaxe', 1)], snapshot(), 'pickaxe');
    expect(planned.ok, JSON.stringify(planned)).toBe(true);
    if (!planned.ok) return;
    // What the bot held as each step began and ended: a CI run (series on 4ddb603) saw gather ×3 succeed and the next
    // craft find fewer than 3 logs; its next failure says where they went.
    const held: string[] = [];
    const note = (when: string) => (e: { stepId: string }) => void held.push(`${when} ${e.stepId}: ${JSON.stringify(observeWorld(bot).inventory)}`);
    const offs = [executor.on('step.dispatched', note('dispatched')), executor.on('step.succeeded', note('succeeded')), executor.on('step.failed', note('failed'))];
    // Why an attempt before the last failed (a later CI run: craft_item crafted all 12 planks, then failed on its retry's guard).
    offs.push(executor.on('step.retry', (e) => void held.push(`retry ${e.stepId} after ${e.failure.code}: ${e.failure.reason}`)));
    const outcome = await executor.run(planned.plan).finally(() => offs.forEach((off) => off()));
    const trace = JSON.stringify(outcome.steps.map((s) => [s.stepId, s.verb, s.status, s.failure?.reason])) + `\n${held.join('\n')}`;
    expect(outcome.status, trace).toBe('completed');
    expect(count(bot, 'wooden_pickaxe')).toBe(1);
  });

  it('repairs a lone craft step from declarations: craft_item stick, precond_missing, then gather and planks', async () => {
    const { bot, executor } = await setup('goaprepair');
    const outcome = await executor.run({ planId: 'sticks', intentId: 'sticks', steps: [{ stepId: 's1', type: 'craft_item', args: { item: 'stick', count: 4 } }] });
    const trace = JSON.stringify(outcome.steps.map((s) => [s.stepId, s.verb, s.status, s.failure?.reason]));
    expect(outcome.status, trace).toBe('completed');
    expect(outcome.repairs, trace).toBeGreaterThanOrEqual(1);
    expect(outcome.steps.some((s) => s.stepId.startsWith('s1-r') && s.verb === 'gather' && s.status === 'succeeded'), trace).toBe(true);
    expect(count(bot, 'stick')).toBeGreaterThanOrEqual(4);
  });
});
