import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { connectBot, give, GROUND_Y, reset, startServer, sync, type TestServer } from '../src/index.js';

const count = (bot: Bot, name: string): number => bot.inventory.count(bot.registry.itemsByName[name]!.id, null);

describe('crafting with plain bot.craft', () => {
  let server: TestServer;
  let bot: Bot;

  beforeAll(async () => {
    server = await startServer();
    bot = await connectBot(server, { username: 'crafter' });
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    await reset(server);
  });

  it('crafts planks and sticks in the 2x2 inventory grid', async () => {
    await give(bot, 'oak_log', 2);
    const [planks] = bot.recipesFor(bot.registry.itemsByName.oak_planks!.id, null, 1, null);
    expect(planks).toBeDefined();
    await bot.craft(planks!, 2, undefined);
    expect(count(bot, 'oak_planks')).toBe(8);
    expect(count(bot, 'oak_log')).toBe(0);

    const [sticks] = bot.recipesFor(bot.registry.itemsByName.stick!.id, null, 1, null);
    await bot.craft(sticks!, 1, undefined);
    expect(count(bot, 'stick')).toBe(4);
    expect(count(bot, 'oak_planks')).toBe(6);
  });

  it('the server agrees with the bot after crafting (the items really moved)', async () => {
    await give(bot, 'oak_log', 1);
    const [planks] = bot.recipesFor(bot.registry.itemsByName.oak_planks!.id, null, 1, null);
    await bot.craft(planks!, 1, undefined);
    await sync(bot);
    const player = server.serv!.getPlayer('crafter')!;
    const serverCounts = player.inventory.slots.filter((s) => s !== null).map((s) => `${s!.name}:${s!.count}`);
    expect(serverCounts).toEqual(['oak_planks:4']);
  });

  it('crafts a crafting table, places it, and crafts a wooden pickaxe at it', async () => {
    await give(bot, 'oak_log', 3);
    const planksRecipe = bot.recipesFor(bot.registry.itemsByName.oak_planks!.id, null, 1, null)[0]!;
    await bot.craft(planksRecipe, 3, undefined);
    const tableRecipe = bot.recipesFor(bot.registry.itemsByName.crafting_table!.id, null, 1, null)[0]!;
    await bot.craft(tableRecipe, 1, undefined);
    expect(count(bot, 'crafting_table')).toBe(1);
    const stickRecipe = bot.recipesFor(bot.registry.itemsByName.stick!.id, null, 1, null)[0]!;
    await bot.craft(stickRecipe, 1, undefined);

    // place the table with plain mineflayer
    await bot.equip(bot.registry.itemsByName.crafting_table!.id, 'hand');
    const ground = bot.blockAt(new Vec3(2, GROUND_Y, 0))!;
    await bot.placeBlock(ground, new Vec3(0, 1, 0));
    const table = bot.findBlock({ matching: bot.registry.blocksByName.crafting_table!.id, maxDistance: 6 });
    expect(table).not.toBeNull();

    const pickaxeRecipe = bot.recipesFor(bot.registry.itemsByName.wooden_pickaxe!.id, null, 1, table)[0];
    expect(pickaxeRecipe?.requiresTable).toBe(true);
    await bot.craft(pickaxeRecipe!, 1, table!);
    expect(count(bot, 'wooden_pickaxe')).toBe(1);
    expect(count(bot, 'stick')).toBe(2);
    expect(count(bot, 'oak_planks')).toBe(3);
    expect(bot.currentWindow).toBeNull();
  });

  it('crafts several times at one table in a single bot.craft call; server and bot agree', async () => {
    await give(bot, 'crafting_table', 1);
    await give(bot, 'oak_planks', 8);
    await give(bot, 'stick', 4);
    await bot.equip(bot.registry.itemsByName.crafting_table!.id, 'hand');
    await bot.placeBlock(bot.blockAt(new Vec3(-2, GROUND_Y, 0))!, new Vec3(0, 1, 0));
    const table = bot.blockAt(new Vec3(-2, GROUND_Y + 1, 0));
    expect(table?.name).toBe('crafting_table');
    const axe = bot.recipesFor(bot.registry.itemsByName.wooden_axe!.id, null, 1, table)[0]!;
    await bot.craft(axe, 2, table!);
    await sync(bot);
    expect(count(bot, 'wooden_axe')).toBe(2);
    expect(count(bot, 'oak_planks')).toBe(2);
    expect(count(bot, 'stick')).toBe(0);
    const player = server.serv!.getPlayer('crafter')!;
    const onServer = (name: string) => player.inventory.slots.filter((s) => s?.name === name).reduce((n, s) => n + s!.count, 0);
    expect([onServer('wooden_axe'), onServer('oak_planks'), onServer('stick')]).toEqual([2, 2, 0]);
  });

  it('closing the inventory returns what was left in the 2x2 grid', async () => {
    await give(bot, 'dirt', 3);
    const dirt = bot.inventory.findInventoryItem(bot.registry.itemsByName.dirt!.id, null, false)!;
    await bot.clickWindow(dirt.slot, 0, 0);
    await bot.clickWindow(1, 1, 0);
    await bot.putSelectedItemRange(9, 45, bot.inventory, null);
    expect(bot.inventory.slots[1]?.name).toBe('dirt');
    bot.closeWindow(bot.inventory);
    await sync(bot);
    const player = server.serv!.getPlayer('crafter')!;
    expect(player.inventory.slots[1]).toBeNull();
    expect(bot.inventory.slots[1]).toBeNull();
    expect(count(bot, 'dirt')).toBe(3);
  });

  it('a grid that matches no recipe shows no result and its items can be taken back', async () => {
    await give(bot, 'dirt', 4);
    // put two dirt in the grid by hand: no recipe, so no result appears in slot 0
    const dirt = bot.inventory.findInventoryItem(bot.registry.itemsByName.dirt!.id, null, false)!;
    await bot.clickWindow(dirt.slot, 0, 0);
    await bot.clickWindow(1, 1, 0);
    await bot.clickWindow(2, 1, 0);
    expect(bot.inventory.slots[0]).toBeNull();
    await bot.putSelectedItemRange(9, 45, bot.inventory, null);
    await bot.clickWindow(1, 0, 0);
    await bot.putSelectedItemRange(9, 45, bot.inventory, null);
    await bot.clickWindow(2, 0, 0);
    await bot.putSelectedItemRange(9, 45, bot.inventory, null);
    expect(count(bot, 'dirt')).toBe(4);
  });
});
