import { give, setBlock } from '@sinew/testkit';
import { describe, expect, it } from 'vitest';
import { useWorld } from './world.js';

const world = useWorld();

const count = (name: string) => world.bot.inventory.items().filter((i) => i.name === name).reduce((n, i) => n + i.count, 0);

describe('smelt_item', () => {
  it('places a furnace from the inventory, burns planks (never the cobblestone it holds) and gains the ingot', async () => {
    const { bot } = world;
    await give(bot, 'furnace', 1);
    await give(bot, 'raw_iron', 1);
    await give(bot, 'oak_planks', 2);
    await give(bot, 'cobblestone', 8);
    const outcome = await world.step('smelt_item', { item: 'iron_ingot', input: 'raw_iron' });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect([count('iron_ingot'), count('raw_iron'), count('furnace'), count('cobblestone'), count('oak_planks')]).toEqual([1, 0, 0, 8, 1]);
    expect(bot.findBlock({ matching: bot.registry.blocksByName.furnace!.id, maxDistance: 4 })).not.toBeNull();
  }, 60_000);

  it('resumes on a second try from what the furnace already holds instead of asking for the ore again', async () => {
    const { bot, server } = world;
    await setBlock(server, server.spawn.offset(2, 0, 0).floored(), 'furnace');
    await give(bot, 'raw_iron', 2);
    await give(bot, 'coal', 1);
    // A 4 s expectation times the first attempt out after 12 s: one ingot cooked, one ore still in the furnace.
    const first = await world.executor.run({
      planId: 'resume-1',
      intentId: 'test',
      steps: [{ stepId: 's1', type: 'smelt_item', args: { item: 'iron_ingot', input: 'raw_iron', count: 2 }, expectedDurationMs: 4_000 }],
    });
    expect(first.steps.at(-1)?.failure?.code).toBe('timeout');
    expect([count('raw_iron'), count('iron_ingot')]).toEqual([0, 0]);
    const second = await world.step('smelt_item', { item: 'iron_ingot', input: 'raw_iron', count: 2 });
    expect(second.status, JSON.stringify(second.failure)).toBe('succeeded');
    expect(count('iron_ingot')).toBe(2);
  }, 90_000);

  it('names what is missing: a furnace, the ore and the fuel (precond_missing)', async () => {
    const outcome = await world.step('smelt_item', { item: 'iron_ingot', input: 'raw_iron', count: 3 });
    expect(outcome.failure?.code).toBe('precond_missing');
    expect(outcome.failure?.missing).toEqual(['near_block:furnace', 'has_item:raw_iron:3', 'has_item:coal:1']);
  });

  it('refuses an unknown key and an unknown item', async () => {
    expect((await world.step('smelt_item', { item: 'iron_ingot', input: 'raw_iron', fuel: 'coal' })).failure?.code).toBe('invalid_args');
    expect((await world.step('smelt_item', { item: 'iron_ingot', input: 'unobtainium' })).failure?.code).toBe('guard_failed');
  });
});
