// Small seeded noise for the terrain generator: an integer hash, value noise in 2 and 3 dimensions
// (smoothstep-interpolated lattice values) and fractal sums of it. Pure functions of (seed, coordinates).

/** Deterministic pseudo-random stream for per-chunk feature placement (the shared mulberry32). */
export { mulberry32 as stream } from '@sinew/executor-contracts';

/** A 32-bit hash of a seed and up to four integers (Math.imul mixing, no allocation). */
export function hash(seed: number, a: number, b = 0, c = 0, d = 0): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  h = Math.imul(h ^ a, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ b, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ c, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 15) ^ d, 0x165667b1);
  h ^= h >>> 16;
  return h >>> 0;
}

/** `hash` mapped to [0, 1). */
export function unit(seed: number, a: number, b = 0, c = 0, d = 0): number {
  return hash(seed, a, b, c, d) / 4294967296;
}

const fade = (t: number): number => t * t * (3 - 2 * t);
const lerp = (a: number, b: number, t: number): number => a + (b - a) * t;
const lattice2 = (seed: number, x: number, z: number): number => unit(seed, x, z) * 2 - 1;
const lattice3 = (seed: number, x: number, y: number, z: number): number => unit(seed, x, y, z) * 2 - 1;

/** Value noise in [-1, 1] at (x, z), lattice spacing 1. */
export function noise2(seed: number, x: number, z: number): number {
  const x0 = Math.floor(x);
  const z0 = Math.floor(z);
  const tx = fade(x - x0);
  const tz = fade(z - z0);
  const top = lerp(lattice2(seed, x0, z0), lattice2(seed, x0 + 1, z0), tx);
  const bottom = lerp(lattice2(seed, x0, z0 + 1), lattice2(seed, x0 + 1, z0 + 1), tx);
  return lerp(top, bottom, tz);
}

/** Value noise in [-1, 1] at (x, y, z), lattice spacing 1. */
export function noise3(seed: number, x: number, y: number, z: number): number {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const z0 = Math.floor(z);
  const tx = fade(x - x0);
  const ty = fade(y - y0);
  const tz = fade(z - z0);
  const plane = (yy: number): number =>
    lerp(lerp(lattice3(seed, x0, yy, z0), lattice3(seed, x0 + 1, yy, z0), tx), lerp(lattice3(seed, x0, yy, z0 + 1), lattice3(seed, x0 + 1, yy, z0 + 1), tx), tz);
  return lerp(plane(y0), plane(y0 + 1), ty);
}

/** Fractal sum of `octaves` layers of noise2 (each at twice the frequency, half the amplitude), in about [-1, 1]. */
export function fbm2(seed: number, x: number, z: number, octaves = 4): number {
  let sum = 0;
  let amplitude = 1;
  let norm = 0;
  for (let o = 0; o < octaves; o++) {
    sum += noise2(seed + o * 7919, x, z) * amplitude;
    norm += amplitude;
    amplitude /= 2;
    x *= 2;
    z *= 2;
  }
  return sum / norm;
}
