import { fill, give, placeTree, teleport } from '@sinew/testkit';
import { describe, expect, it } from 'vitest';
import { gather, GATHER_TREE } from '../src/index.js';
import { useWorld, waitUntil } from './world.js';

const world = useWorld();

const logs = () => world.bot.inventory.items().filter((i) => i.name.endsWith('_log')).reduce((n, i) => n + i.count, 0);

describe('gather', () => {
  it('is a behavior tree: find → go → dig → collect with an explore fallback', () => {
    expect(gather.runnerKind).toBe('behavior-tree');
    for (const leaf of ['FindTarget', 'GoToTarget', 'DigTarget', 'CollectDrops', 'Explore', 'HasEnough']) expect(GATHER_TREE).toContain(leaf);
  });

  it('gathers 3 logs of any kind from nearby trees; acceptance counts the inventory', async () => {
    const { server } = world;
    await placeTree(server, server.spawn.offset(5, 0, 3).floored(), { kind: 'oak', height: 4 });
    await placeTree(server, server.spawn.offset(-6, 0, -2).floored(), { kind: 'birch', height: 4 });
    const outcome = await world.step('gather', { block: 'log', count: 3 });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(logs()).toBeGreaterThanOrEqual(3);
  });

  it('asks for the cheapest harvest tool instead of digging stone by hand (precond_missing)', async () => {
    const { bot } = world;
    const outcome = await world.step('gather', { block: 'stone' });
    expect(outcome.failure?.code).toBe('precond_missing');
    expect(outcome.failure?.missing).toEqual(['has_item:wooden_pickaxe:1']);
    // Any tool that harvests it will do; a group passes while one of its kinds needs no tool.
    await give(bot, 'stone_pickaxe', 1);
    expect(gather.guard({ body: bot }, gather.inputSchema.parse({ block: 'stone' })).ok).toBe(true);
    expect(gather.guard({ body: bot }, gather.inputSchema.parse({ block: 'log' })).ok).toBe(true);
  });

  it('never digs the block it stands on: on a 2-high stone slab it mines beside itself, and can walk away after', async () => {
    const { bot, server } = world;
    const ground = server.spawn.floored();
    // A 5×5 slab two blocks high, the bot on top of its centre: the nearest stone is the one under its feet.
    await fill(server, ground.offset(-2, 0, -2), ground.offset(2, 1, 2), 'stone');
    await give(bot, 'wooden_pickaxe', 1);
    await teleport(bot, ground.offset(0.5, 2, 0.5));
    const support = ground.offset(0, 1, 0);
    const outcome = await world.step('gather', { block: 'stone', count: 1 });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    // Digging its support drops the bot into the slab; two of those and it is in a shaft walking cannot leave.
    expect(bot.blockAt(support)?.name).toBe('stone');
    const more = await world.step('gather', { block: 'stone', count: 2 });
    expect(more.status, JSON.stringify(more.failure)).toBe('succeeded');
    const away = await world.step('navigate', { position: ground.offset(8, 0, 0), range: 1 });
    expect(away.status, `from ${bot.entity.position}: ${JSON.stringify(away.failure)}`).toBe('succeeded');
  });

  it('preempted after its first log, the resumed attempt continues: the log it had counts, it stops at 3 in all', async () => {
    const { server, executor } = world;
    await placeTree(server, server.spawn.offset(4, 0, 2).floored(), { kind: 'oak', height: 4 });
    await placeTree(server, server.spawn.offset(-4, 0, -3).floored(), { kind: 'oak', height: 5 });
    const run = executor.run({ planId: 'gather-preempted', intentId: 'test', steps: [{ stepId: 's1', type: 'gather', args: { block: 'oak_log', count: 3 } }] });
    await waitUntil(world.server, () => logs() >= 1, 600);
    const [fast] = await executor.preempt([{ stepId: 'shout', type: 'chat', args: { message: 'one log in, hold on' } }], { reason: 'test' });
    expect(fast?.status, JSON.stringify(fast?.failure)).toBe('succeeded');
    const step = (await run).steps.at(-1)!;
    // The resumed attempt continues from the interrupted one's `pre`: runner and acceptance both count from the step's start.
    expect(step.status, JSON.stringify(step.failure)).toBe('succeeded');
    expect(logs()).toBe(3);
  }, 90_000);

  it('refuses a name that is neither a block nor a block group (guard_failed)', async () => {
    const outcome = await world.step('gather', { block: 'unobtainium' });
    expect(outcome.failure?.code).toBe('guard_failed');
  });
});
