// Where to look next when exploring: waypoints on an expanding square spiral around a centre, skipping ground
// already searched for the same target (a memory per bot and target that outlives one step).

/** A point on the ground to walk to (block x, z). */
export interface Waypoint {
  readonly x: number;
  readonly z: number;
}

/** Searched ground as cells of `CELL` blocks: a cell is searched once the bot looked around from within it. */
export const CELL = 16;

/** Searched cells, per target (`block:iron_ore`, `mob:cow`): what one explore step learned, the next one skips. */
export class SearchMemory {
  private readonly searched = new Map<string, Set<string>>();

  /** Marks the cells within `radius` blocks of (x, z) searched for `target`. */
  markSearched(target: string, x: number, z: number, radius: number): void {
    const cells = this.searched.get(target) ?? new Set<string>();
    this.searched.set(target, cells);
    const span = Math.floor(radius / CELL);
    const [cx, cz] = [Math.floor(x / CELL), Math.floor(z / CELL)];
    for (let dx = -span; dx <= span; dx++) for (let dz = -span; dz <= span; dz++) cells.add(`${cx + dx},${cz + dz}`);
  }

  /** Whether the cell holding (x, z) was searched for `target`. */
  isSearched(target: string, x: number, z: number): boolean {
    return this.searched.get(target)?.has(`${Math.floor(x / CELL)},${Math.floor(z / CELL)}`) ?? false;
  }

  /** Forgets what was searched for `target` (a mob may have walked into searched ground since). */
  forget(target: string): void {
    this.searched.delete(target);
  }
}

/**
 * Waypoints `step` blocks apart on square rings around (x, z), ring after ring out to `maxRadius`, each ring
 * walked round in order (nearest to the previous point first), leaving out those `skip` says were searched.
 */
export function spiralWaypoints(center: Waypoint, step: number, maxRadius: number, skip: (point: Waypoint) => boolean): Waypoint[] {
  const points: Waypoint[] = [];
  for (let ring = 1; ring * step <= maxRadius; ring++) {
    const ringPoints: Waypoint[] = [];
    // Clockwise from the north-west corner: top edge, right edge, bottom edge, left edge.
    for (let i = -ring; i < ring; i++) ringPoints.push({ x: i, z: -ring });
    for (let i = -ring; i < ring; i++) ringPoints.push({ x: ring, z: i });
    for (let i = ring; i > -ring; i--) ringPoints.push({ x: i, z: ring });
    for (let i = ring; i > -ring; i--) ringPoints.push({ x: -ring, z: i });
    for (const { x, z } of ringPoints) {
      const point = { x: Math.floor(center.x) + x * step, z: Math.floor(center.z) + z * step };
      if (!skip(point)) points.push(point);
    }
  }
  return points;
}
