import { blockKey, type Vec3 } from '@sinew/executor-contracts';
import type { PlannerWorld } from '../contract.js';

// Where a 3×3 hut can stand: the bot builds it from inside, so its cells must be free and its floor ring on ground.

/** Blocks a placed block may replace (air, plants, snow layers). Anything else the snapshot names is in the way. */
const REPLACEABLE = /(^|_)(air|grass|fern|snow|bush|flower)$|^(dandelion|poppy)$/;
/** How far from the bot (blocks, each axis) a hut's centre may be moved to find room. */
const SITE_RADIUS = 4;

/**
 * The block nearest the bot (same feet level, ties broken by x then z) whose 3×3×3 around it holds nothing but
 * replaceable blocks, with no known air under its floor ring — the hut's origin (its centre, at the feet). Cells the
 * snapshot does not name count as free (the build's guard judges them live). Undefined when no spot within
 * `SITE_RADIUS` fits.
 */
export function hutSite(world: Pick<PlannerWorld, 'blocks' | 'position'>): Vec3 | undefined {
  const feet = { x: Math.floor(world.position.x), y: Math.floor(world.position.y), z: Math.floor(world.position.z) };
  const at = (x: number, y: number, z: number) => world.blocks[blockKey({ x, y, z })];
  const fits = (cx: number, cz: number) => {
    for (let dx = -1; dx <= 1; dx += 1) {
      for (let dz = -1; dz <= 1; dz += 1) {
        for (let dy = 0; dy <= 2; dy += 1) {
          const name = at(cx + dx, feet.y + dy, cz + dz);
          if (name !== undefined && !REPLACEABLE.test(name)) return false;
        }
        const below = at(cx + dx, feet.y - 1, cz + dz);
        if (below !== undefined && REPLACEABLE.test(below)) return false;
      }
    }
    return true;
  };
  const offsets: { dx: number; dz: number }[] = [];
  for (let dx = -SITE_RADIUS; dx <= SITE_RADIUS; dx += 1) for (let dz = -SITE_RADIUS; dz <= SITE_RADIUS; dz += 1) offsets.push({ dx, dz });
  offsets.sort((a, b) => a.dx ** 2 + a.dz ** 2 - (b.dx ** 2 + b.dz ** 2) || a.dx - b.dx || a.dz - b.dz);
  const best = offsets.find(({ dx, dz }) => fits(feet.x + dx, feet.z + dz));
  return best && { x: feet.x + best.dx, y: feet.y, z: feet.z + best.dz };
}
