import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { connectBot, setBlock, startServer, teleport, waitUntil, type TestServer } from '../src/index.js';

/** Entities the client made up from a packet about an id it never saw spawned (mineflayer's fetchEntity). */
const placeholders = (bot: Bot): number[] =>
  Object.values(bot.entities)
    .filter((e) => !e.type)
    .map((e) => e.id);

const itemIds = (bot: Bot): number[] =>
  Object.values(bot.entities)
    .filter((e) => e.name === 'item')
    .map((e) => e.id);

/**
 * The next item entity the bot sees spawn (undefined if none within `ticks` server ticks). Counted in the server's ticks:
 * a 3 s wall-clock budget, started before the dig, ran out in a full run at load ~7 (the dig itself takes 15 of them).
 */
async function nextItemSpawn(server: TestServer, bot: Bot, ticks: number): Promise<{ id: number } | undefined> {
  let spawned: { id: number } | undefined;
  const onSpawn = (entity: { id: number; name?: string }): void => {
    if (entity.name === 'item') spawned ??= entity;
  };
  bot.on('entitySpawn', onSpawn);
  try {
    await waitUntil(server, () => spawned !== undefined, ticks);
    return spawned;
  } finally {
    bot.off('entitySpawn', onSpawn);
  }
}

/** Names of entity packets the bot gets about an id before (or without) its spawn packet. */
function watchUnspawned(bot: Bot): string[] {
  const known = new Set(Object.keys(bot.entities).map(Number));
  const early: string[] = [];
  const client = bot._client as unknown as { on(name: string, fn: (packet: { entityId: number }) => void): void };
  client.on('spawn_entity', (packet) => known.add(packet.entityId));
  for (const name of ['entity_metadata', 'rel_entity_move', 'entity_teleport', 'collect']) {
    client.on(name, (packet) => {
      if (!known.has(packet.entityId ?? (packet as unknown as { collectedEntityId: number }).collectedEntityId)) early.push(name);
    });
  }
  return early;
}

describe('entity lifecycle as clients see it', () => {
  let server: TestServer;
  let digger: Bot;
  let watcher: Bot;
  beforeAll(async () => {
    server = await startServer();
    digger = await connectBot(server, { username: 'digger' });
    watcher = await connectBot(server, { username: 'watcher' });
    await teleport(digger, server.spawn);
    await teleport(watcher, server.spawn.offset(4, 0, 0));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('after dig/collect cycles no bot holds a placeholder or a collected item, nor hears of one before its spawn', async () => {
    const spot = server.spawn.offset(1, 0, 0).floored();
    const early = { digger: watchUnspawned(digger), watcher: watchUnspawned(watcher) };
    for (let cycle = 0; cycle < 8; cycle++) {
      await setBlock(server, spot, 'dirt');
      expect(await waitUntil(server, () => digger.blockAt(spot)?.name === 'dirt', 40)).toBe(true);
      // The drop is seen by its spawn event, not by polling the entity list: a loaded machine can hand the bot the
      // spawn and, half a second later, the pickup of a drop that landed in reach in one go (the list never shows it).
      const dropped = nextItemSpawn(server, digger, 100);
      await digger.dig(digger.blockAt(spot)!);
      const drop = await dropped;
      expect(drop, 'the dug dirt dropped an item').toBeDefined();
      // Walk onto the drop (it flies a random way) unless it landed in reach; it is collected once its pickup delay is over.
      const flying = digger.entities[drop!.id];
      if (flying) await teleport(digger, flying.position.floored().offset(0.5, 0, 0.5));
      expect(await waitUntil(server, () => itemIds(digger).length === 0 && itemIds(watcher).length === 0, 100)).toBe(true);
      await teleport(digger, server.spawn);
    }
    // Time for any late packet (a physics tick that started before the pickup) to arrive.
    await digger.waitForTicks(10);
    expect({ digger: placeholders(digger), watcher: placeholders(watcher) }).toEqual({ digger: [], watcher: [] });
    expect(early).toEqual({ digger: [], watcher: [] });
    expect(digger.inventory.count(digger.registry.itemsByName.dirt!.id, null)).toBe(8);
  });

  it('an item that fell out of the world is removed instead of drifting through the void', async () => {
    const serv = server.serv!;
    const columns = (serv.overworld as unknown as { columns: Record<string, unknown> }).columns;
    const before = Object.keys(columns).length;
    // Below the floor already (what a late physics tick does to a drop), moving sideways at 2 blocks/s.
    const item = serv.spawnObject(serv.registry.entitiesByName.item!.id, serv.overworld, new Vec3(0.5, -20, 0.5), {
      velocity: new Vec3(2, 0, 0),
      itemId: serv.registry.itemsByName.dirt!.id,
    });
    expect(await waitUntil(server, () => serv.entities[item.id] === undefined, 300)).toBe(true);
    // Fallen to y -128 in ~5 s, it crossed at most a column or two; before, it drifted for 5 minutes.
    expect(Object.keys(columns).length - before).toBeLessThanOrEqual(2);
    expect(item.position.y).toBeLessThan(-100);
  });

  it('a resting drop stays on the floor through a late physics tick', async () => {
    const serv = server.serv!;
    const item = serv.spawnObject(serv.registry.entitiesByName.item!.id, serv.overworld, server.spawn.offset(3, 0, 3), {
      itemId: serv.registry.itemsByName.dirt!.id,
    });
    expect(await waitUntil(server, () => item.velocity!.x === 0 && item.velocity!.y === 0 && item.velocity!.z === 0, 100)).toBe(true);
    // One second between two ticks, as on a loaded machine: gravity over that step must not carry it through the ground.
    const step = (item as unknown as { calculatePhysics(delta: number): Promise<{ position: Vec3 }> }).calculatePhysics;
    const { position } = await step(1);
    expect(position.y).toBeGreaterThanOrEqual(server.spawn.y - 0.5);
    item.destroy();
  });
});
