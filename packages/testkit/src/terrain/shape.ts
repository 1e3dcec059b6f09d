// The shape of a generated world as pure functions of the seed: surface height, biome, cave carving.
import { fbm2, noise2, noise3, unit } from './noise.js';

export const MIN_Y = -64;
export const WORLD_HEIGHT = 384;
export const SEA_LEVEL = 63;
/** Carved cave air below this height is lava (vanilla's lava level, y = -55 and below). */
export const LAVA_LEVEL = -55;

export type Biome = 'plains' | 'forest' | 'birch_forest' | 'taiga' | 'windswept_hills' | 'river' | 'beach';

const smoothstep = (lo: number, hi: number, v: number): number => {
  const t = Math.min(1, Math.max(0, (v - lo) / (hi - lo)));
  return t * t * (3 - 2 * t);
};

/** How mountainous a column is, 0..1 (emerald ore and windswept hills where it is high). */
export function mountainness(seed: number, x: number, z: number): number {
  return smoothstep(0.3, 0.65, fbm2(seed + 11, x / 256, z / 256, 3));
}

/** The y of the top solid block of a column (before caves). */
export function surfaceHeight(seed: number, x: number, z: number): number {
  const continent = fbm2(seed + 11, x / 256, z / 256, 3);
  const hills = fbm2(seed + 23, x / 64, z / 64, 3);
  const ridge = 1 - Math.abs(fbm2(seed + 37, x / 128, z / 128, 4));
  const mountain = mountainness(seed, x, z);
  const base = SEA_LEVEL + 6 + continent * 14 + hills * 6 * (0.4 + smoothstep(-0.1, 0.4, continent));
  const land = base + mountain * ridge * ridge * 70;
  // A river where the river field crosses zero: the bed dips to 4 below sea level, the banks ease into it.
  const river = smoothstep(0.02, 0.07, Math.abs(fbm2(seed + 61, x / 320, z / 320, 2)));
  return Math.floor(SEA_LEVEL - 4 + (land - SEA_LEVEL + 4) * river);
}

/** The biome of a column. */
export function biomeAt(seed: number, x: number, z: number, height: number): Biome {
  if (height < SEA_LEVEL) return 'river';
  if (height <= SEA_LEVEL + 1) return 'beach';
  if (mountainness(seed, x, z) > 0.35 && height > 90) return 'windswept_hills';
  const temperature = fbm2(seed + 53, x / 200, z / 200, 2);
  if (temperature < -0.2) return 'taiga';
  if (temperature < 0.05) return 'forest';
  if (temperature < 0.3) return 'plains';
  return 'birch_forest';
}

/** True where cave tunnels may break through the surface (a few patches per region). */
export function caveEntrance(seed: number, x: number, z: number): boolean {
  return noise2(seed + 71, x / 40, z / 40) > 0.55;
}

/** The three cave fields at a point: two tunnel fields (a tunnel runs where both are near 0) and a chamber field. */
export function caveFields(seed: number, x: number, y: number, z: number): [number, number, number] {
  return [noise3(seed + 101, x / 24, y / 14, z / 24), noise3(seed + 131, x / 24, y / 14, z / 24), y > 40 ? -1 : noise3(seed + 151, x / 32, y / 12, z / 32)];
}

/** Whether interpolated cave fields carve the block: inside a tunnel (wider at a cave mouth) or a chamber, never in the bottom five layers. */
export function carvedBy(a: number, b: number, c: number, y: number, mouth: boolean): boolean {
  const width = mouth ? 0.22 : 0.09;
  return y > MIN_Y + 4 && ((Math.abs(a) < width && Math.abs(b) < width) || c > 0.62);
}

/** The y (inclusive) above which the column of (x, z) is never carved; keeps caves clear of water. */
export function carveTop(seed: number, height: number, lowestNeighbour: number, x: number, z: number): number {
  if (lowestNeighbour <= SEA_LEVEL + 1) return Math.min(height, lowestNeighbour) - 7;
  return caveEntrance(seed, x, z) ? height : height - 6;
}

/** The water level of the aquifer under (x, z): a third of 64×64 regions hold one, flooding their caves up to y -50..9. */
export function aquiferLevel(seed: number, x: number, z: number): number {
  const rx = Math.floor(x / 64);
  const rz = Math.floor(z / 64);
  return unit(seed + 9, rx, rz) < 0.35 ? -50 + Math.floor(unit(seed + 13, rx, rz) * 60) : -Infinity;
}

/** Vanilla's deepslate gradient: deepslate below 0, stone from 8, a random mix between. */
export function isDeepslate(seed: number, x: number, y: number, z: number): boolean {
  if (y < 0) return true;
  if (y >= 8) return false;
  return unit(seed + 3, x, y, z) < (8 - y) / 8;
}

/** Vanilla's bedrock floor: y = -64 always, then thinning out up to -60. */
export function isBedrock(seed: number, x: number, y: number, z: number): boolean {
  if (y === MIN_Y) return true;
  if (y > MIN_Y + 4) return false;
  return unit(seed + 5, x, y, z) < (MIN_Y + 5 - y) / 5;
}
