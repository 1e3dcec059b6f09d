// Passive animals of a generated world, placed per chunk from the seed as vanilla's chunk-generation spawns do:
// now and then a herd of two to four of one kind, on grass.
import { treesOfChunk } from './features.js';
import { hash, stream } from './noise.js';
import { biomeAt, caveEntrance, SEA_LEVEL, surfaceHeight } from './shape.js';

export type Animal = 'sheep' | 'pig' | 'chicken' | 'cow';

/** Vanilla's overworld creature spawn weights (plains and forests). */
const WEIGHTS: readonly [Animal, number][] = [['sheep', 12], ['pig', 10], ['chicken', 10], ['cow', 8]];
const TOTAL = WEIGHTS.reduce((sum, [, w]) => sum + w, 0);
/** Chance that a chunk holds a herd. */
const HERD_CHANCE = 0.3;

/** Vanilla's natural sheep colours (dye ids) and their weights in 1000: white 818, black, gray, light gray 50 each, brown 30, pink 2. */
const WOOL: readonly [number, number][] = [[0, 818], [15, 50], [7, 50], [8, 50], [12, 30], [6, 2]];

function pickWool(roll: number): number {
  let left = roll * 1000;
  for (const [color, weight] of WOOL) {
    left -= weight;
    if (left < 0) return color;
  }
  return 0;
}

export interface PlacedAnimal {
  kind: Animal;
  /** Dye colour id of a sheep's wool (0 white … 15 black); absent for other kinds. */
  woolColor?: number;
  /** Block centre, standing on the ground. */
  x: number;
  y: number;
  z: number;
}

function pickKind(roll: number): Animal {
  let left = roll * TOTAL;
  for (const [kind, weight] of WEIGHTS) {
    left -= weight;
    if (left < 0) return kind;
  }
  return 'sheep';
}

/** The animals of chunk (cx, cz): a pure function of the seed, on grass land, never in a tree trunk. */
export function animalsOfChunk(seed: number, cx: number, cz: number): PlacedAnimal[] {
  const random = stream(hash(seed, cx, cz, 4000));
  if (random() >= HERD_CHANCE) return [];
  const kind = pickKind(random());
  const size = 2 + Math.floor(random() * 3);
  const trunks = new Set(treesOfChunk(seed, cx, cz).map((t) => `${t.x},${t.z}`));
  const herd: PlacedAnimal[] = [];
  for (let i = 0; i < size * 2 && herd.length < size; i++) {
    const x = cx * 16 + Math.floor(random() * 16);
    const z = cz * 16 + Math.floor(random() * 16);
    const ground = surfaceHeight(seed, x, z);
    const biome = biomeAt(seed, x, z, ground);
    if (ground <= SEA_LEVEL + 1 || ground > 110 || biome === 'windswept_hills' || caveEntrance(seed, x, z) || trunks.has(`${x},${z}`)) continue;
    const wool = random();
    herd.push({ kind, x: x + 0.5, y: ground + 1, z: z + 0.5, ...(kind === 'sheep' ? { woolColor: pickWool(wool) } : {}) });
  }
  return herd;
}
