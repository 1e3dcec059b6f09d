import { ConfigError } from '@sinew/executor-contracts';
import { Vec3 } from 'vec3';
import { TestkitError } from './errors.js';
import { embedded, stateOf, GROUND_Y, type TestServer } from './server.js';
import type { SquidServer } from './squid/types.js';
import { syncAll } from './sync.js';
import { toNotch } from './extensions/items.js';
import { ALREADY_SO } from './external.js';

/** A block position; any object with x, y, z (floored). */
export interface Position {
  x: number;
  y: number;
  z: number;
}

/** The default state id of a block name (unknown_block when the version has none). */
export function stateIdOf(serv: SquidServer, name: string): number {
  const block = serv.registry.blocksByName[name.replace(/^minecraft:/, '')];
  if (!block) throw new TestkitError('unknown_block', `no block named ${JSON.stringify(name)} in ${serv.registry.version.minecraftVersion}`);
  return block.defaultState ?? block.minStateId ?? 0;
}

const floorOf = (p: Position): Vec3 => new Vec3(Math.floor(p.x), Math.floor(p.y), Math.floor(p.z));

/** Sets one block (default state) and waits until every connected bot has seen it. */
export async function setBlock(server: TestServer, pos: Position, name: string): Promise<void> {
  const state = stateOf(server);
  if (state.external) {
    const p = floorOf(pos);
    await state.external.command(`setblock ${p.x} ${p.y} ${p.z} minecraft:${name}`, { accept: ALREADY_SO });
    return;
  }
  const { serv } = embedded(server, 'setBlock');
  await serv.setBlock(serv.overworld, floorOf(pos), stateIdOf(serv, name));
  await syncAll(serv);
}

/** Fills the box between two corners (inclusive) and waits until every bot has seen it. */
export async function fill(server: TestServer, from: Position, to: Position, name: string): Promise<void> {
  const a = floorOf(from);
  const b = floorOf(to);
  const min = new Vec3(Math.min(a.x, b.x), Math.min(a.y, b.y), Math.min(a.z, b.z));
  const max = new Vec3(Math.max(a.x, b.x), Math.max(a.y, b.y), Math.max(a.z, b.z));
  const state = stateOf(server);
  if (state.external) {
    await state.external.command(`fill ${min.x} ${min.y} ${min.z} ${max.x} ${max.y} ${max.z} minecraft:${name}`, { accept: ALREADY_SO });
    return;
  }
  const { serv } = embedded(server, 'fill');
  const stateId = stateIdOf(serv, name);
  const volume = (max.x - min.x + 1) * (max.y - min.y + 1) * (max.z - min.z + 1);
  if (volume <= 64) {
    for (let x = min.x; x <= max.x; x++)
      for (let y = min.y; y <= max.y; y++)
        for (let z = min.z; z <= max.z; z++) await serv.setBlock(serv.overworld, new Vec3(x, y, z), stateId);
  } else {
    // Large boxes: write the world directly, then resend each touched chunk once.
    for (let x = min.x; x <= max.x; x++)
      for (let y = min.y; y <= max.y; y++)
        for (let z = min.z; z <= max.z; z++) await serv.overworld.setBlockStateId(new Vec3(x, y, z), stateId);
    await resendChunks(serv, min, max);
  }
  await syncAll(serv);
}

/** Sends the chunks covering a box again to every player that has them loaded. */
export async function resendChunks(serv: SquidServer, min: Position, max: Position): Promise<void> {
  for (let cx = Math.floor(min.x / 16); cx <= Math.floor(max.x / 16); cx++) {
    for (let cz = Math.floor(min.z / 16); cz <= Math.floor(max.z / 16); cz++) {
      const column = await serv.overworld.getColumn(cx, cz);
      for (const player of serv.players) {
        if (player.loadedChunks?.[`${cx},${cz}`] !== undefined) await player.sendChunk(cx, cz, column);
      }
    }
  }
}

/** Options of {@link placeTree}. */
export interface TreeOptions {
  /** Wood kind: oak (default), birch, spruce, jungle, acacia, dark_oak, mangrove, cherry. */
  kind?: string;
  /** Trunk height in blocks (default 5, 1..16). */
  height?: number;
}

/** Where the blocks of a placed tree are. */
export interface PlacedTree {
  logs: Vec3[];
  leaves: Vec3[];
}

