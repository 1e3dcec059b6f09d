import type { ViewerControl } from './control.js';

/** A point in the world (a mineflayer `Vec3` fits). */
export interface Point3 {
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

/** One shape the 3D page draws over the world (prismarine-viewer's `primitive` message). */
export type Primitive =
  | { readonly type: 'boxgrid'; readonly id: string; readonly start: Point3; readonly end: Point3; readonly color: string }
  | { readonly type: 'line'; readonly id: string; readonly points: readonly Point3[]; readonly color: number }
  | { readonly type: 'points'; readonly id: string; readonly points: readonly Point3[]; readonly color: number; readonly size: number };

/** Where the 3D camera stands and looks (prismarine-viewer adds the eye height to `pos.y`). */
export interface CameraPose {
  readonly pos: Point3;
  readonly yaw: number;
  readonly pitch: number;
}

/** What the overlays are drawn from, read from the body, the view's control and the belief layer. */
export interface SceneFacts {
  readonly control: ViewerControl;
  /** The block being dug (mineflayer's `targetDigBlock`). */
  readonly digging: Point3 | null;
  /** The pathfinder goal's block and the path being walked to it. */
  readonly goal: Point3 | null;
  readonly path: readonly Point3[];
  readonly tracks: readonly { readonly hostile: boolean; readonly position: Point3 }[];
  /** Hazard regions as boxes (cell × cellBlocks), with their level 1..4. */
  readonly hazards: readonly { readonly start: Point3; readonly end: Point3; readonly level: number }[];
}

/** Behind the bot and above it in `third_person`; this far above in `top_down`. */
const THIRD_PERSON_BACK = 5;
const THIRD_PERSON_UP = 1.5;
const TOP_DOWN_UP = 18;
/** At most this many hazard boxes are drawn (the summary is already sorted, highest level first). */
const MAX_HAZARD_BOXES = 16;
const HAZARD_COLORS = ['#ffd000', '#ff9000', '#ff5000', '#ff0000'] as const;

/**
 * The camera for the view's `camera` mode around `anchor` (the bot, or the fixed centre): the bot's eyes,
 * a point behind and above it looking where it looks, or straight down with north up.
 */
export function cameraFor(camera: ViewerControl['camera'], anchor: Point3, look: { readonly yaw: number; readonly pitch: number }): CameraPose {
  if (camera === 'first_person') return { pos: anchor, yaw: look.yaw, pitch: look.pitch };
  if (camera === 'top_down') return { pos: { x: anchor.x, y: anchor.y + TOP_DOWN_UP, z: anchor.z }, yaw: 0, pitch: -Math.PI / 2 };
  // mineflayer's yaw 0 looks north (-z); the camera stands opposite the look direction.
  const back = { x: Math.sin(look.yaw) * THIRD_PERSON_BACK, z: Math.cos(look.yaw) * THIRD_PERSON_BACK };
  return { pos: { x: anchor.x + back.x, y: anchor.y + THIRD_PERSON_UP, z: anchor.z + back.z }, yaw: look.yaw, pitch: -0.35 };
}

/** The overlays for these facts: the target and dug blocks, the goal and the path, belief tracks and hazards. */
export function overlaysFor(facts: SceneFacts): Primitive[] {
  const out: Primitive[] = [];
  const { target } = facts.control;
  if (target) out.push(blockBox('target', target, '#ffff00'));
  if (facts.digging) out.push(blockBox('digging', facts.digging, '#ff2020'));
  if (facts.goal) out.push(blockBox('goal', facts.goal, '#00e0ff'));
  if (facts.path.length > 1) out.push({ type: 'line', id: 'path', points: facts.path.map((p) => ({ x: p.x + 0.5, y: p.y + 0.1, z: p.z + 0.5 })), color: 0x00e0ff });
  for (const hostile of [true, false]) {
    const points = facts.tracks.filter((t) => t.hostile === hostile).map((t) => ({ x: t.position.x, y: t.position.y + 1, z: t.position.z }));
    if (points.length > 0) out.push({ type: 'points', id: hostile ? 'tracks-hostile' : 'tracks', points, color: hostile ? 0xff3030 : 0xffd84d, size: 12 });
  }
  facts.hazards.slice(0, MAX_HAZARD_BOXES).forEach((hazard, index) => {
    out.push({ type: 'boxgrid', id: `hazard-${index}`, start: hazard.start, end: hazard.end, color: HAZARD_COLORS[Math.min(3, Math.max(0, hazard.level - 1))]! });
  });
  return out;
}

/** A grid box a little larger than the block, so its lines are not hidden in the block's faces. */
function blockBox(id: string, block: Point3, color: string): Primitive {
  return { type: 'boxgrid', id, start: { x: block.x - 0.02, y: block.y - 0.02, z: block.z - 0.02 }, end: { x: block.x + 1.02, y: block.y + 1.02, z: block.z + 1.02 }, color };
}

/** Hazard regions read defensively from a belief layer's summary (`{ cellBlocks, regions: [{ cell, level }] }`). */
export function hazardBoxes(summary: unknown): SceneFacts['hazards'] {
  const { cellBlocks, regions } = (summary ?? {}) as { cellBlocks?: unknown; regions?: unknown };
  if (typeof cellBlocks !== 'number' || cellBlocks <= 0 || !Array.isArray(regions)) return [];
  const out: { start: Point3; end: Point3; level: number }[] = [];
  for (const region of regions as { cell?: Partial<Point3>; level?: unknown }[]) {
    const cell = region?.cell;
    if (typeof cell?.x !== 'number' || typeof cell.y !== 'number' || typeof cell.z !== 'number') continue;
    const start = { x: cell.x * cellBlocks, y: cell.y * cellBlocks, z: cell.z * cellBlocks };
    out.push({ start, end: { x: start.x + cellBlocks, y: start.y + cellBlocks, z: start.z + cellBlocks }, level: typeof region.level === 'number' ? region.level : 1 });
  }
  return out;
}

/** Belief tracks with a 3D position, read defensively. */
export function trackPoints(tracks: readonly object[]): SceneFacts['tracks'] {
  const out: { hostile: boolean; position: Point3 }[] = [];
  for (const track of tracks as { position?: Partial<Point3>; hostile?: unknown }[]) {
    const p = track.position;
    if (typeof p?.x !== 'number' || typeof p.y !== 'number' || typeof p.z !== 'number') continue;
    out.push({ hostile: track.hostile === true, position: { x: p.x, y: p.y, z: p.z } });
  }
  return out;
}
