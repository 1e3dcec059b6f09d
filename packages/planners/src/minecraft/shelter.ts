import { blockKey, type Vec3 } from '@sinew/executor-contracts';
import type { PlannerWorld } from '../contract.js';

// Where a 3×3 hut can stand: the bot builds it from inside, so its cells must be free and its floor ring on ground.

/** Blocks a placed block may replace (air, plants, snow layers). Anything else the snapshot names is in the way. */
const REPLACEABLE = /(^|_)(air|grass|fern|snow|bush|flower)$|^(dandelion|poppy)$/;
/** How far from the bot (blocks, each axis) a hut's centre may be moved to find room (the snapshot's usual focus). */
const SITE_RADIUS = 8;

/**
 * Where to build a 3×3 hut of `material` (its origin: the centre, at the feet): the spot within `SITE_RADIUS` of the bot,
 * at its feet level, whose walls and roof hold the most `material` already (a hut begun and left, e.g. when a flee
 * preempted the build, is finished rather than begun again), then the nearest (ties by x, then z). A spot fits when
 * each of its 27 cells is replaceable (or a wall or roof cell already of `material`) and no known air is under its
 * floor ring. Cells the snapshot does not name count as free (the build's guard judges them live). Undefined when
 * nothing fits.
 */
export function hutSite(world: Pick<PlannerWorld, 'blocks' | 'position'>, material: string): Vec3 | undefined {
  const feet = { x: Math.floor(world.position.x), y: Math.floor(world.position.y), z: Math.floor(world.position.z) };
  const at = (x: number, y: number, z: number) => world.blocks[blockKey({ x, y, z })];
  /** Cells of the hut already built at this centre, or -1 when the spot does not fit. */
  const built = (cx: number, cz: number) => {
    let done = 0;
    for (let dx = -1; dx <= 1; dx += 1) {
      for (let dz = -1; dz <= 1; dz += 1) {
        for (let dy = 0; dy <= 2; dy += 1) {
          const name = at(cx + dx, feet.y + dy, cz + dz);
          const inside = dx === 0 && dz === 0 && dy < 2;
          if (name === material && !inside) done += 1;
          else if (name !== undefined && !REPLACEABLE.test(name)) return -1;
        }
        const below = at(cx + dx, feet.y - 1, cz + dz);
        if (below !== undefined && REPLACEABLE.test(below)) return -1;
      }
    }
    return done;
  };
  const sites: { x: number; z: number; done: number; distance: number }[] = [];
  for (let dx = -SITE_RADIUS; dx <= SITE_RADIUS; dx += 1) {
    for (let dz = -SITE_RADIUS; dz <= SITE_RADIUS; dz += 1) sites.push({ x: feet.x + dx, z: feet.z + dz, done: built(feet.x + dx, feet.z + dz), distance: dx * dx + dz * dz });
  }
  const best = sites.filter((site) => site.done >= 0).sort((a, b) => b.done - a.done || a.distance - b.distance || a.x - b.x || a.z - b.z)[0];
  return best && { x: best.x, y: feet.y, z: best.z };
}
