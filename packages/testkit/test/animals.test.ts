import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBot, give, spawnMob, startServer, waitUntil, type TestServer } from '../src/index.js';
import { surfaceHeight } from '../src/terrain/shape.js';

/** Seed 7 spawns herds of sheep (white, gray, brown), pigs and chickens within 30 blocks of spawn. */
const SEED = 7;
const ANIMALS = new Set(['cow', 'pig', 'sheep', 'chicken']);

describe('passive animals of a generated world', () => {
  let server: TestServer;
  let bot: Bot;

  beforeAll(async () => {
    // No grazing: a sheared sheep here must stay sheared for the drops test (regrowth has its own test below).
    server = await startServer({ world: { generator: 'terrain', seed: SEED }, animals: { eggIntervalTicks: 20, grazeChance: 0 } });
    bot = await connectBot(server, { username: 'shepherd' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** Standing on the generated ground `dx`, `dz` from spawn. */
  const groundAt = (dx: number, dz: number): Vec3 => {
    const [x, z] = [Math.floor(server.spawn.x) + dx, Math.floor(server.spawn.z) + dz];
    return new Vec3(x + 0.5, surfaceHeight(SEED, x, z) + 1, z + 0.5);
  };
  const serverAnimals = () => Object.values(server.serv!.entities).filter((e) => ANIMALS.has(e.name ?? '') && e.health > 0);
  const untilTick = async (ticks: number) => {
    const end = server.serv!.tickCount + ticks;
    await waitUntil(server, () => server.serv!.tickCount >= end, ticks + 1);
  };
  /** Item drops the bot sees within `radius` of `at`, by item name. */
  const dropsAround = (at: Vec3, radius: number): Record<string, number> => {
    const counts: Record<string, number> = {};
    for (const entity of Object.values(bot.entities)) {
      if (entity.name !== 'item' || entity.position.distanceTo(at) > radius) continue;
      const item = entity.getDroppedItem();
      if (item) counts[item.name] = (counts[item.name] ?? 0) + item.count;
    }
    return counts;
  };
  const killNear = async (kind: string, near: Vec3): Promise<Vec3> => {
    const mob = await spawnMob(server, kind, near);
    await waitUntil(server, () => bot.entities[mob.id] !== undefined, 60);
    const at = bot.entities[mob.id]!.position.clone();
    for (let i = 0; i < 10 && server.serv!.entities[mob.id]; i++) {
      bot.attack(bot.entities[mob.id]!);
      await bot.waitForTicks(3);
    }
    return at;
  };

  it('animals stroll on dry ground: some leave their spot within 100 ticks, none stands in water or in the air', async () => {
    const start = new Map(serverAnimals().map((e) => [e.id, e.position.clone()]));
    expect(start.size).toBeGreaterThan(5);
    await untilTick(100);
    const moved = serverAnimals().filter((e) => start.has(e.id) && e.position.distanceTo(start.get(e.id)!) > 1);
    expect(moved.length).toBeGreaterThan(0);
    for (const animal of serverAnimals()) {
      const feet = animal.position.floored();
      const blocks = server.serv!.registry.blocks;
      const below = blocks[await server.serv!.overworld.getBlockType(feet.offset(0, -1, 0))];
      const at = blocks[await server.serv!.overworld.getBlockType(feet)];
      expect(below?.boundingBox, `${animal.name} at ${animal.position}`).toBe('block');
      expect(at?.name).not.toBe('water');
    }
  });

  it('a killed animal drops what vanilla drops, whatever the weapon: beef, porkchop, mutton and wool, chicken', async () => {
    await give(bot, 'diamond_sword', 1);
    await bot.equip(bot.registry.itemsByName.diamond_sword!.id, 'hand');
    const loot: Record<string, (drops: Record<string, number>) => boolean> = {
      cow: (d) => (d.beef ?? 0) >= 1 && (d.beef ?? 0) <= 3 && (d.leather ?? 0) <= 2,
      pig: (d) => (d.porkchop ?? 0) >= 1 && (d.porkchop ?? 0) <= 3,
      sheep: (d) => (d.mutton ?? 0) >= 1 && d.white_wool === 1,
      chicken: (d) => d.chicken === 1 && (d.feather ?? 0) <= 2,
    };
    for (const [i, kind] of ['cow', 'pig', 'sheep', 'chicken'].entries()) {
      // Apart, so one kill's drops are not counted as the next one's, and out of the bot's pickup box.
      const died = await killNear(kind, groundAt(4, i * 6 - 9));
      expect(await waitUntil(server, () => loot[kind]!(dropsAround(died, 4)), 60), `${kind}: ${JSON.stringify(dropsAround(died, 4))}`).toBe(true);
    }
  });

  it('shears give 1 to 3 wool of the sheep colour once (wearing by one use) and mark it sheared; a sheared sheep drops no wool', async () => {
    const coloured = serverAnimals().find((e) => e.name === 'sheep' && ((e as { woolColor?: number }).woolColor ?? 0) === 12);
    expect(coloured, 'a brown sheep near spawn').toBeDefined();
    const sheep = coloured!;
    await give(bot, 'shears', 1);
    await bot.equip(bot.registry.itemsByName.shears!.id, 'hand');
    await waitUntil(server, () => bot.entities[sheep.id] !== undefined, 60);
    await bot.activateEntity(bot.entities[sheep.id]!);
    expect(await waitUntil(server, () => ((bot.entities[sheep.id]?.metadata[17] as unknown as number) & 0x10) !== 0, 60), 'sheared flag').toBe(true);
    const at = bot.entities[sheep.id]!.position.clone();
    expect(await waitUntil(server, () => (dropsAround(at, 4).brown_wool ?? 0) >= 1, 60)).toBe(true);
    const wool = dropsAround(at, 4).brown_wool!;
    expect(bot.heldItem?.durabilityUsed, 'the shears wore by one use').toBe(1);
    expect(wool).toBeGreaterThanOrEqual(1);
    expect(wool).toBeLessThanOrEqual(3);
    await bot.activateEntity(bot.entities[sheep.id]!);
    await untilTick(10);
    expect(dropsAround(at, 4).brown_wool).toBe(wool);
    for (let i = 0; i < 10 && server.serv!.entities[sheep.id]; i++) {
      bot.attack(bot.entities[sheep.id]!);
      await bot.waitForTicks(3);
    }
    expect(await waitUntil(server, () => (dropsAround(at, 6).mutton ?? 0) >= 1, 60)).toBe(true);
    expect(dropsAround(at, 6).brown_wool).toBe(wool);
  });

  it('chickens lay eggs (every eggIntervalTicks to twice that)', async () => {
    const chicken = await spawnMob(server, 'chicken', groundAt(-5, 3));
    await waitUntil(server, () => bot.entities[chicken.id] !== undefined, 60);
    const at = bot.entities[chicken.id]!.position.clone();
    await untilTick(45);
    expect(await waitUntil(server, () => (dropsAround(at, 3).egg ?? 0) >= 1, 40)).toBe(true);
  });
});

describe('a sheared sheep grazes its wool back', () => {
  it('on grass: 40 ticks after it starts grazing the grass under it is dirt and its wool is back (shears work again)', async () => {
    // grazeChance 1: it starts grazing on the first tick it is sheared on grass (vanilla: one tick in 1000).
    const server = await startServer({ animals: { grazeChance: 1 } });
    try {
      const bot = await connectBot(server, { username: 'grazer' });
      const sheep = await spawnMob(server, 'sheep', server.spawn.offset(2, 0, 1));
      const below = server.spawn.offset(2, -1, 1).floored();
      await give(bot, 'shears', 1);
      await bot.equip(bot.registry.itemsByName.shears!.id, 'hand');
      await waitUntil(server, () => bot.entities[sheep.id] !== undefined, 60);
      const woolByte = () => bot.entities[sheep.id]?.metadata[17] as unknown as number;
      // The server's tick before the click: the shear lands at this tick or later. Read after the bot sees the
      // sheared flag instead, it can be a tick or two late on a loaded machine (the packet waits behind ticks).
      const shornAt = server.serv!.tickCount;
      await bot.activateEntity(bot.entities[sheep.id]!);
      expect(await waitUntil(server, () => (woolByte() & 0x10) !== 0, 60), 'sheared').toBe(true);
      expect(bot.blockAt(below)?.name).toBe('grass_block');
      expect(await waitUntil(server, () => (woolByte() & 0x10) === 0, 400), 'wool back').toBe(true);
      expect(server.serv!.tickCount - shornAt).toBeGreaterThanOrEqual(40);
      expect(await waitUntil(server, () => bot.blockAt(below)?.name === 'dirt', 60), 'the grass eaten').toBe(true);
      // Woolly again: the shears take wool a second time.
      await bot.activateEntity(bot.entities[sheep.id]!);
      expect(await waitUntil(server, () => (woolByte() & 0x10) !== 0, 60), 'sheared twice').toBe(true);
    } finally {
      await server.stop();
    }
  });
});
