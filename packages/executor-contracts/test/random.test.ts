import { describe, expect, it } from 'vitest';
import { fnv1a, fnv1a64, mulberry32 } from '@sinew/executor-contracts';

describe('the one PRNG and the one hash', () => {
  it('mulberry32 gives the same sequence for a seed as the copies it replaced (worlds and plans stay as pinned)', () => {
    const draw = (seed: number) => Array.from({ length: 3 }, mulberry32(seed));
    expect(draw(1)).toEqual([0.6270739405881613, 0.002735721180215478, 0.5274470399599522]);
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it('fnv1a and fnv1a64 match the FNV-1a reference vectors', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64('foobar')).toBe('85944171f73967e8');
  });
});
