// Per-chunk features of a generated world, each a pure function of (seed, chunk): ore veins at the
// vanilla 1.20.4 heights and counts, and trees. A feature may reach into the neighbouring chunks, so the
// generator asks the 3×3 chunks around the one it builds and keeps the blocks that fall inside.
import { hash, stream } from './noise.js';
import { biomeAt, caveEntrance, mountainness, SEA_LEVEL, surfaceHeight, type Biome } from './shape.js';

/** What a vein is of: the eight ores, and gravel (vanilla places gravel blobs with the same ore feature). */
export type Ore = 'coal' | 'copper' | 'iron' | 'gold' | 'redstone' | 'lapis' | 'diamond' | 'emerald' | 'gravel';

interface OreRule {
  ore: Ore;
  /** Attempts per chunk (a fraction is a chance of one attempt). */
  count: number;
  size: number;
  /** uniform in [min, max], or a triangle peaking midway (vanilla's trapezoid with no plateau). */
  spread: 'uniform' | 'triangle';
  min: number;
  max: number;
  mountainsOnly?: boolean;
}

/** Vanilla 1.20.4 overworld ore placements (placed_feature ore_*): counts, vein sizes, height distributions. */
export const ORE_RULES: readonly OreRule[] = [
  { ore: 'coal', count: 30, size: 17, spread: 'uniform', min: 136, max: 320 },
  { ore: 'coal', count: 20, size: 17, spread: 'triangle', min: 0, max: 192 },
  { ore: 'iron', count: 90, size: 9, spread: 'triangle', min: 80, max: 384 },
  { ore: 'iron', count: 10, size: 9, spread: 'triangle', min: -24, max: 56 },
  { ore: 'iron', count: 10, size: 4, spread: 'uniform', min: -64, max: 72 },
  { ore: 'copper', count: 16, size: 10, spread: 'triangle', min: -16, max: 112 },
  { ore: 'gold', count: 4, size: 9, spread: 'triangle', min: -64, max: 32 },
  { ore: 'gold', count: 0.5, size: 9, spread: 'uniform', min: -64, max: -48 },
  { ore: 'redstone', count: 4, size: 8, spread: 'uniform', min: -64, max: 15 },
  { ore: 'redstone', count: 8, size: 8, spread: 'triangle', min: -96, max: -32 },
  { ore: 'lapis', count: 2, size: 7, spread: 'triangle', min: -32, max: 32 },
  { ore: 'lapis', count: 4, size: 7, spread: 'uniform', min: -64, max: 64 },
  { ore: 'diamond', count: 7, size: 4, spread: 'triangle', min: -144, max: 16 },
  { ore: 'diamond', count: 4, size: 8, spread: 'triangle', min: -144, max: 16 },
  { ore: 'diamond', count: 1 / 9, size: 12, spread: 'triangle', min: -144, max: 16 },
  { ore: 'gravel', count: 14, size: 33, spread: 'uniform', min: 0, max: 320 },
  { ore: 'emerald', count: 100, size: 3, spread: 'triangle', min: -16, max: 480, mountainsOnly: true },
];

/** One block a feature wants, in world coordinates. */
export interface FeatureBlock {
  x: number;
  y: number;
  z: number;
}

export interface Vein {
  ore: Ore;
  blocks: FeatureBlock[];
  /** Inclusive height band of its rule: no block of the vein lies outside it. */
  min: number;
  max: number;
}

const STEPS = [
  [1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1],
] as const;

