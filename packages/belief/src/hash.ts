/** FNV-1a 64-bit over a string's UTF-16 code units, as 16 hex digits (two 32-bit lanes, no BigInt). */
export function fnv1a64(text: string): string {
  // 64-bit FNV offset basis and prime split into 16-bit limbs to stay exact in 32-bit integer math.
  let h0 = 0x2325, h1 = 0x8422, h2 = 0x9ce4, h3 = 0xcbf2;
  for (let i = 0; i < text.length; i += 1) {
    h0 ^= text.charCodeAt(i);
    // multiply by 0x100000001b3 = 2^40 + 0x1b3
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
