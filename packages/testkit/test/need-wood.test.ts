import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { connectBot, GROUND_Y, placeTree, startServer, waitUntil, type TestServer } from '../src/index.js';

/** Walks straight at a point with plain control states until within `range`, for at most `ticks` of the bot's physics ticks (no pathfinder needed on flat ground). */
async function walkTo(bot: Bot, target: Vec3, range: number, ticks = 100): Promise<void> {
  for (let tick = 0; tick < ticks && bot.entity.position.distanceTo(new Vec3(target.x, bot.entity.position.y, target.z)) > range; tick += 1) {
    await bot.lookAt(new Vec3(target.x, bot.entity.position.y + 1.6, target.z), true);
    bot.setControlState('forward', true);
    await bot.waitForTicks(1);
  }
  bot.setControlState('forward', false);
}

const count = (bot: Bot, name: string): number => bot.inventory.count(bot.registry.itemsByName[name]!.id, null);

describe('the demo path with plain mineflayer: need wood → wooden pickaxe', () => {
  let server: TestServer;
  let bot: Bot;
  beforeAll(async () => {
    server = await startServer();
    bot = await connectBot(server, { username: 'lumberjack' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('digs logs by hand, picks up the drops, crafts planks, sticks and a table, and a pickaxe at the placed table', async () => {
    const tree = await placeTree(server, { x: 2, y: GROUND_Y + 1, z: 0 }, { height: 5 });
    const drops = () => Object.values(bot.entities).filter((e) => e.name === 'item');
    await bot.dig(bot.blockAt(tree.logs[0]!)!);
    // Seen within 8 server ticks of the dig (a loaded machine delivered the spawn later than 2 of the bot's ticks);
    // drops can be picked up only after 10 ticks, so the first one is still there.
    expect(await waitUntil(server, () => drops().length > 0, 8)).toBe(true);
    expect(drops().map((e) => (e.getDroppedItem() as { name?: string } | null)?.name)).toEqual(['oak_log']);
    for (const log of tree.logs.slice(1, 3)) await bot.dig(bot.blockAt(log)!);
    for (let i = 0; i < 6 && count(bot, 'oak_log') < 3; i++) {
      const next = drops()[0];
      if (next) await walkTo(bot, next.position, 0.5);
      await bot.waitForTicks(10);
    }
    expect(count(bot, 'oak_log')).toBe(3);

    const recipe = (name: string, table: ReturnType<Bot['blockAt']> = null) => bot.recipesFor(bot.registry.itemsByName[name]!.id, null, 1, table)[0]!;
    await bot.craft(recipe('oak_planks'), 3);
    await bot.craft(recipe('stick'), 1);
    await bot.craft(recipe('crafting_table'), 1);
    expect([count(bot, 'oak_planks'), count(bot, 'stick'), count(bot, 'crafting_table')]).toEqual([6, 4, 1]);

    await bot.equip(bot.registry.itemsByName.crafting_table!.id, 'hand');
    const spot = bot.entity.position.floored().offset(2, -1, 2);
    await bot.placeBlock(bot.blockAt(spot)!, new Vec3(0, 1, 0));
    const table = bot.blockAt(spot.offset(0, 1, 0));
    expect(table?.name).toBe('crafting_table');
    await bot.craft(recipe('wooden_pickaxe', table), 1, table!);
    expect(count(bot, 'wooden_pickaxe')).toBe(1);
  });
});
