import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { connectBot, fill, give, GROUND_Y, placeTree, reset, setBlock, startServer, TestkitError, type TestServer } from '../src/index.js';

describe('embedded server and world helpers', () => {
  let server: TestServer;
  let bot: Bot;

  beforeAll(async () => {
    server = await startServer();
    bot = await connectBot(server, { username: 'worldbot' });
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    await reset(server);
  });

  it('listens on a loopback port and spawns the bot on the superflat ground with chunks loaded', () => {
    expect(server.host).toBe('127.0.0.1');
    expect(server.port).toBeGreaterThan(0);
    expect(server.version).toBe('1.20.4');
    expect(bot.entity.position.y).toBe(GROUND_Y + 1);
    expect(bot.blockAt(new Vec3(0, GROUND_Y, 0))?.name).toBe('grass_block');
    expect(bot.blockAt(new Vec3(20, GROUND_Y, -20))?.name).toBe('grass_block');
    expect(bot.game.gameMode).toBe('survival');
  });

  it('give puts stacks into the inventory the bot sees, stacking up to the item stack size', async () => {
    await give(bot, 'oak_log', 70);
    await give(bot, 'bread', 2);
    expect(bot.inventory.count(bot.registry.itemsByName.oak_log!.id, null)).toBe(70);
    expect(bot.inventory.count(bot.registry.itemsByName.bread!.id, null)).toBe(2);
    expect(bot.inventory.items().filter((i) => i.name === 'oak_log').map((i) => i.count).sort()).toEqual([6, 64]);
  });

  it('setBlock and fill change blocks the bot sees, and unknown names fail with a code', async () => {
    await setBlock(server, { x: 3, y: GROUND_Y + 1, z: 3 }, 'stone');
    expect(bot.blockAt(new Vec3(3, GROUND_Y + 1, 3))?.name).toBe('stone');
    await fill(server, { x: -12, y: GROUND_Y + 1, z: -12 }, { x: -6, y: GROUND_Y + 3, z: -6 }, 'cobblestone');
    expect(bot.blockAt(new Vec3(-9, GROUND_Y + 2, -9))?.name).toBe('cobblestone');
    expect(bot.blockAt(new Vec3(-5, GROUND_Y + 2, -9))?.name).toBe('air');
    await fill(server, { x: 8, y: GROUND_Y + 1, z: 8 }, { x: 9, y: GROUND_Y + 1, z: 9 }, 'oak_planks');
    expect(bot.blockAt(new Vec3(9, GROUND_Y + 1, 8))?.name).toBe('oak_planks');
    await expect(setBlock(server, { x: 0, y: 10, z: 0 }, 'no_such_block')).rejects.toMatchObject({ code: 'unknown_block' });
    await expect(give(bot, 'no_such_item', 1)).rejects.toBeInstanceOf(TestkitError);
  });

  it('placeTree grows a trunk of logs with leaves the bot can find', async () => {
    const tree = await placeTree(server, { x: 5, y: GROUND_Y + 1, z: 0 }, { kind: 'birch', height: 6 });
    expect(tree.logs).toHaveLength(6);
    for (const log of tree.logs) expect(bot.blockAt(log)?.name).toBe('birch_log');
    expect(bot.blockAt(tree.leaves[0]!)?.name).toBe('birch_leaves');
    const found = bot.findBlock({ matching: bot.registry.blocksByName.birch_log!.id, maxDistance: 16 });
    expect(found?.position.x).toBe(5);
  });

  it('reset clears placed blocks and inventories and puts the bot back at the spawn', async () => {
    await give(bot, 'stick', 5);
    await setBlock(server, { x: 2, y: GROUND_Y + 1, z: 2 }, 'stone');
    await setBlock(server, { x: 2, y: GROUND_Y, z: 2 }, 'air');
    await reset(server);
    expect(bot.inventory.items()).toEqual([]);
    expect(bot.blockAt(new Vec3(2, GROUND_Y + 1, 2))?.name).toBe('air');
    expect(bot.blockAt(new Vec3(2, GROUND_Y, 2))?.name).toBe('grass_block');
    expect(bot.entity.position.distanceTo(server.spawn)).toBeLessThan(0.01);
  });

  it('rejects bad options with a structured error', async () => {
    await expect(startServer({ port: -1 })).rejects.toMatchObject({ code: 'invalid_config' });
    await expect(connectBot(server, { username: 'bad name!' })).rejects.toMatchObject({ code: 'invalid_config' });
  });
});
