import { Vec3 } from 'vec3';
import type { SquidServer, SquidWorld } from '../squid/types.js';

/** The synchronous view of a loaded world (prismarine-world's `world.sync`): air outside loaded chunks. */
interface SyncWorld {
  getBlockType(pos: Vec3): number;
  getColumnAt(pos: Vec3): SyncColumn | undefined;
}
interface SyncColumn {
  minY: number;
  sections: readonly ({ isEmpty(): boolean } | undefined)[];
  getBlockType(pos: Vec3): number;
}

/** Light levels at one block, as vanilla's light engine would store them (0..15). */
export interface LightLevels {
  readonly sky: number;
  readonly block: number;
}

/** Reads light levels from the blocks themselves: flying-squid keeps no light engine (its chunks say 15 sky everywhere). */
export interface LightReader {
  /**
   * Block and sky light at a block. With `enoughBlockLight`, the search stops once block light exceeds it (what a
   * spawn check needs: any block light at all forbids a hostile), and `sky` may then be short of the truth.
   */
  at(world: SquidWorld, pos: Vec3, enoughBlockLight?: number): LightLevels;
}

const NEIGHBOURS = [new Vec3(1, 0, 0), new Vec3(-1, 0, 0), new Vec3(0, 1, 0), new Vec3(0, -1, 0), new Vec3(0, 0, 1), new Vec3(0, 0, -1)];

/**
 * Light from the blocks around a position, the way vanilla propagates it: a source (`emitLight`, e.g. torch 14,
 * lava 15) lights its neighbours one less per block, a block that filters light (`filterLight`, e.g. leaves 1,
 * water 1) takes that much, an opaque one (15) stops it; sky light is 15 in a column with nothing filtering above
 * and spreads the same way. Computed backwards from the position by a bounded search (at most 15 steps), so it
 * costs a few thousand block reads at worst and nothing needs to be kept up to date.
 */
export function createLightReader(serv: SquidServer): LightReader {
  const emit = new Map<number, number>();
  const filter = new Map<number, number>();
  for (const block of serv.registry.blocksArray) {
    if (block.emitLight) emit.set(block.id, block.emitLight);
    if (block.filterLight) filter.set(block.id, block.filterLight);
  }
  return {
    at(world, pos, enoughBlockLight = 15) {
      const sync = (world as unknown as { sync: SyncWorld }).sync;
      const tops = new Map<string, number>();
      // the highest block of the column that filters light (−∞ when none): above it the sky is open
      const top = (p: Vec3): number => {
        const key = `${p.x},${p.z}`;
        let y = tops.get(key);
        if (y === undefined) tops.set(key, (y = filteringTop(sync, p, filter)));
        return y;
      };
      return search(sync, pos.floored(), { emit, filter, top, enoughBlockLight });
    },
  };
}

interface SearchContext {
  emit: ReadonlyMap<number, number>;
  filter: ReadonlyMap<number, number>;
  top(p: Vec3): number;
  enoughBlockLight: number;
}

/** Backward search: `cost` of a cell is how much light is lost from there to the start (bucketed by cost 0..15). */
function search(world: SyncWorld, start: Vec3, ctx: SearchContext): LightLevels {
  let sky = 0;
  let block = 0;
  const seen = new Set<string>([start.toString()]);
  const buckets: Vec3[][] = Array.from({ length: 16 }, () => []);
  const startType = world.getBlockType(start);
  block = ctx.emit.get(startType) ?? 0;
  if (start.y > ctx.top(start)) sky = 15;
  const startCost = Math.max(1, ctx.filter.get(startType) ?? 0);
  if (startCost < 15) for (const d of NEIGHBOURS) push(buckets, seen, start.plus(d), startCost);
  for (let cost = 1; cost < 15 && (sky < 15 - cost || block < 15 - cost) && block <= ctx.enoughBlockLight; cost += 1) {
    for (const cell of buckets[cost]!) {
      const type = world.getBlockType(cell);
      block = Math.max(block, (ctx.emit.get(type) ?? 0) - cost);
      const through = ctx.filter.get(type) ?? 0;
      if (through >= 15) continue; // opaque: it may glow (glowstone) but passes nothing on
      if (cell.y > ctx.top(cell)) sky = Math.max(sky, 15 - cost);
      const next = cost + Math.max(1, through);
      if (next < 15) for (const d of NEIGHBOURS) push(buckets, seen, cell.plus(d), next);
    }
  }
  return { sky, block };
}

function push(buckets: Vec3[][], seen: Set<string>, cell: Vec3, cost: number): void {
  const key = cell.toString();
  if (seen.has(key)) return;
  seen.add(key);
  buckets[cost]!.push(cell);
}

/** The y of the highest light-filtering block of a column, skipping empty chunk sections; −Infinity if none (or not loaded). */
function filteringTop(world: SyncWorld, p: Vec3, filter: ReadonlyMap<number, number>): number {
  const column = world.getColumnAt(p);
  if (!column) return Number.NEGATIVE_INFINITY;
  const local = new Vec3(p.x & 15, 0, p.z & 15);
  for (let s = column.sections.length - 1; s >= 0; s -= 1) {
    const section = column.sections[s];
    if (!section || section.isEmpty()) continue;
    for (let y = column.minY + s * 16 + 15; y >= column.minY + s * 16; y -= 1) {
      local.y = y;
      if ((filter.get(column.getBlockType(local)) ?? 0) > 0) return y;
    }
  }
  return Number.NEGATIVE_INFINITY;
}

/**
 * How much vanilla darkens the sky at a time of day (0 by day, 11 at night; clear weather): `Level.updateSkyBrightness`
 * over `DimensionType.timeOfDay`. The surface's raw brightness is 15 minus this.
 */
export function skyDarken(time: number): number {
  const frac = (x: number) => x - Math.floor(x);
  const dayFraction = frac(time / 24_000 - 0.25);
  const sunAngle = (dayFraction * 2 + (0.5 - Math.cos(dayFraction * Math.PI) / 2)) / 3;
  const daylight = 0.5 + 2 * Math.min(0.25, Math.max(-0.25, Math.cos(sunAngle * Math.PI * 2)));
  return Math.floor((1 - daylight) * 11);
}
