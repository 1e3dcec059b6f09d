// The one seeded PRNG and the one hash of the Sinew packages (testkit worlds, the needs planner, the
// belief digest, the codemod's checksum, the fuzzers). @internal: shared by Sinew packages, not an API.

/** A seeded PRNG (mulberry32): the same seed gives the same sequence of numbers in [0, 1). @internal */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a 32-bit over a string's UTF-16 code units, as an unsigned integer. @internal */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** FNV-1a 64-bit over a string's UTF-16 code units, as 16 hex digits (16-bit limbs, no BigInt). @internal */
export function fnv1a64(text: string): string {
  // The 64-bit offset basis 0xcbf29ce484222325, low limb first.
  let h0 = 0x2325, h1 = 0x8422, h2 = 0x9ce4, h3 = 0xcbf2;
  for (let i = 0; i < text.length; i += 1) {
    h0 ^= text.charCodeAt(i);
    // multiply by the prime 0x100000001b3 = 2^40 + 0x1b3
    const t0 = h0 * 0x1b3, t1 = h1 * 0x1b3, t2 = h2 * 0x1b3, t3 = h3 * 0x1b3;
    const n1 = t1 + (t0 >>> 16);
    const n2 = t2 + (n1 >>> 16) + (h0 << 8);
    const n3 = t3 + (n2 >>> 16) + (h1 << 8);
    h0 = t0 & 0xffff;
    h1 = n1 & 0xffff;
    h2 = n2 & 0xffff;
    h3 = n3 & 0xffff;
  }
  const hex = (v: number): string => v.toString(16).padStart(4, '0');
  return hex(h3) + hex(h2) + hex(h1) + hex(h0);
}
