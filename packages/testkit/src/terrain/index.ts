import { ConfigError } from '@sinew/executor-contracts';
// A generated world for the testkit: `startServer({ world: { generator: 'terrain', seed } })`.
import { Vec3 } from 'vec3';
import type { SquidEntity, SquidServer } from '../squid/types.js';
import { spawnMobEntity } from '../extensions/mobs.js';
import { animalsOfChunk } from './animals.js';
import { treesOfChunk } from './features.js';
import { terrainGenerator } from './generator.js';
import { hash } from './noise.js';
import { biomeAt, caveEntrance, SEA_LEVEL, surfaceHeight } from './shape.js';

export { terrainGenerator } from './generator.js';
export { ORE_RULES, type Ore } from './features.js';
export { TERRAIN_BLOCKS } from './palette.js';
export { MIN_Y, SEA_LEVEL, LAVA_LEVEL, WORLD_HEIGHT } from './shape.js';

/**
 * The first column (spiralling out from 0, 0) of level grass land above water with no tree trunk: where players
 * spawn. Throws a ConfigError (`invalid_config`) for a version before 1.18 (no deepslate, no −64…320 world).
 */
export function terrainSpawn(seed: number, version: string): Vec3 {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major === 1 && minor < 18) throw ConfigError.field('startServer', ['world', 'generator'], `'terrain' needs Minecraft 1.18 or later, not ${version}`);
  for (let radius = 0; radius <= 512; radius++) {
    for (let dx = -radius; dx <= radius; dx++) {
      for (let dz = -radius; dz <= radius; dz++) {
        if (Math.max(Math.abs(dx), Math.abs(dz)) !== radius) continue;
        const h = surfaceHeight(seed, dx, dz);
        if (h <= SEA_LEVEL + 1 || h > 110 || caveEntrance(seed, dx, dz) || biomeAt(seed, dx, dz, h) === 'windswept_hills') continue;
        const level = [[1, 0], [-1, 0], [0, 1], [0, -1]].every(([ox, oz]) => Math.abs(surfaceHeight(seed, dx + ox!, dz + oz!) - h) <= 1);
        if (!level) continue;
        if (treesOfChunk(seed, dx >> 4, dz >> 4).some((t) => t.x === dx && t.z === dz)) continue;
        return new Vec3(dx + 0.5, h + 1, dz + 0.5);
      }
    }
  }
  throw ConfigError.field('startServer', ['world', 'seed'], `no land within 512 blocks of 0, 0 for seed ${seed}`);
}

/**
 * Makes the overworld of a just-started server generate terrain for `seed` (no chunk is generated before 'ready'),
 * and spawns each chunk's animals the first time the chunk is generated, strolling from seeded draws (reset() removes them, as every mob).
 */
export function installTerrain(serv: SquidServer, seed: number): void {
  const world = serv.overworld as unknown as { chunkGenerator: (x: number, z: number) => unknown };
  const generate = terrainGenerator(serv.registry, seed);
  const populated = new Set<string>();
  world.chunkGenerator = (cx, cz) => {
    const column = generate(cx, cz);
    const key = `${cx},${cz}`;
    if (!populated.has(key)) {
      populated.add(key);
      for (const animal of animalsOfChunk(seed, cx, cz)) {
        const behavior = { wander: true, seed: hash(seed, Math.floor(animal.x), Math.floor(animal.z), 4001) };
        const entity = spawnMobEntity(serv, animal.kind, new Vec3(animal.x, animal.y, animal.z), behavior) as (SquidEntity & { woolColor?: number; sendMetadata(m: unknown): void }) | null;
        if (!entity || animal.woolColor === undefined) continue;
        entity.woolColor = animal.woolColor;
        entity.sendMetadata([]);
      }
    }
    return column;
  };
}