/** The ore veins whose origin lies in chunk (cx, cz); blocks stay within 7 of the origin and inside the rule's band. */
export function veinsOfChunk(seed: number, cx: number, cz: number): Vein[] {
  const veins: Vein[] = [];
  ORE_RULES.forEach((rule, index) => {
    const random = stream(hash(seed, cx, cz, 1000 + index));
    const whole = Math.floor(rule.count);
    const attempts = whole + (random() < rule.count - whole ? 1 : 0);
    for (let i = 0; i < attempts; i++) {
      const ox = cx * 16 + Math.floor(random() * 16);
      const oz = cz * 16 + Math.floor(random() * 16);
      const t = rule.spread === 'uniform' ? random() : (random() + random()) / 2;
      const oy = Math.floor(rule.min + t * (rule.max - rule.min + 1));
      const min = Math.max(rule.min, -63);
      const max = Math.min(rule.max, 319);
      if (oy < min || oy > max) continue;
      if (rule.mountainsOnly && mountainness(seed, ox, oz) < 0.35) continue;
      const blocks: FeatureBlock[] = [];
      let x = ox;
      let y = oy;
      let z = oz;
      for (let n = 0; n < rule.size; n++) {
        blocks.push({ x, y, z });
        const [dx, dy, dz] = STEPS[Math.floor(random() * 6)]!;
        if (Math.abs(x + dx - ox) > 7 || Math.abs(z + dz - oz) > 7 || y + dy < min || y + dy > max) continue;
        x += dx;
        y += dy;
        z += dz;
      }
      veins.push({ ore: rule.ore, blocks, min, max });
    }
  });
  return veins;
}

export type TreeKind = 'oak' | 'birch' | 'spruce';

export interface Tree {
  kind: TreeKind;
  x: number;
  /** y of the lowest log (one above the ground block). */
  y: number;
  z: number;
  height: number;
}

const TREES_PER_CHUNK: Record<Biome, number> = { plains: 0.6, forest: 7, birch_forest: 6, taiga: 6, windswept_hills: 1.5, river: 0, beach: 0 };

function kindIn(biome: Biome, roll: number): TreeKind {
  if (biome === 'taiga' || biome === 'windswept_hills') return 'spruce';
  if (biome === 'birch_forest') return 'birch';
  if (biome === 'forest') return roll < 0.7 ? 'oak' : 'birch';
  return 'oak';
}

/** The trees rooted in chunk (cx, cz), on grass only (never on sand, under water, on bare stone or over a cave mouth). */
export function treesOfChunk(seed: number, cx: number, cz: number): Tree[] {
  const random = stream(hash(seed, cx, cz, 2000));
  const centre = surfaceHeight(seed, cx * 16 + 8, cz * 16 + 8);
  const density = TREES_PER_CHUNK[biomeAt(seed, cx * 16 + 8, cz * 16 + 8, centre)];
  const whole = Math.floor(density);
  const attempts = whole + (random() < density - whole ? 1 : 0);
  const trees: Tree[] = [];
  for (let i = 0; i < attempts; i++) {
    const x = cx * 16 + Math.floor(random() * 16);
    const z = cz * 16 + Math.floor(random() * 16);
    const roll = random();
    const height = 4 + Math.floor(random() * 3);
    const ground = surfaceHeight(seed, x, z);
    const biome = biomeAt(seed, x, z, ground);
    if (TREES_PER_CHUNK[biome] === 0 || ground <= SEA_LEVEL + 1 || ground > 110 || caveEntrance(seed, x, z)) continue;
    if (trees.some((t) => Math.abs(t.x - x) < 3 && Math.abs(t.z - z) < 3)) continue;
    trees.push({ kind: kindIn(biome, roll), x, y: ground + 1, z, height: height + (biome === 'taiga' ? 2 : 0) });
  }
  return trees;
}

/** The leaf positions of a tree: a round crown for oak and birch, a cone for spruce. */
export function leavesOf(tree: Tree): FeatureBlock[] {
  const top = tree.y + tree.height - 1;
  const leaves: FeatureBlock[] = [];
  const from = tree.kind === 'spruce' ? tree.y + 2 : top - 1;
  for (let y = from; y <= top + 1; y++) {
    const radius = tree.kind === 'spruce' ? Math.max(0, Math.min(2, Math.floor((top - y + 2) / 2))) : y > top ? 1 : 2;
    for (let dx = -radius; dx <= radius; dx++) {
      for (let dz = -radius; dz <= radius; dz++) {
        if (dx === 0 && dz === 0 && y <= top) continue;
        if (radius === 2 && Math.abs(dx) === 2 && Math.abs(dz) === 2) continue;
        leaves.push({ x: tree.x + dx, y, z: tree.z + dz });
      }
    }
  }
  return leaves;
}
