import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { connectBot, startServer, type TestServer } from '../src/index.js';

describe('a generated terrain world on the embedded server', () => {
  let server: TestServer;
  let bot: Bot;

  beforeAll(async () => {
    server = await startServer({ world: { generator: 'terrain', seed: 20261126 } });
    bot = await connectBot(server, { username: 'hiker' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('spawns the bot on solid ground above the sea, not in water or a tree', () => {
    expect(bot.entity.position.distanceTo(server.spawn)).toBeLessThan(0.01);
    expect(server.spawn.y).toBeGreaterThan(64);
    expect(bot.blockAt(server.spawn.offset(0, -1, 0))?.name).toBe('grass_block');
    for (const dy of [0, 1]) expect(bot.blockAt(server.spawn.offset(0, dy, 0))?.boundingBox).toBe('empty');
    expect(bot.blockAt(server.spawn.offset(0, 1, 0))?.name).not.toBe('water');
  });

  it('shows trees, surface ores and deep ores within the loaded chunks', () => {
    const ids = (...names: string[]): number[] => names.map((n) => bot.registry.blocksByName[n]!.id);
    const log = bot.findBlock({ matching: ids('oak_log', 'birch_log', 'spruce_log'), maxDistance: 64 });
    expect(log, 'a tree').not.toBeNull();
    const shallow = bot.findBlock({ matching: ids('coal_ore', 'copper_ore', 'iron_ore'), maxDistance: 64 });
    expect(shallow, 'coal, copper or iron').not.toBeNull();
    const deep = bot.findBlock({ matching: ids('diamond_ore', 'deepslate_diamond_ore'), maxDistance: 128, count: 1 });
    expect(deep, 'a diamond').not.toBeNull();
    expect(deep!.position.y).toBeLessThanOrEqual(16);
    expect(bot.blockAt(bot.entity.position.floored().offset(0, -64 - bot.entity.position.floored().y, 0))?.name).toBe('bedrock');
  });

  it('rejects an unknown generator with a structured error', async () => {
    await expect(startServer({ world: { generator: 'amplified' as 'terrain', seed: 1 } })).rejects.toMatchObject({ code: 'invalid_options' });
  });
});
