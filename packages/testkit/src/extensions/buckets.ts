// Buckets as vanilla 1.20.4 fills them (BucketItem.use): using an empty bucket (the use_item packet) casts a ray from
// the eyes along the look, 5 blocks, that stops at the first block outline or fluid *source*; a water (lava) source
// there turns into air and one bucket into a water_bucket (lava_bucket). Flowing fluid does not stop the ray, so it
// never fills. Not modelled: waterlogged blocks, and the flow that refills an infinite source afterwards.
import { Vec3 } from 'vec3';
import type { SquidItem, SquidPlayer, SquidServer } from '../squid/types.js';
import type { ExtensionContext } from './context.js';
import { HAZARD_RULES } from './hazards.js';
import { addToInventory, createItem } from './items.js';

/** Vanilla numbers of the bucket rule. */
export const BUCKET_RULES = {
  /** How far the bucket's ray reaches from the eyes (Item.getPlayerPOVHitResult in 1.20.4). */
  reach: 5,
  /** The filled bucket of each fluid a bucket can pick up. */
  filled: { water: 'water_bucket', lava: 'lava_bucket' },
  /** A source with no fluid above is this tall (its fluid shape); the ray must enter that box. */
  sourceHeight: 8 / 9,
} as const;

type Fluid = keyof typeof BUCKET_RULES.filled;
/** Blocks the ray passes through besides flowing fluid (no outline shape). */
const NO_OUTLINE = new Set(['air', 'cave_air', 'void_air']);

/** The look as the client sent it, in degrees (flying-squid keeps only a byte of it). */
interface Look {
  yaw: number;
  pitch: number;
}

/** What the bucket's ray stops at: a fluid source (to fill from), or nothing a bucket can take. */
export type BucketHit = { fluid: Fluid; position: Vec3 } | null;

/** Reads the block at a cell: its name and, for a fluid, its level (0: a source). */
export type CellAt = (x: number, y: number, z: number) => Promise<{ name: string; level: number }>;

/** The unit vector of a vanilla look (yaw 0: south, +z; pitch 90: straight down). */
export function lookVector(look: Look): Vec3 {
  const yaw = (look.yaw * Math.PI) / 180;
  const pitch = (look.pitch * Math.PI) / 180;
  return new Vec3(-Math.sin(yaw) * Math.cos(pitch), -Math.sin(pitch), Math.cos(yaw) * Math.cos(pitch));
}

/** Whether the segment from `from` along `dir` (length 1 per unit t, t in [0, 1]) enters the box [min, max]. */
function segmentEnters(from: Vec3, dir: Vec3, min: Vec3, max: Vec3): boolean {
  let enter = 0;
  let leave = 1;
  for (const axis of ['x', 'y', 'z'] as const) {
    if (dir[axis] === 0) {
      if (from[axis] < min[axis] || from[axis] > max[axis]) return false;
      continue;
    }
    const a = (min[axis] - from[axis]) / dir[axis];
    const b = (max[axis] - from[axis]) / dir[axis];
    enter = Math.max(enter, Math.min(a, b));
    leave = Math.min(leave, Math.max(a, b));
  }
  return enter <= leave;
}

/** The cells the segment `from` → `from + dir` crosses, in order (Amanatides–Woo), the first one included. */
function* cellsAlong(from: Vec3, dir: Vec3): Generator<Vec3> {
  const cell = from.floored();
  const steps = (['x', 'y', 'z'] as const).map((axis) => {
    const step = Math.sign(dir[axis]);
    const edge = step > 0 ? cell[axis] + 1 : cell[axis];
    return { axis, step, next: step === 0 ? Infinity : (edge - from[axis]) / dir[axis], delta: step === 0 ? Infinity : Math.abs(1 / dir[axis]) };
  });
  yield cell.clone();
  for (;;) {
    const nearest = steps.reduce((best, s) => (s.next < best.next ? s : best));
    if (nearest.next > 1) return;
    cell[nearest.axis] += nearest.step;
    nearest.next += nearest.delta;
    yield cell.clone();
  }
}

