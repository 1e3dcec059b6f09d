import { createExecutor } from '@sinew/bt-runtime';
import { createStandardRegistry, instrumentBot, observeWorld, type SinewBot } from '@sinew/capabilities';
import { blockKey, IntentSchema } from '@sinew/executor-contracts';
import { connectBot, give, placeTree, setBlock, setTime } from '@sinew/testkit';
import { expect, it } from 'vitest';
import { createNeedsPlanner, createPlannerRepairHook, sheltered } from '../../src/index.js';
import { createMinecraftHtn, focusAround } from '../../src/minecraft/index.js';
import { useEmbeddedServer } from '../support/server.js';

// The autonomous loop's "armed" and "sheltered" on the embedded server: the needs planner names the need, the HTN plans
// it, the real executor runs it, and the world (not a log line) says whether it happened.
const embedded = useEmbeddedServer();

async function rig(username: string) {
  const bot = instrumentBot(await connectBot(embedded.server(), { username }));
  const registry = createStandardRegistry();
  const htn = createMinecraftHtn({ registry });
  const snapshot = () => observeWorld(bot, { positions: focusAround(bot.entity.position, 6) });
  const executor = createExecutor({ registry, body: bot, repair: createPlannerRepairHook(htn, snapshot) });
  embedded.track(bot, executor);
  const needs = createNeedsPlanner({ seed: 26 });
  const pursue = async (need: string) => {
    const intent = needs.formIntent(snapshot());
    expect(intent.context.need).toBe(need);
    const planned = htn.plan(IntentSchema.parse(intent), snapshot());
    if (!planned.ok) throw new Error(`${intent.goal}: ${planned.failure.code} ${planned.failure.reason}`);
    const outcome = await executor.run(planned.plan, { intent });
    return { intent, planned: planned.plan, outcome, trace: JSON.stringify(outcome.steps.map((s) => [s.stepId, s.verb, s.status, s.failure?.reason])) };
  };
  return { bot, snapshot, needs, pursue };
}

const count = (bot: SinewBot, name: string) => bot.inventory.items().filter((i) => i.name === name).reduce((n, i) => n + i.count, 0);

it('unarmed after the pickaxe (its leftovers in hand): the weapon need crafts a wooden sword', async () => {
  await placeTree(embedded.server(), embedded.server().spawn.offset(3, 0, 2).floored(), { kind: 'oak', height: 5 });
  const { bot, pursue } = await rig('armer');
  // What the need-wood plan leaves: the pickaxe, a plank, a stick.
  await give(bot, 'wooden_pickaxe', 1);
  await give(bot, 'oak_planks', 1);
  await give(bot, 'stick', 1);
  const { intent, outcome, trace } = await pursue('weapon');
  expect(intent.goal).toBe('craft wooden_sword');
  expect(outcome.status, trace).toBe('completed');
  expect(count(bot, 'wooden_sword')).toBe(1);
}, 60_000);

it('night beside the crafting table: the shelter need builds a dirt hut around the bot, and the need is met', async () => {
  const { bot, snapshot, needs, pursue } = await rig('builder');
  const feet = bot.entity.position.floored();
  await setBlock(embedded.server(), feet.offset(1, 0, 0), 'crafting_table');
  await give(bot, 'dirt', 32);
  await give(bot, 'wooden_sword', 1);
  await give(bot, 'wooden_pickaxe', 1);
  await setTime(embedded.server(), 15_000);
  await new Promise<void>((resolve) => (bot.time.timeOfDay >= 13_000 ? resolve() : bot.once('time', () => resolve())));
  const { planned, outcome, trace } = await pursue('shelter');
  expect(outcome.status, trace).toBe('completed');
  // The world: every block of the blueprint stands where the plan put it, and the bot is inside.
  const build = planned.steps.find((s) => s.type === 'build_structure')!.args as { origin: { x: number; y: number; z: number }; blueprint: { dx: number; dy: number; dz: number; block: string }[] };
  const cells = build.blueprint.map((c) => ({ at: { x: build.origin.x + c.dx, y: build.origin.y + c.dy, z: build.origin.z + c.dz }, block: c.block }));
  const seen = observeWorld(bot, { positions: cells.map((c) => c.at) }).blocks;
  const standing = cells.filter((c) => seen[blockKey(c.at)] === c.block);
  expect(standing).toHaveLength(25);
  expect(sheltered(snapshot())).toBe(true);
  expect(needs.assess(snapshot()).map((n) => n.need)).not.toContain('shelter');
}, 90_000);
