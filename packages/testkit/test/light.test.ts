import { describe, expect, it } from 'vitest';
import { skyDarken } from '../src/extensions/light.js';

describe("skyDarken: vanilla's darkening of the sky by the hour (clear weather)", () => {
  it('is 0 by day, 11 through the night, and crosses 8 — the open ground can spawn hostiles — at 13 188 and 22 812', () => {
    expect([0, 6_000, 12_000].map(skyDarken)).toEqual([0, 0, 0]);
    expect([13_000, 13_187, 13_188, 13_670, 18_000, 22_330].map(skyDarken)).toEqual([6, 7, 8, 11, 11, 11]);
    expect([22_812, 22_813, 23_960, 24_000].map(skyDarken)).toEqual([8, 7, 0, 0]);
  });
});
