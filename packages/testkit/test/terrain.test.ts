import minecraftData from 'minecraft-data';
import { describe, expect, it } from 'vitest';
import { Vec3 } from 'vec3';
import { animalsOfChunk } from '../src/terrain/animals.js';
import { treesOfChunk, veinsOfChunk } from '../src/terrain/features.js';
import { terrainGenerator, type TerrainColumn } from '../src/terrain/generator.js';
import { TERRAIN_BLOCKS } from '../src/terrain/palette.js';
import { aquiferLevel, mountainness, surfaceHeight } from '../src/terrain/shape.js';

const registry = minecraftData('1.20.4');
const nameAt = (column: TerrainColumn, x: number, y: number, z: number): string => registry.blocksByStateId[column.getBlockStateId(new Vec3(x, y, z))]!.name;
// Chunks scattered the way a walk would find them, not a neat grid.
const SAMPLE: [number, number][] = [[0, 0], [-1, -1], [7, -13], [-20, 3], [31, 31], [-5, 12], [2, -40], [100, -7], [-64, -65], [13, 0]];

/** Every y each block name was seen at, over the sampled chunks. */
function census(seed: number, chunks: [number, number][]): Map<string, number[]> {
  const generate = terrainGenerator(registry, seed);
  const seen = new Map<string, number[]>();
  for (const [cx, cz] of chunks) {
    const column = generate(cx, cz);
    for (let y = -64; y < 320; y++)
      for (let z = 0; z < 16; z++)
        for (let x = 0; x < 16; x++) {
          const name = nameAt(column, x, y, z);
          if (name === 'air') continue;
          const ys = seen.get(name) ?? [];
          ys.push(y);
          seen.set(name, ys);
        }
  }
  return seen;
}

