// The terrain chunk generator: fills a column buffer from the world shape, carves caves, adds ore veins,
// trees and plants, then writes the non-air blocks and the biomes into a prismarine-chunk column.
import type { IndexedData } from 'minecraft-data';
import prismarineChunk from 'prismarine-chunk';
import { Vec3 } from 'vec3';
import { leavesOf, treesOfChunk, veinsOfChunk } from './features.js';
import { hash, stream } from './noise.js';
import {
  aquiferLevel, biomeAt, carveTop, isBedrock, isDeepslate, LAVA_LEVEL, MIN_Y, SEA_LEVEL, surfaceHeight, WORLD_HEIGHT, type Biome,
} from './shape.js';
import { blockPalette, type BlockPalette } from './palette.js';
import { caveGrid } from './caves.js';

const AREA = 16 * 16;
const at = (x: number, y: number, z: number): number => (y - MIN_Y) * AREA + z * 16 + x;

/** Heights of the chunk's columns and a one-block ring around them, indexed [(z + 1) * 18 + x + 1]. */
function heightsAround(seed: number, cx: number, cz: number): Int16Array {
  const heights = new Int16Array(18 * 18);
  for (let z = -1; z <= 16; z++) for (let x = -1; x <= 16; x++) heights[(z + 1) * 18 + x + 1] = surfaceHeight(seed, cx * 16 + x, cz * 16 + z);
  return heights;
}

function surfaceBlocks(p: BlockPalette, biome: Biome, height: number, patch: number): [top: number, under: number] {
  if (biome === 'beach') return patch < 0.15 ? [p.gravel, p.gravel] : [p.sand, p.sand];
  if (biome === 'river') {
    if (height >= SEA_LEVEL - 4) return patch < 0.25 ? [p.clay, p.dirt] : [p.sand, p.sand];
    return patch < 0.5 ? [p.gravel, p.gravel] : [p.sand, p.dirt];
  }
  if (biome === 'windswept_hills' && (height > 115 || patch < 0.15)) return patch < 0.3 ? [p.gravel, p.stone] : [p.stone, p.stone];
  return [p.grass_block, p.dirt];
}

function fillColumns(seed: number, cx: number, cz: number, p: BlockPalette, heights: Int16Array, blocks: Uint16Array, biomes: Biome[]): void {
  const carved = caveGrid(seed, cx, cz, Math.max(...heights));
  for (let z = 0; z < 16; z++) {
    for (let x = 0; x < 16; x++) {
      const wx = cx * 16 + x;
      const wz = cz * 16 + z;
      const i = (z + 1) * 18 + x + 1;
      const height = heights[i]!;
      const lowest = Math.min(heights[i - 1]!, heights[i + 1]!, heights[i - 18]!, heights[i + 18]!);
      const biome = biomeAt(seed, wx, wz, height);
      biomes[z * 16 + x] = biome;
      const [top, under] = surfaceBlocks(p, biome, height, hash(seed + 7, wx >> 2, wz >> 2) / 4294967296);
      const limit = carveTop(seed, height, lowest, wx, wz);
      const mouthFrom = limit === height ? height - 12 : Infinity;
      const aquifer = aquiferLevel(seed, wx, wz);
      for (let y = MIN_Y; y <= Math.max(height, SEA_LEVEL); y++) {
        let block: number;
        if (y > height) block = p.water;
        else if (isBedrock(seed, wx, y, wz)) block = p.bedrock;
        else if (y <= limit && carved(x, y, z, y >= mouthFrom)) block = y <= LAVA_LEVEL ? p.lava : y <= aquifer ? p.water : p.air;
        else if (y === height) block = top;
        else if (y >= height - 3) block = under;
        else block = isDeepslate(seed, wx, y, wz) ? p.deepslate : p.stone;
        blocks[at(x, y, z)] = block;
      }
    }
  }
}

function addVeins(seed: number, cx: number, cz: number, p: BlockPalette, blocks: Uint16Array): void {
  for (let dz = -1; dz <= 1; dz++) {
    for (let dx = -1; dx <= 1; dx++) {
      for (const vein of veinsOfChunk(seed, cx + dx, cz + dz)) {
        const [inStone, inDeepslate] = p.ores[vein.ore];
        for (const b of vein.blocks) {
          const x = b.x - cx * 16;
          const z = b.z - cz * 16;
          if (x < 0 || x > 15 || z < 0 || z > 15) continue;
          const k = at(x, b.y, z);
          if (blocks[k] === p.stone) blocks[k] = inStone;
          else if (blocks[k] === p.deepslate) blocks[k] = inDeepslate;
        }
      }
    }
  }
}

