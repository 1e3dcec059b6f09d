import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { connectBot, reset, setBlock, startServer, teleport, type TestServer } from '../src/index.js';
import { animalsOfChunk } from '../src/terrain/animals.js';
import { SEA_LEVEL, surfaceHeight } from '../src/terrain/shape.js';

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

  it('places each chunk herd from the seed where the bot sees it (strolled a few blocks at most), standing on the ground', () => {
    const [sx, sz] = [Math.floor(server.spawn.x / 16), Math.floor(server.spawn.z / 16)];
    const expected: ReturnType<typeof animalsOfChunk> = [];
    for (let cx = sx - 2; cx <= sx + 2; cx++) for (let cz = sz - 2; cz <= sz + 2; cz++) expected.push(...animalsOfChunk(20261126, cx, cz));
    expect(expected.length).toBeGreaterThan(0);
    const seen = Object.values(bot.entities).filter((e) => e.type !== 'player');
    for (const animal of expected) {
      const placed = new Vec3(animal.x, animal.y, animal.z);
      const match = seen.find((e) => e.name === animal.kind && Math.hypot(e.position.x - placed.x, e.position.z - placed.z) < 12 && (animal.kind !== 'sheep' || e.metadata[17] === animal.woolColor));
      expect(match, `${animal.kind} near ${animal.x} ${animal.y} ${animal.z}`).toBeDefined();
      expect(bot.blockAt(match!.position.offset(0, -1, 0))?.boundingBox).toBe('block');
    }
  });

  it('reset puts generated blocks back: a felled trunk grows again from the seed', async () => {
    const log = bot.findBlock({ matching: (b) => b.name.endsWith('_log'), maxDistance: 64 })!;
    const name = log.name;
    await setBlock(server, log.position, 'air');
    expect(bot.blockAt(log.position)?.name).toBe('air');
    await reset(server);
    expect(bot.blockAt(log.position)?.name).toBe(name);
  });

  it('unloads columns far from every player (unchanged ones only) and generates them again, the same, on return', async () => {
    const serv = server.serv!;
    const columns = (serv.overworld as unknown as { columns: Record<string, unknown> }).columns;
    const home = server.spawn.floored();
    const key = `${Math.floor(home.x / 16)},${Math.floor(home.z / 16)}`;
    const ground = bot.blockAt(home.offset(0, -1, 0))!.name;
    const changed = home.offset(40, 0, 0);
    const changedKey = `${Math.floor(changed.x / 16)},${Math.floor(changed.z / 16)}`;
    await setBlock(server, changed, 'gold_block');
    // Onto the ground far away (a fall from the sky would kill the bot and respawn it at home).
    const [farX, farZ] = [home.x + 400, home.z];
    await teleport(bot, new Vec3(farX + 0.5, Math.max(surfaceHeight(20261126, farX, farZ), SEA_LEVEL) + 1, farZ + 0.5));
    const gone = async () => {
      const end = serv.tickCount + 220;
      while (columns[key] !== undefined && serv.tickCount < end) await new Promise((r) => setTimeout(r, 100));
      return columns[key] === undefined;
    };
    expect(await gone()).toBe(true);
    expect(columns[changedKey], 'a changed column stays').toBeDefined();
    await teleport(bot, server.spawn);
    await bot.waitForChunksToLoad();
    expect(bot.blockAt(home.offset(0, -1, 0))?.name).toBe(ground);
    expect(bot.blockAt(changed)?.name).toBe('gold_block');
  });

  it('rejects an unknown generator with a structured error', async () => {
    await expect(startServer({ world: { generator: 'amplified' as 'terrain', seed: 1 } })).rejects.toMatchObject({ code: 'invalid_config' });
    await expect(startServer({ version: '1.16.5', world: { generator: 'terrain', seed: 1 } })).rejects.toMatchObject({ code: 'invalid_config', message: expect.stringContaining('1.18') });
  });
});