/** Casts the bucket's ray from `eyes` along `look`: the fluid source it stops at, or null (a block first, or nothing). */
export async function bucketTarget(cellAt: CellAt, eyes: Vec3, look: Look): Promise<BucketHit> {
  const dir = lookVector(look).scaled(BUCKET_RULES.reach);
  for (const cell of cellsAlong(eyes, dir)) {
    const { name, level } = await cellAt(cell.x, cell.y, cell.z);
    if (NO_OUTLINE.has(name)) continue;
    if (name !== 'water' && name !== 'lava') return null;
    if (level !== 0) continue;
    const above = await cellAt(cell.x, cell.y + 1, cell.z);
    const height = above.name === name ? 1 : BUCKET_RULES.sourceHeight;
    if (segmentEnters(eyes, dir, cell, cell.offset(1, height, 1))) return { fluid: name, position: cell };
  }
  return null;
}

/** Gives the filled bucket for one empty one in `slot`, as vanilla does (a lone bucket becomes it; else it goes to the inventory, or drops). */
function fillHeld(serv: SquidServer, player: SquidPlayer, slot: number, held: SquidItem, filled: string): void {
  const filledId = serv.registry.itemsByName[filled]!.id;
  if (player.gameMode === 1) {
    if (!player.inventory.slots.some((item) => item?.type === filledId)) addToInventory(serv, player.inventory, filledId, 1);
    return;
  }
  if (held.count === 1) {
    player.inventory.updateSlot(slot, createItem(serv, filledId, 1));
    return;
  }
  held.count -= 1;
  player.inventory.updateSlot(slot, held);
  if (addToInventory(serv, player.inventory, filledId, 1) > 0) {
    serv.spawnObject(serv.registry.entitiesByName.item!.id, player.world, player.position.offset(0, 1, 0), { itemId: filledId, itemCount: 1, pickupTime: 2_000, deathTime: 5 * 60 * 1000 });
  }
}

/** The bucket rule: an empty bucket used while looking at a water or lava source within 5 blocks fills from it. */
export function installBuckets(ctx: ExtensionContext): void {
  const { serv } = ctx;
  const bucketId = serv.registry.itemsByName.bucket?.id;
  const airState = serv.registry.blocksByName.air!.defaultState!;
  const cellAt = (player: SquidPlayer): CellAt => async (x, y, z) => {
    const stateId = await player.world.getBlockStateId(new Vec3(x, y, z));
    const block = serv.registry.blocksByStateId[stateId];
    return { name: block?.name ?? 'air', level: block ? stateId - block.minStateId : 0 };
  };
  serv.on('newPlayer', (player: SquidPlayer) => {
    const look: Look = { yaw: 0, pitch: 0 };
    const remember = (packet: Partial<Look>): void => {
      if (typeof packet.yaw === 'number' && typeof packet.pitch === 'number') Object.assign(look, { yaw: packet.yaw, pitch: packet.pitch });
    };
    player._client.on('look', remember);
    player._client.on('position_look', remember);
    player._client.on('use_item', (packet: { hand: number }) => {
      const slot = packet.hand === 1 ? 45 : 36 + player.heldItemSlot;
      if (bucketId === undefined || player.inventory.slots[slot]?.type !== bucketId || player.gameMode === 3) return;
      const eyes = player.position.offset(0, HAZARD_RULES.eyeHeight, 0);
      void bucketTarget(cellAt(player), eyes, { ...look }).then(async (hit) => {
        const held = player.inventory.slots[slot];
        if (!hit || player.disconnected || held?.type !== bucketId) return;
        await serv.setBlock(player.world, hit.position, airState);
        fillHeld(serv, player, slot, held, BUCKET_RULES.filled[hit.fluid]);
      }).catch((error: unknown) => serv.emit('error', error));
    });
  });
}
