import type { BeliefSource } from '../http/routes.js';
import type { ViewerControl } from './control.js';

/** A position the bot's world answers for (a mineflayer `Vec3` fits). */
interface WorldPoint {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  offset(dx: number, dy: number, dz: number): WorldPoint;
}

/** What the world view reads of the bot (a mineflayer Bot fits). */
export interface ViewerBot {
  readonly entity?: { readonly position?: WorldPoint & { floored(): WorldPoint }; readonly yaw?: number } | null;
  blockAt(point: WorldPoint): { readonly name: string } | null;
  /** The block being dug (mineflayer sets it for the length of `bot.dig`). */
  readonly targetDigBlock?: { readonly position?: { readonly x: number; readonly y: number; readonly z: number } } | null;
  /** mineflayer-pathfinder's current goal, when the plugin is loaded. */
  readonly pathfinder?: { readonly goal?: { readonly x?: unknown; readonly y?: unknown; readonly z?: unknown } | null };
}

/** The top-down map: for each column around the centre, the highest non-air block within the scanned slab. */
export interface WorldMap {
  readonly center: { readonly x: number; readonly y: number; readonly z: number };
  readonly radius: number;
  readonly mode: ViewerControl['mode'];
  /** Block names used by `cells`. */
  readonly names: readonly string[];
  /** Row-major (z outer, x inner), `(2 radius + 1)²` entries: an index into `names`, -1 for an unloaded or empty column. */
  readonly cells: readonly number[];
  /** The top block's y per cell (meaningless where the cell is -1). */
  readonly heights: readonly number[];
  readonly bot: { readonly x: number; readonly y: number; readonly z: number; readonly yaw: number } | null;
  readonly target: ViewerControl['target'];
  /** The block the bot is digging now, read from the body (the active step's target while it digs). */
  readonly digging: { readonly x: number; readonly y: number; readonly z: number } | null;
  /** Where the bot is walking: the pathfinder goal's block, when it has one. */
  readonly goal: { readonly x: number; readonly y: number; readonly z: number } | null;
  /** Belief tracks inside the map (class, hostile, position). */
  readonly tracks: readonly { readonly cls: string; readonly hostile: boolean; readonly x: number; readonly z: number }[];
}

/** Blocks above and below the centre searched for a column's top (the map shows the bot's surroundings, not the sky). */
const SCAN_UP = 4;
const SCAN_DOWN = 10;
const EMPTY = new Set(['air', 'cave_air', 'void_air']);

/** Samples the world around the bot (or the fixed centre) into a top-down map; undefined when the bot has no position. */
export function sampleMap(bot: ViewerBot, control: ViewerControl, belief?: BeliefSource): WorldMap | undefined {
  const position = bot.entity?.position;
  if (!position || typeof position.floored !== 'function') return undefined;
  const origin = position.floored();
  const center = control.mode === 'fixed' && control.center ? control.center : { x: origin.x, y: origin.y, z: origin.z };
  const { radius } = control;
  const names: string[] = [];
  const index = new Map<string, number>();
  const cells: number[] = [];
  const heights: number[] = [];
  for (let dz = -radius; dz <= radius; dz += 1) {
    for (let dx = -radius; dx <= radius; dx += 1) {
      const top = topBlock(bot, origin.offset(center.x - origin.x + dx, center.y - origin.y, center.z - origin.z + dz));
      if (!top) {
        cells.push(-1);
        heights.push(0);
        continue;
      }
      if (!index.has(top.name)) index.set(top.name, names.push(top.name) - 1);
      cells.push(index.get(top.name)!);
      heights.push(top.y);
    }
  }
  const p = bot.entity?.position;
  return { center, radius, mode: control.mode, names, cells, heights, bot: p ? { x: p.x, y: p.y, z: p.z, yaw: bot.entity?.yaw ?? 0 } : null, target: control.target, digging: pointOf(bot.targetDigBlock?.position), goal: pointOf(bot.pathfinder?.goal), tracks: tracksNear(belief, center, radius) };
}

function topBlock(bot: ViewerBot, column: WorldPoint): { name: string; y: number } | undefined {
  for (let dy = SCAN_UP; dy >= -SCAN_DOWN; dy -= 1) {
    const point = column.offset(0, dy, 0);
    const block = bot.blockAt(point);
    if (block && !EMPTY.has(block.name)) return { name: block.name, y: point.y };
  }
  return undefined;
}

function tracksNear(belief: BeliefSource | undefined, center: { x: number; z: number }, radius: number): WorldMap['tracks'] {
  const out: { cls: string; hostile: boolean; x: number; z: number }[] = [];
  for (const track of belief?.tracks() ?? []) {
    const position = (track as { position?: { x?: unknown; z?: unknown } }).position;
    if (typeof position?.x !== 'number' || typeof position.z !== 'number') continue;
    if (Math.abs(position.x - center.x) > radius + 0.5 || Math.abs(position.z - center.z) > radius + 0.5) continue;
    out.push({ cls: track.cls, hostile: (track as { hostile?: unknown }).hostile === true, x: position.x, z: position.z });
  }
  return out;
}

/** A block position from a body field read defensively (a goal without coordinates gives none). */
export function pointOf(value: { readonly x?: unknown; readonly y?: unknown; readonly z?: unknown } | null | undefined): { x: number; y: number; z: number } | null {
  if (!value || typeof value.x !== 'number' || typeof value.y !== 'number' || typeof value.z !== 'number') return null;
  return { x: Math.floor(value.x), y: Math.floor(value.y), z: Math.floor(value.z) };
}
