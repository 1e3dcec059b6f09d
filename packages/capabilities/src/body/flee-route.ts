import type { Vec3 } from '@sinew/executor-contracts';

/** What a cell holds for a runner: room to pass, a full block, or something never to run into (fluid, fire, cactus…). */
export type Cell = 'open' | 'solid' | 'avoid';
/** Reads the world's cell at integer coordinates. */
export type CellAt = (x: number, y: number, z: number) => Cell;

/** Where to run: a unit direction on the ground, the open ground along it, and how far that passes from each threat. */
export interface FleeRoute {
  readonly direction: { readonly x: number; readonly z: number };
  /** The last standing spot along the direction (feet position, block centre). */
  readonly end: Vec3;
  /** Blocks of open ground along the direction (≤ the distance asked). */
  readonly open: number;
  /** The least horizontal distance from any threat to the run's segment. */
  readonly clearance: number;
}

const DIRECTIONS = 16;
/** A run shorter than this is no escape (a wall, a drop or water right there). */
const MIN_OPEN = 3;
/** Beyond this clearance a route is as good as any other: the direction away from the threats decides. */
const CLEARANCE_ENOUGH = 4;
/** How far down a runner may step without a fall that hurts or traps it. */
const MAX_DROP = 2;
/** Farther than this from `home`, a route leans back toward it (weight beside the away term's 1). */
const HOME_SLACK = 6;
const HOME_WEIGHT = 1.5;

/**
 * The runner's next standing height one step on at column (x, z), from feet height `y`: the same, one up (a step a
 * jump takes, with headroom), or up to `MAX_DROP` down; undefined when the step needs more, has no floor, or meets fluid.
 */
function nextStand(cellAt: CellAt, from: { x: number; z: number }, x: number, y: number, z: number): number | undefined {
  const [floor, feet, head] = [cellAt(x, y - 1, z), cellAt(x, y, z), cellAt(x, y + 1, z)];
  if (floor === 'avoid' || feet === 'avoid' || head !== 'open') return undefined;
  if (feet === 'solid') return cellAt(x, y + 2, z) === 'open' && cellAt(from.x, y + 2, from.z) === 'open' ? y + 1 : undefined;
  if (floor === 'solid') return y;
  for (let drop = 1; drop <= MAX_DROP; drop += 1) {
    const below = cellAt(x, y - 1 - drop, z);
    if (below === 'avoid') return undefined;
    if (below === 'solid') return y - drop;
  }
  return undefined;
}

/** Walks the direction block by block from `self`: how far the ground stays open, and the last standing spot. */
function openAlong(cellAt: CellAt, self: Vec3, dx: number, dz: number, distance: number): { open: number; end: Vec3 } {
  let y = Math.floor(self.y);
  let end: Vec3 = { x: self.x, y: self.y, z: self.z };
  let column = { x: Math.floor(self.x), z: Math.floor(self.z) };
  let open = 0;
  // half-block samples so a diagonal never skips the corner column it crosses
  for (let s = 0.5; s <= distance; s += 0.5) {
    const x = Math.floor(self.x + dx * s);
    const z = Math.floor(self.z + dz * s);
    if (x !== column.x || z !== column.z) {
      const stand = nextStand(cellAt, column, x, y, z);
      if (stand === undefined) break;
      y = stand;
      column = { x, z };
      end = { x: x + 0.5, y, z: z + 0.5 };
    }
    open = s;
  }
  return { open, end };
}

/** Horizontal distance from point p to the segment a→b. */
function segmentDistance(p: Vec3, a: Vec3, b: Vec3): number {
  const [abx, abz] = [b.x - a.x, b.z - a.z];
  const length2 = abx * abx + abz * abz;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * abx + (p.z - a.z) * abz) / length2));
  return Math.hypot(p.x - (a.x + abx * t), p.z - (a.z + abz * t));
}

/** Away from the threats, each weighted by the inverse square of its distance (the nearest pushes hardest); unit or zero. */
export function awayFrom(self: Vec3, threats: readonly Vec3[]): { x: number; z: number } {
  let [x, z] = [0, 0];
  for (const t of threats) {
    const [dx, dz] = [self.x - t.x, self.z - t.z];
    const d = Math.max(Math.hypot(dx, dz), 0.5);
    x += dx / d / (d * d);
    z += dz / d / (d * d);
  }
  const length = Math.hypot(x, z);
  return length === 0 ? { x: 0, z: 0 } : { x: x / length, z: z / length };
}

/** Unit vector from `self` toward `home` when farther than `HOME_SLACK`, else zero. */
function toward(self: Vec3, home: Vec3 | undefined): { x: number; z: number } {
  if (!home) return { x: 0, z: 0 };
  const [dx, dz] = [home.x - self.x, home.z - self.z];
  const d = Math.hypot(dx, dz);
  return d <= HOME_SLACK ? { x: 0, z: 0 } : { x: dx / d, z: dz / d };
}

/**
 * The direction to run from several threats: among 16 directions whose ground stays open (walkable, no drop deeper
 * than 2, no fluid or fire) for at least 3 blocks, the one whose run passes farthest from every threat (up to 4 blocks, a
 * gap between them), then the one most away from their weighted centroid and, past 6 blocks from `home` (where a
 * chain of flees began), back toward it: a pack that follows must not herd the bot away from its work. Undefined: no
 * open direction.
 */
export function fleeRoute(cellAt: CellAt, self: Vec3, threats: readonly Vec3[], distance: number, home?: Vec3): FleeRoute | undefined {
  const away = awayFrom(self, threats);
  const back = toward(self, home);
  let best: { route: FleeRoute; score: number } | undefined;
  for (let i = 0; i < DIRECTIONS; i += 1) {
    const angle = (i / DIRECTIONS) * 2 * Math.PI;
    const direction = { x: Math.cos(angle), z: Math.sin(angle) };
    const { open, end } = openAlong(cellAt, self, direction.x, direction.z, distance);
    if (open < Math.min(MIN_OPEN, distance)) continue;
    const clearance = threats.reduce((least, t) => Math.min(least, segmentDistance(t, self, end)), Infinity);
    const leaning = direction.x * away.x + direction.z * away.z + HOME_WEIGHT * (direction.x * back.x + direction.z * back.z);
    const score = Math.min(clearance, CLEARANCE_ENOUGH) * 2 + leaning + open / distance;
    if (!best || score > best.score) best = { route: { direction, end, open, clearance }, score };
  }
  return best?.route;
}
