import { give } from '@sinew/testkit';
import { describe, expect, it } from 'vitest';
import { countItem, useWorld } from './world.js';

const world = useWorld();

const count = (name: string): number => countItem(world.bot, name);

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

  it('cooks food as well as ore: raw beef becomes cooked beef, the input inferred from the item', async () => {
    await give(world.bot, 'furnace', 1);
    await give(world.bot, 'beef', 1);
    await give(world.bot, 'coal', 1);
    const outcome = await world.step('smelt_item', { item: 'cooked_beef' });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect([count('cooked_beef'), count('beef')]).toEqual([1, 0]);
    // No usual input known: the input is required, and the error says so.
    const unknown = await world.step('smelt_item', { item: 'netherite_scrap' });
    expect(unknown.failure).toMatchObject({ code: 'invalid_args', reason: expect.stringContaining('input') });
  }, 60_000);

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