function addTrees(seed: number, cx: number, cz: number, p: BlockPalette, blocks: Uint16Array): void {
  const inside = (x: number, y: number, z: number): number => {
    const lx = x - cx * 16;
    const lz = z - cz * 16;
    return lx < 0 || lx > 15 || lz < 0 || lz > 15 || y < MIN_Y || y >= MIN_Y + WORLD_HEIGHT ? -1 : at(lx, y, lz);
  };
  for (let dz = -1; dz <= 1; dz++) {
    for (let dx = -1; dx <= 1; dx++) {
      for (const tree of treesOfChunk(seed, cx + dx, cz + dz)) {
        const [log, leaf] = p.trees[tree.kind];
        for (const b of leavesOf(tree)) {
          const k = inside(b.x, b.y, b.z);
          if (k >= 0 && blocks[k] === p.air) blocks[k] = leaf;
        }
        for (let y = tree.y; y < tree.y + tree.height; y++) {
          const k = inside(tree.x, y, tree.z);
          if (k >= 0) blocks[k] = log;
        }
      }
    }
  }
}

const FLOWERS: Record<Biome, number> = { plains: 0.06, forest: 0.02, birch_forest: 0.03, taiga: 0, windswept_hills: 0.005, river: 0, beach: 0 };

function addPlants(seed: number, cx: number, cz: number, p: BlockPalette, heights: Int16Array, blocks: Uint16Array, biomes: Biome[]): void {
  const random = stream(hash(seed, cx, cz, 3000));
  for (let z = 0; z < 16; z++) {
    for (let x = 0; x < 16; x++) {
      const i = (z + 1) * 18 + x + 1;
      const height = heights[i]!;
      const roll = random();
      const pick = random();
      if (height + 3 >= MIN_Y + WORLD_HEIGHT || blocks[at(x, height + 1, z)] !== p.air) continue;
      const ground = blocks[at(x, height, z)];
      const byWater = height === SEA_LEVEL && Math.min(heights[i - 1]!, heights[i + 1]!, heights[i - 18]!, heights[i + 18]!) < SEA_LEVEL;
      if (byWater && (ground === p.sand || ground === p.grass_block || ground === p.dirt) && roll < 0.3) {
        const tall = 1 + Math.floor(pick * 3);
        for (let y = 1; y <= tall; y++) blocks[at(x, height + y, z)] = p.sugar_cane;
      } else if (ground === p.grass_block) {
        const biome = biomes[z * 16 + x]!;
        if (roll < FLOWERS[biome]) blocks[at(x, height + 1, z)] = p.flowers[Math.floor(pick * p.flowers.length)]!;
        else if (roll < 0.25) blocks[at(x, height + 1, z)] = p.short_grass;
      }
    }
  }
}

/** The part of a prismarine-chunk column (1.18+) the generator writes and the tests read. */
export interface TerrainColumn {
  setBlockStateId(pos: Vec3, stateId: number): number;
  getBlockStateId(pos: Vec3): number;
  setBiome(pos: Vec3, biome: number): void;
  dump(): Buffer;
}
type ColumnClass = new (options: { minY: number; worldHeight: number }) => TerrainColumn;

/** A flying-squid chunk generator for `registry`'s version: `(chunkX, chunkZ) => column`, a pure function of the seed. */
export function terrainGenerator(registry: IndexedData, seed: number): (cx: number, cz: number) => TerrainColumn {
  const Chunk = prismarineChunk(registry as never) as unknown as ColumnClass;
  const p = blockPalette(registry);
  const biomeIds = Object.fromEntries(Object.keys(FLOWERS).map((b) => [b, registry.biomesByName[b]!.id])) as Record<Biome, number>;
  return (cx, cz) => {
    const heights = heightsAround(seed, cx, cz);
    const blocks = new Uint16Array(AREA * WORLD_HEIGHT);
    const biomes: Biome[] = new Array<Biome>(AREA);
    fillColumns(seed, cx, cz, p, heights, blocks, biomes);
    addVeins(seed, cx, cz, p, blocks);
    addTrees(seed, cx, cz, p, blocks);
    addPlants(seed, cx, cz, p, heights, blocks, biomes);
    const column = new Chunk({ minY: MIN_Y, worldHeight: WORLD_HEIGHT });
    const pos = new Vec3(0, 0, 0);
    for (let k = 0; k < blocks.length; k++) {
      if (blocks[k] === p.air) continue;
      pos.set(k & 15, MIN_Y + Math.floor(k / AREA), (k >> 4) & 15);
      column.setBlockStateId(pos, blocks[k]!);
    }
    for (let z = 0; z < 16; z += 4)
      for (let x = 0; x < 16; x += 4)
        for (let y = MIN_Y; y < MIN_Y + WORLD_HEIGHT; y += 4) column.setBiome(pos.set(x, y, z), biomeIds[biomes[z * 16 + x]!]);
    return column;
  };
}