describe('terrain generator', () => {
  it('gives byte-identical chunks for the same seed and different ones for another seed', () => {
    const chunks: [number, number][] = [[0, 0], [-3, 5], [17, -9]];
    const first = terrainGenerator(registry, 9001);
    const again = terrainGenerator(registry, 9001);
    const other = terrainGenerator(registry, 9002);
    // Generated in another order: nothing may depend on which chunk came first.
    const dumps = chunks.map(([x, z]) => first(x, z).dump());
    const reversed = [...chunks].reverse().map(([x, z]) => again(x, z).dump()).reverse();
    for (let i = 0; i < chunks.length; i++) {
      expect(dumps[i]!.equals(reversed[i]!)).toBe(true);
      expect(dumps[i]!.equals(other(chunks[i]![0], chunks[i]![1]).dump())).toBe(false);
    }
  });

  it('layers the underground as vanilla does: bedrock floor, deepslate below 0, stone above 8, lava only at the lava level', () => {
    const seen = census(4242, SAMPLE);
    const below = (name: string): number => (seen.get(name) ?? []).reduce((a, b) => Math.max(a, b), -Infinity);
    const above = (name: string): number => (seen.get(name) ?? []).reduce((a, b) => Math.min(a, b), Infinity);
    expect(seen.get('bedrock')!.filter((y) => y === -64)).toHaveLength(SAMPLE.length * 256);
    expect(below('bedrock')).toBeLessThanOrEqual(-60);
    expect(above('stone')).toBeGreaterThanOrEqual(0);
    expect(below('deepslate')).toBeLessThan(8);
    expect(seen.get('deepslate')!.length).toBeGreaterThan(SAMPLE.length * 256 * 50);
    expect(below('lava')).toBeLessThanOrEqual(-55);
    expect(below('water')).toBeLessThanOrEqual(63);
    // Ores in their vanilla bands, each kind present, in the stone or deepslate of its height.
    const bands: Record<string, [number, number]> = {
      coal: [0, 320], copper: [-16, 112], iron: [-64, 320], gold: [-64, 32], redstone: [-64, 15], lapis: [-64, 64], diamond: [-64, 16],
    };
    for (const [ore, [lo, hi]] of Object.entries(bands)) {
      const ys = [...(seen.get(`${ore}_ore`) ?? []), ...(seen.get(`deepslate_${ore}_ore`) ?? [])];
      expect(ys.length, ore).toBeGreaterThan(0);
      expect(ys.reduce((a, b) => Math.min(a, b)), ore).toBeGreaterThanOrEqual(lo);
      expect(ys.reduce((a, b) => Math.max(a, b)), ore).toBeLessThanOrEqual(hi);
    }
    expect(above('deepslate_diamond_ore')).toBeGreaterThanOrEqual(-64);
    expect(below('diamond_ore')).toBeLessThanOrEqual(16);
    expect(above('redstone_ore')).toBeGreaterThanOrEqual(0);
    // The surface: water, sand and gravel by it, grass, flowers, sugar cane.
    for (const name of ['grass_block', 'dirt', 'sand', 'gravel', 'water', 'short_grass', 'sugar_cane']) expect(seen.has(name), name).toBe(true);
    expect(['dandelion', 'poppy', 'cornflower', 'oxeye_daisy', 'azure_bluet'].some((f) => seen.has(f))).toBe(true);
  });

  it('carves caves that reach the surface in places, floods some with aquifers and keeps them out from under water', () => {
    const seed = 77;
    const generate = terrainGenerator(registry, seed);
    let mouths = 0;
    let underground = 0;
    let flooded = 0;
    for (const [cx, cz] of SAMPLE) {
      const column = generate(cx, cz);
      for (let z = 0; z < 16; z++)
        for (let x = 0; x < 16; x++) {
          const height = surfaceHeight(seed, cx * 16 + x, cz * 16 + z);
          if (nameAt(column, x, height, z) === 'air') mouths++;
          for (let y = -50; y < Math.min(height, 40); y += 3) {
            const name = nameAt(column, x, y, z);
            if (name === 'air') underground++;
            if (name === 'water') {
              flooded++;
              expect(y).toBeLessThanOrEqual(aquiferLevel(seed, cx * 16 + x, cz * 16 + z));
            }
          }
          if (height < 63) expect(nameAt(column, x, height - 1, z)).not.toBe('air');
        }
    }
    expect(mouths).toBeGreaterThan(0);
    expect(underground).toBeGreaterThan(100);
    expect(flooded).toBeGreaterThan(0);
  });

  it('grows oak, birch and spruce trees on grass and puts emerald only in mountains', () => {
    const seed = 31337;
    const generate = terrainGenerator(registry, seed);
    const kinds = new Set<string>();
    for (let cx = -12; cx <= 12 && kinds.size < 3; cx += 3) {
      for (let cz = -12; cz <= 12 && kinds.size < 3; cz += 4) {
        const [tree] = treesOfChunk(seed, cx, cz).filter((t) => !kinds.has(t.kind));
        if (!tree) continue;
        const column = generate(cx, cz);
        const [x, z] = [tree.x - cx * 16, tree.z - cz * 16];
        expect(nameAt(column, x, tree.y, z)).toBe(`${tree.kind}_log`);
        expect(nameAt(column, x, tree.y - 1, z)).toBe('grass_block');
        kinds.add(tree.kind);
      }
    }
    expect([...kinds].sort()).toEqual(['birch', 'oak', 'spruce']);
    let mountain: [number, number] | null = null;
    for (let cx = -40; cx <= 40; cx += 5)
      for (let cz = -40; cz <= 40; cz += 5) {
        const emeralds = veinsOfChunk(seed, cx, cz).filter((v) => v.ore === 'emerald');
        for (const vein of emeralds) expect(mountainness(seed, vein.blocks[0]!.x, vein.blocks[0]!.z)).toBeGreaterThanOrEqual(0.35);
        if (emeralds.length > 20) mountain ??= [cx, cz];
      }
    expect(mountain, 'a mountain chunk').not.toBeNull();
    const column = generate(mountain![0], mountain![1]);
    let emerald = 0;
    for (let y = -16; y < 200; y++) for (let z = 0; z < 16; z++) for (let x = 0; x < 16; x++) if (nameAt(column, x, y, z) === 'emerald_ore') emerald++;
    expect(emerald).toBeGreaterThan(0);
  });

  it('writes only blocks it declares in TERRAIN_BLOCKS (what the planners check their world sources against), its logs among them', () => {
    const seen = [...census(77, [[3, -2], [-9, 14], [0, 0], [25, 6]]).keys()];
    expect(seen.filter((name) => !TERRAIN_BLOCKS.includes(name))).toEqual([]);
    expect(seen.filter((name) => name.endsWith('_log')).length).toBeGreaterThan(0);
  });

  it('places herds of the four passive kinds per chunk, the same for the same seed, on land', () => {
    const kinds = new Map<string, number>();
    for (let cx = -30; cx < 30; cx += 2)
      for (let cz = -30; cz < 30; cz += 3) {
        const herd = animalsOfChunk(555, cx, cz);
        expect(animalsOfChunk(555, cx, cz)).toEqual(herd);
        expect(new Set(herd.map((a) => a.kind)).size).toBeLessThanOrEqual(1);
        for (const a of herd) {
          kinds.set(a.kind, (kinds.get(a.kind) ?? 0) + 1);
          expect(a.y).toBe(surfaceHeight(555, Math.floor(a.x), Math.floor(a.z)) + 1);
          expect(a.y).toBeGreaterThan(65);
        }
      }
    expect([...kinds.keys()].sort()).toEqual(['chicken', 'cow', 'pig', 'sheep']);
  });
});
