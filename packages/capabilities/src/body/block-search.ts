import type { Bot } from 'mineflayer';
import { iterators } from 'prismarine-world';
import { Vec3 } from 'vec3';

/** What `findBlockPositions` looks for: mineflayer's `findBlocks` options with block ids as the matcher. */
export interface BlockSearch {
  /** Block ids (`registry.blocks[id]`) that match. */
  readonly matching: readonly number[];
  readonly maxDistance: number;
  /** How many positions are wanted (default 1). */
  readonly count?: number;
  /** Where distance is measured from (default: the bot's position). */
  readonly point?: Vec3;
  /** Only positions it accepts count toward `count` (an ore below the head, not one tried before). */
  readonly accept?: (position: Vec3) => boolean;
}

/** The parts of a prismarine-chunk section this search reads (1.18+: a palette container in `data`). */
interface SectionShape {
  readonly palette?: readonly number[] | null;
  readonly data?: { readonly value?: number; readonly palette?: readonly number[] };
}

interface ColumnShape {
  readonly sections: readonly (SectionShape | null | undefined)[];
  getBlockStateId(position: { x: number; y: number; z: number }): number;
}

/**
 * `bot.findBlocks` by block id, same positions in the same order, without its cost: mineflayer builds a
 * Block object for each of the 4096 positions of every section whose palette it cannot read (on 1.18+ that
 * is every single-valued section, all the air around the bot), ~0.25 s for a 16-block radius — on the
 * time-to-first-action path of gather and craft_item. Here single-valued and paletted sections are skipped
 * when no state matches, and the rest compare state ids. Falls back to `bot.findBlocks` on chunk layouts
 * it does not know (pre-1.13 state ids) and on bodies without mineflayer's world.
 */
export function findBlockPositions(bot: Bot, search: BlockSearch): Vec3[] {
  const states = matchingStates(bot, search.matching);
  const point = (search.point ?? bot.entity.position).floored();
  const count = search.count ?? 1;
  // A body without mineflayer's world (a custom or test body) answers through its own findBlocks.
  if (!states || typeof (bot.world as Partial<Bot['world']> | undefined)?.getColumn !== 'function') {
    if (!search.accept) return bot.findBlocks({ matching: [...search.matching], maxDistance: search.maxDistance, count, point });
    return bot.findBlocks({ matching: [...search.matching], maxDistance: search.maxDistance, count: Number.MAX_SAFE_INTEGER, point }).filter(search.accept).slice(0, count);
  }
  const { maxDistance, accept } = search;
  const found: Vec3[] = [];
  const start = new Vec3(Math.floor(point.x / 16), Math.floor(point.y / 16), Math.floor(point.z / 16));
  const sectionIterator = new iterators.OctahedronIterator(start, Math.ceil((maxDistance + 8) / 16));
  const visited = new Set<string>();
  // mineflayer sets both from the login/dimension packet; its typings omit them (pre-1.18 worlds: 0 and 256).
  const { minY = 0, height = 256 } = bot.game as { minY?: number; height?: number };
  const sectionCount = height >> 4;
  // Same stopping rule as mineflayer: once enough are found, finish the layer of sections under way.
  let startedLayer = 0;
  let layer = 1;
  for (let next: Vec3 | null = start; next; ) {
    const column = bot.world.getColumn(next.x, next.z) as unknown as ColumnShape | null;
    const sectionY = next.y + Math.abs(minY >> 4);
    const key = `${next.x},${next.y},${next.z}`;
    if (column && sectionY >= 0 && sectionY < sectionCount && !visited.has(key)) {
      const section = column.sections[sectionY];
      if (section && mayHold(section, states)) scanSection(column, new Vec3(next.x * 16, sectionY * 16 + minY, next.z * 16), { states, point, maxDistance, found, accept });
      visited.add(key);
    }
    if (startedLayer !== layer && found.length >= count) break;
    startedLayer = layer;
    next = sectionIterator.next();
    if (next) layer = Math.abs(next.x - start.x) + Math.abs(next.y - start.y) + Math.abs(next.z - start.z);
  }
  found.sort((a, b) => a.distanceTo(point) - b.distanceTo(point));
  return found.length > count ? found.slice(0, count) : found;
}

/** Every state id of the given blocks, or undefined when the registry has no state ranges (pre-1.13). */
function matchingStates(bot: Bot, ids: readonly number[]): Set<number> | undefined {
  const states = new Set<number>();
  for (const id of ids) {
    const block = bot.registry.blocks[id];
    if (block?.minStateId === undefined || block.maxStateId === undefined) return undefined;
    for (let state = block.minStateId; state <= block.maxStateId; state += 1) states.add(state);
  }
  return states;
}

/** False when the section's palette (or single value) proves no matching state is in it. */
function mayHold(section: SectionShape, states: ReadonlySet<number>): boolean {
  const palette = section.data?.palette ?? section.palette;
  if (palette) return palette.some((state) => states.has(state));
  const single = section.data?.value;
  if (single !== undefined) return states.has(single);
  return true; // global palette: any state may be there
}

interface ScanTarget {
  readonly states: ReadonlySet<number>;
  readonly point: Vec3;
  readonly maxDistance: number;
  readonly found: Vec3[];
  readonly accept?: (position: Vec3) => boolean;
}

/** Adds the matching positions of one 16³ section within `maxDistance`, in mineflayer's x, y, z order. */
function scanSection(column: ColumnShape, begin: Vec3, { states, point, maxDistance, found, accept }: ScanTarget): void {
  const local = { x: 0, y: 0, z: 0 };
  for (let x = 0; x < 16; x += 1) {
    for (let y = begin.y; y < begin.y + 16; y += 1) {
      for (let z = 0; z < 16; z += 1) {
        local.x = x;
        local.y = y;
        local.z = z;
        if (!states.has(column.getBlockStateId(local))) continue;
        const position = new Vec3(begin.x + x, y, begin.z + z);
        if (position.distanceTo(point) <= maxDistance && (!accept || accept(position))) found.push(position);
      }
    }
  }
}
