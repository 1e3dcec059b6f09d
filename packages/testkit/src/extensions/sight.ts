import type { Vec3 } from 'vec3';

/** Reads a block type synchronously (prismarine-world's `world.sync.getBlockType`). */
export type BlockTypeAt = (x: number, y: number, z: number) => number;

/**
 * Whether the segment from `from` to `to` passes no blocking block (vanilla's `hasLineOfSight` clips against block
 * collision shapes: stone, glass and leaves block the view, air, grass and torches do not). Walks the blocks the
 * segment crosses one by one (Amanatides–Woo), so it reads at most a few blocks per block of distance.
 */
export function lineOfSight(typeAt: BlockTypeAt, blocking: ReadonlySet<number>, from: Vec3, to: Vec3): boolean {
  const dir = { x: to.x - from.x, y: to.y - from.y, z: to.z - from.z };
  const cell = { x: Math.floor(from.x), y: Math.floor(from.y), z: Math.floor(from.z) };
  const end = { x: Math.floor(to.x), y: Math.floor(to.y), z: Math.floor(to.z) };
  const axes = (['x', 'y', 'z'] as const).map((a) => {
    const step = Math.sign(dir[a]);
    const edge = step > 0 ? cell[a] + 1 : cell[a];
    // fraction of the segment to the first boundary on this axis, and between two boundaries
    return { a, step, next: step === 0 ? Infinity : (edge - from[a]) / dir[a], delta: step === 0 ? Infinity : Math.abs(1 / dir[a]) };
  });
  for (let guard = 0; guard < 1_000; guard += 1) {
    if (cell.x === end.x && cell.y === end.y && cell.z === end.z) return true;
    const axis = axes.reduce((best, x) => (x.next < best.next ? x : best));
    if (axis.next > 1) return true;
    cell[axis.a] += axis.step;
    axis.next += axis.delta;
    if (blocking.has(typeAt(cell.x, cell.y, cell.z))) return false;
  }
  return true;
}
