import { describe, expect, it } from 'vitest';
import { awayFrom, fleeRoute, type Cell } from '../src/body/flee-route.js';

/**
 * A flat world with a floor at y = 63, the feet at 64, and what `mark(x, z)` draws on it: `~` water, `_` a hole 4
 * deep, `#` a wall two high, `s` a one-block step, anything else open ground.
 */
function worldOf(mark: (x: number, z: number) => string = () => '.'): (x: number, y: number, z: number) => Cell {
  return (x, y, z) => {
    const m = mark(x, z);
    if (m === '~') return y === 63 || y === 64 ? 'avoid' : y < 63 ? 'solid' : 'open';
    if (m === '_') return y >= 60 ? 'open' : 'solid';
    if (y < 64) return 'solid';
    if (m === '#') return y <= 65 ? 'solid' : 'open';
    if (m === 's') return y === 64 ? 'solid' : 'open';
    return 'open';
  };
}

const at = (x: number, z: number) => ({ x: x + 0.5, y: 64, z: z + 0.5 });
const self = at(0, 0);

describe('fleeRoute: which way to run from several threats', () => {
  it('runs straight away from one threat on open ground', () => {
    const route = fleeRoute(worldOf(), self, [at(3, 0)], 10)!;
    expect(route.direction.x).toBeCloseTo(-1);
    expect(route.open).toBe(10);
    expect(route.end.x).toBeLessThan(-8);
  });

  it('takes the gap between threats rather than the lane past two of them', () => {
    // nearest east, two west with a lane between: straight away from the nearest would pass 1.5 from each
    const route = fleeRoute(worldOf(), self, [at(2, 0), at(-5, -2), at(-5, 1)], 12)!;
    expect(route.clearance).toBeGreaterThanOrEqual(2);
    expect(Math.abs(route.direction.z)).toBeGreaterThan(0.5);
  });

  it('never runs into water, down a deep hole or into a wall', () => {
    // the threat is east; west is water at x ≤ -2, north a hole at z ≤ -2, south a wall at z ≥ 2
    const mark = (x: number, z: number) => (x <= -2 ? '~' : z <= -2 ? '_' : z >= 2 ? '#' : '.');
    const route = fleeRoute(worldOf(mark), self, [at(3, 0)], 8)!;
    const end = { x: Math.floor(route.end.x), z: Math.floor(route.end.z) };
    expect(mark(end.x, end.z)).toBe('.');
    expect(route.open).toBeGreaterThanOrEqual(3);
    expect(route.end.y).toBe(64);
  });

  it('steps up one block and down two, not down a deeper drop', () => {
    const step = fleeRoute(worldOf((x) => (x <= -2 ? 's' : '.')), self, [at(3, 0)], 6)!;
    expect(step.direction.x).toBeCloseTo(-1);
    expect(step.end.y).toBe(65);
    const shallow = (y: number) => (x: number, yy: number) => (x <= -2 ? (yy >= 64 - y ? 'open' : 'solid') : yy < 64 ? 'solid' : 'open');
    const down2 = fleeRoute(shallow(2), self, [at(3, 0)], 6)!;
    expect(down2.direction.x).toBeCloseTo(-1);
    expect(down2.end.y).toBe(62);
    const down3 = fleeRoute(shallow(3), self, [at(3, 0)], 6)!;
    expect(down3.direction.x).toBeGreaterThan(-0.99);
  });

  it('has no route when every direction is closed within 3 blocks', () => {
    const boxed = (x: number, z: number) => (Math.max(Math.abs(x), Math.abs(z)) === 2 ? '#' : '.');
    expect(fleeRoute(worldOf(boxed), self, [at(1, 0)], 10)).toBeUndefined();
  });

  it('far from home (where a chain of flees began) leans back toward it around the threat, not straight away', () => {
    const threat = at(3, 0);
    const plain = fleeRoute(worldOf(), self, [threat], 10)!;
    expect(plain.direction.x).toBeCloseTo(-1);
    // home 20 blocks north: the run bends north, still clear of the threat
    const home = { x: 0.5, y: 64, z: -19.5 };
    const leaning = fleeRoute(worldOf(), self, [threat], 10, home)!;
    expect(leaning.direction.z).toBeLessThan(-0.5);
    expect(leaning.clearance).toBeGreaterThanOrEqual(2.5);
    // within 6 blocks of home nothing leans
    expect(fleeRoute(worldOf(), self, [threat], 10, at(0, -4))!.direction.x).toBeCloseTo(-1);
  });

  it('weighs the nearest threat most: away from one at 2 blocks beats two at 8', () => {
    const away = awayFrom(self, [at(2, 0), at(-8, 1), at(-8, -1)]);
    expect(away.x).toBeLessThan(-0.9);
  });
});
