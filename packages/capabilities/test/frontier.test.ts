import { describe, expect, it } from 'vitest';
import { SearchMemory, spiralWaypoints } from '../src/body/frontier.js';

describe('explore: the spiral of waypoints and the memory of searched ground', () => {
  it('walks rings outward, 8 points on the first ring and 16 on the second, never past maxRadius', () => {
    const points = spiralWaypoints({ x: 0.5, z: 0.5 }, 24, 48, () => false);
    expect(points).toHaveLength(8 + 16);
    expect(points.slice(0, 8).every((p) => Math.max(Math.abs(p.x), Math.abs(p.z)) === 24)).toBe(true);
    expect(points.slice(8).every((p) => Math.max(Math.abs(p.x), Math.abs(p.z)) === 48)).toBe(true);
    expect(new Set(points.map((p) => `${p.x},${p.z}`)).size).toBe(points.length);
    // Each ring goes round: consecutive points are one step apart.
    for (let i = 1; i < 8; i++) expect(Math.abs(points[i]!.x - points[i - 1]!.x) + Math.abs(points[i]!.z - points[i - 1]!.z)).toBe(24);
  });

  it('skips ground searched for the same target, not for another one', () => {
    const memory = new SearchMemory();
    memory.markSearched('mob:cow', 24, 0, 16);
    expect(memory.isSearched('mob:cow', 30, 5)).toBe(true);
    expect(memory.isSearched('mob:cow', 24, 40)).toBe(false);
    expect(memory.isSearched('block:sand', 30, 5)).toBe(false);
    const points = spiralWaypoints({ x: 0, z: 0 }, 24, 24, (p) => memory.isSearched('mob:cow', p.x, p.z));
    expect(points.some((p) => p.x === 24 && p.z === 0)).toBe(false);
    expect(points).toHaveLength(8 - 3);
    memory.forget('mob:cow');
    expect(memory.isSearched('mob:cow', 30, 5)).toBe(false);
  });
});
