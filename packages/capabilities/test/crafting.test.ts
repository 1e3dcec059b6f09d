import { give, setBlock, setFood } from '@sinew/testkit';
import { describe, expect, it } from 'vitest';
import { useWorld } from './world.js';

const world = useWorld();

const count = (name: string) => world.bot.inventory.items().filter((i) => i.name === name).reduce((n, i) => n + i.count, 0);

describe('craft_item', () => {
  it('crafts planks in the 2×2 grid; acceptance sees the count rise', async () => {
    await give(world.bot, 'oak_log', 1);
    const outcome = await world.step('craft_item', { item: 'oak_planks', count: 4 });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(count('oak_planks')).toBe(4);
    expect(count('oak_log')).toBe(0);
  });

  it("waits for the result: the server's late answer to an earlier click (the planks shown at 4 for a moment after the craft) does not fail it", async () => {
    const { bot } = world;
    await give(bot, 'oak_log', 3);
    const craft = bot.craft;
    let restored: Promise<void> | undefined;
    // As on a loaded server: the clicks are done, then the answer to the first one arrives, and the last state after it.
    bot.craft = async function (this: unknown, ...args: Parameters<typeof craft>) {
      await craft.apply(this, args);
      const planks = bot.inventory.items().find((i) => i.name === 'oak_planks')!;
      const withCount = (n: number): typeof planks => Object.assign(Object.create(Object.getPrototypeOf(planks) as object) as typeof planks, planks, { count: n });
      bot.inventory.updateSlot(planks.slot, withCount(4));
      restored = new Promise((resolve) => setTimeout(() => resolve(bot.inventory.updateSlot(planks.slot, withCount(planks.count))), 300));
    };
    try {
      const outcome = await world.step('craft_item', { item: 'oak_planks', count: 12 });
      expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
      expect(outcome.attempts).toBe(1);
    } finally {
      bot.craft = craft;
      await restored;
    }
    expect(count('oak_planks')).toBe(12);
  });

  it('refuses a misspelled argument (`cout`) as invalid_args and crafts nothing, instead of crafting one plank', async () => {
    await give(world.bot, 'oak_log', 1);
    const outcome = await world.step('craft_item', { item: 'oak_planks', cout: 8 });
    expect(outcome.status).toBe('failed');
    expect(outcome.failure).toMatchObject({ code: 'invalid_args', issues: [{ message: 'unknown key `cout` — did you mean `count`?' }] });
    expect(count('oak_planks')).toBe(0);
    expect(count('oak_log')).toBe(1);
  });

  it('runs the recipe as often as the count needs', async () => {
    await give(world.bot, 'oak_planks', 4);
    const outcome = await world.step('craft_item', { item: 'stick', count: 8 });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(count('stick')).toBe(8);
  });

  it('crafts a wooden pickaxe at a crafting table within 4 blocks', async () => {
    const { bot, server } = world;
    await give(bot, 'oak_planks', 3);
    await give(bot, 'stick', 2);
    await setBlock(server, server.spawn.offset(2, 0, 0).floored(), 'crafting_table');
    const outcome = await world.step('craft_item', { item: 'wooden_pickaxe' });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(count('wooden_pickaxe')).toBe(1);
  });

  it('names the missing ingredients and the missing table (precond_missing)', async () => {
    await give(world.bot, 'oak_planks', 3);
    const outcome = await world.step('craft_item', { item: 'wooden_pickaxe' });
    expect(outcome.failure?.code).toBe('precond_missing');
    expect(outcome.failure?.missing).toEqual(['has_item:stick:2', 'near_block:crafting_table']);
  });

  it('names the ingredient totals for a bigger count', async () => {
    await give(world.bot, 'oak_planks', 1);
    const outcome = await world.step('craft_item', { item: 'stick', count: 8 });
    expect(outcome.failure?.missing).toEqual(['has_item:oak_planks:4']);
  });

  it('refuses unknown items and uncraftable ones (guard_failed)', async () => {
    expect((await world.step('craft_item', { item: 'unobtainium' })).failure?.code).toBe('guard_failed');
    expect((await world.step('craft_item', { item: 'diamond_ore' })).failure?.code).toBe('guard_failed');
  });
});

describe('consume_food', () => {
  it('eats and food rises', async () => {
    const { bot } = world;
    await give(bot, 'bread', 2);
    await setFood(bot, 10);
    const outcome = await world.step('consume_food', {});
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(bot.food).toBeGreaterThan(10);
    expect(count('bread')).toBe(1);
  });

  it('chooses the best food held: cooked beef (8 + 12.8 saturation) before bread, raw chicken and rotten flesh (harmful) last', async () => {
    const { bot } = world;
    for (const food of ['rotten_flesh', 'bread', 'chicken', 'cooked_beef']) await give(bot, food, 1);
    await setFood(bot, 6);
    const first = await world.step('consume_food', {});
    expect(first.observables?.ate).toBe('cooked_beef');
    expect(count('cooked_beef')).toBe(0);
    expect((await world.step('consume_food', {})).observables?.ate).toBe('bread');
    expect((await world.step('consume_food', {})).observables?.ate).toBe('rotten_flesh');
  });

  it('asks for food it does not have (precond_missing)', async () => {
    await setFood(world.bot, 10);
    const outcome = await world.step('consume_food', { item: 'bread' });
    expect(outcome.failure?.code).toBe('precond_missing');
    expect(outcome.failure?.missing).toEqual(['has_item:bread:1']);
  });

  it('refuses to eat when full (guard_failed)', async () => {
    await give(world.bot, 'bread', 1);
    expect((await world.step('consume_food', {})).failure?.code).toBe('guard_failed');
  });
});

describe('equip', () => {
  it('holds an item; acceptance reads the hand', async () => {
    await give(world.bot, 'wooden_pickaxe', 1);
    const outcome = await world.step('equip', { item: 'wooden_pickaxe' });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(world.bot.heldItem?.name).toBe('wooden_pickaxe');
  });

  it('wears armour on its slot', async () => {
    await give(world.bot, 'leather_helmet', 1);
    const outcome = await world.step('equip', { item: 'leather_helmet', destination: 'head' });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
  });

  it('asks for an item it does not have (precond_missing)', async () => {
    const outcome = await world.step('equip', { item: 'stone_sword' });
    expect(outcome.failure?.missing).toEqual(['has_item:stone_sword:1']);
  });
});
