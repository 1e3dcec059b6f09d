import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { connectBot, GROUND_Y, placeOutcrop, reset, startServer, techTreeWorld, type TestServer } from '../src/index.js';

const SIDES = [new Vec3(1, 0, 0), new Vec3(-1, 0, 0), new Vec3(0, 0, 1), new Vec3(0, 0, -1), new Vec3(0, 1, 0)];
const names = (bot: Bot, blocks: Vec3[]): string[] => [...new Set(blocks.map((b) => bot.blockAt(b)?.name ?? 'unloaded'))];
const key = (blocks: Vec3[]): string => blocks.map((b) => b.toString()).join(' ');

describe('world presets: seeded outcrop and the tech_tree world', () => {
  let server: TestServer;
  let bot: Bot;

  beforeAll(async () => {
    server = await startServer();
    bot = await connectBot(server, { username: 'surveyor' });
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    await reset(server);
  });

  it('placeOutcrop builds stone with the asked coal and iron ore, every ore with a face open to the air', async () => {
    const outcrop = await placeOutcrop(server, { at: { x: 8, y: GROUND_Y + 1, z: 0 }, seed: 7, size: 5, coal: 3, iron: 5 });
    expect([outcrop.coal.length, outcrop.iron.length]).toEqual([3, 5]);
    expect(outcrop.stone.length).toBeGreaterThanOrEqual(11);
    expect(names(bot, outcrop.stone)).toEqual(['stone']);
    expect(names(bot, outcrop.coal)).toEqual(['coal_ore']);
    expect(names(bot, outcrop.iron)).toEqual(['iron_ore']);
    for (const ore of [...outcrop.coal, ...outcrop.iron]) expect(SIDES.some((d) => bot.blockAt(ore.plus(d))?.name === 'air')).toBe(true);
    expect(Math.min(...outcrop.stone.map((b) => b.y))).toBe(GROUND_Y + 1);
  });

  it('placeOutcrop is deterministic for a seed and differs between seeds', async () => {
    const at = { x: -8, y: GROUND_Y + 1, z: 4 };
    const first = await placeOutcrop(server, { at, seed: 42 });
    await reset(server);
    const again = await placeOutcrop(server, { at, seed: 42 });
    await reset(server);
    const other = await placeOutcrop(server, { at, seed: 43 });
    expect(key(again.iron) + key(again.coal) + key(again.stone)).toBe(key(first.iron) + key(first.coal) + key(first.stone));
    expect(key(other.iron) + key(other.coal)).not.toBe(key(first.iron) + key(first.coal));
  });

  it('techTreeWorld places trees and an outcrop with enough wood, coal and iron for an iron pickaxe, the same for a seed', async () => {
    const world = await techTreeWorld(server, { seed: 3 });
    const logs = world.trees.flatMap((t) => t.logs);
    expect(logs.length).toBeGreaterThanOrEqual(12);
    expect(names(bot, logs)).toEqual(['oak_log']);
    expect(world.outcrop.iron.length).toBeGreaterThanOrEqual(3);
    expect(world.outcrop.coal.length).toBeGreaterThanOrEqual(1);
    expect(world.outcrop.stone.length).toBeGreaterThanOrEqual(11); // 3 for a stone pickaxe, 8 for a furnace
    expect(names(bot, world.outcrop.iron)).toEqual(['iron_ore']);
    // Nothing overlaps: every placed block still holds what was placed there.
    expect(names(bot, world.outcrop.stone)).toEqual(['stone']);
    await reset(server);
    const again = await techTreeWorld(server, { seed: 3 });
    expect(key(again.trees.flatMap((t) => t.logs)) + key(again.outcrop.iron)).toBe(key(logs) + key(world.outcrop.iron));
  });

  it('rejects bad preset options with invalid_config', async () => {
    await expect(placeOutcrop(server, { at: { x: 0, y: 5, z: 0 }, seed: 1, size: 2 })).rejects.toMatchObject({ code: 'invalid_config' });
    await expect(placeOutcrop(server, { at: { x: 0, y: 5, z: 0 }, seed: 1, size: 3, coal: 20, iron: 20 })).rejects.toMatchObject({ code: 'invalid_config' });
    await expect(techTreeWorld(server, { seed: -1 })).rejects.toMatchObject({ code: 'invalid_config' });
    await expect(techTreeWorld(server, { seed: 1, extra: true } as never)).rejects.toMatchObject({ code: 'invalid_config' });
  });
});