/** Grows a simple tree: a trunk of `<kind>_log` from `base` upward and a leaf crown around its top. */
export async function placeTree(server: TestServer, base: Position, options: TreeOptions = {}): Promise<PlacedTree> {
  const kind = options.kind ?? 'oak';
  const height = options.height ?? 5;
  if (!Number.isInteger(height) || height < 1 || height > 16)
    throw ConfigError.field('placeTree', ['height'], `expected an integer 1..16, received ${JSON.stringify(height)}`);
  const origin = floorOf(base);
  const logs: Vec3[] = [];
  const leaves: Vec3[] = [];
  for (let dy = 0; dy < height; dy++) logs.push(origin.offset(0, dy, 0));
  const top = origin.y + height - 1;
  for (let y = top - 1; y <= top + 1; y++) {
    const radius = y > top ? 1 : 2;
    for (let dx = -radius; dx <= radius; dx++) {
      for (let dz = -radius; dz <= radius; dz++) {
        if (dx === 0 && dz === 0 && y <= top) continue;
        if (radius === 2 && Math.abs(dx) === 2 && Math.abs(dz) === 2) continue;
        if (y >= origin.y + 1) leaves.push(new Vec3(origin.x + dx, y, origin.z + dz));
      }
    }
  }
  const state = stateOf(server);
  if (state.external) {
    for (const p of leaves) await state.external.command(`setblock ${p.x} ${p.y} ${p.z} minecraft:${kind}_leaves[persistent=true]`, { accept: ALREADY_SO });
    await state.external.command(`fill ${origin.x} ${origin.y} ${origin.z} ${origin.x} ${top} ${origin.z} minecraft:${kind}_log`, { accept: ALREADY_SO });
    return { logs, leaves };
  }
  const { serv } = embedded(server, 'placeTree');
  const logState = stateIdOf(serv, `${kind}_log`);
  const leafState = stateIdOf(serv, `${kind}_leaves`);
  for (const p of logs) await serv.setBlock(serv.overworld, p, logState);
  for (const p of leaves) await serv.setBlock(serv.overworld, p, leafState);
  await syncAll(serv);
  return { logs, leaves };
}

/** Options of {@link reset}. */
export interface ResetOptions {
  /** Half-size in blocks of the square around the spawn that is cleared on an external server (default 40). */
  radius?: number;
}

/**
 * Puts the server back to a fresh state between tests: regenerates every chunk whose blocks
 * changed, removes mobs and dropped items, empties inventories, heals, feeds, sets survival
 * and teleports every player to the spawn.
 */
export async function reset(server: TestServer, options: ResetOptions = {}): Promise<void> {
  const radius = options.radius ?? 40;
  const state = stateOf(server);
  if (state.external) {
    const ext = state.external;
    await ext.command('kill @e[type=!player]', { accept: ALREADY_SO });
    await ext.command('clear @a', { accept: ALREADY_SO });
    await ext.command('gamemode survival @a');
    await ext.command('effect give @a minecraft:instant_health 1 10');
    await ext.command('effect give @a minecraft:saturation 1 10');
    for (let x = -radius; x <= radius; x += 32) {
      for (let z = -radius; z <= radius; z += 32) {
        const x2 = Math.min(x + 31, radius);
        const z2 = Math.min(z + 31, radius);
        await ext.command(`fill ${x} ${GROUND_Y + 1} ${z} ${x2} ${GROUND_Y + 24} ${z2} minecraft:air`, { accept: ALREADY_SO });
        await ext.command(`fill ${x} ${GROUND_Y} ${z} ${x2} ${GROUND_Y} ${z2} minecraft:grass_block`, { accept: ALREADY_SO });
      }
    }
    await ext.command(`tp @a ${server.spawn.x} ${server.spawn.y} ${server.spawn.z}`);
    return;
  }
  const { serv } = embedded(server, 'reset');
  // Clicks still in flight (e.g. the last ones of bot.craft) must land before the inventory is emptied.
  await syncAll(serv);
  // What the handlers paused while the world is reset (the hostile spawner) resumes at the end.
  const resume = state.resetHandlers.map((handler) => handler()).filter((after) => typeof after === 'function');
  for (const entity of Object.values(serv.entities)) {
    if (entity.type !== 'player') entity.destroy();
  }
  await regenerate(serv, state.dirtyChunks);
  for (const player of serv.players) {
    for (let slot = 0; slot < player.inventory.slots.length; slot++) {
      if (player.inventory.slots[slot]) player.inventory.updateSlot(slot, null);
    }
    player.inventory.selectedItem = null;
    // The whole inventory once more, so a client whose predicted clicks went astray matches the server.
    player._client.write('window_items', {
      windowId: 0,
      stateId: 0,
      items: player.inventory.slots.map(() => toNotch(serv, null)),
      carriedItem: toNotch(serv, null),
    });
    if (player.gameMode !== 0) player.setGameMode(0);
    player.foodSaturation = 5;
    player.updateFood(20);
    player.updateHealth(20);
    player.sendSelfPosition(server.spawn.clone());
  }
  await syncAll(serv);
  for (const after of resume) after();
}

async function regenerate(serv: SquidServer, dirty: Set<string>): Promise<void> {
  const world = serv.overworld as unknown as {
    chunkGenerator: (x: number, z: number) => unknown;
    setColumn(x: number, z: number, column: unknown): Promise<void>;
  };
  const chunks = [...dirty].map((key) => key.split(',').map(Number) as [number, number]);
  for (const [cx, cz] of chunks) await world.setColumn(cx, cz, world.chunkGenerator(cx, cz));
  dirty.clear();
  for (const [cx, cz] of chunks) await resendChunks(serv, { x: cx * 16, y: 0, z: cz * 16 }, { x: cx * 16, y: 0, z: cz * 16 });
}
