import { describe, expect, it } from 'vitest';
import { reach, threatsThatReach } from '../src/mineflayer/reach.js';

/** A small block world: stone below y 0 over a square field of `size`, plus walls; nothing beyond the field. */
function world(size: number) {
  const stone = new Set<string>();
  const air = new Set<string>();
  const put = (x: number, y: number, z: number) => void stone.add(`${x},${y},${z}`);
  const dig = (x: number, y: number, z: number) => void air.add(`${x},${y},${z}`);
  const blocked = (x: number, y: number, z: number) => {
    const key = `${x},${y},${z}`;
    if (air.has(key)) return false;
    return stone.has(key) || (y < 0 && y >= -20 && Math.abs(x) <= size && Math.abs(z) <= size);
  };
  /** A wall along x = at from z = z0..z1, `height` blocks tall. */
  const wall = (at: number, z0: number, z1: number, height: number) => {
    for (let z = z0; z <= z1; z += 1) for (let y = 0; y < height; y += 1) put(at, y, z);
  };
  return { blocked, put, dig, wall };
}

describe('reach: can a walking mob get to the bot', () => {
  it('on open ground a zombie 6 blocks off reaches the bot; a step of one block is climbed, of two it is not', () => {
    const w = world(12);
    expect(reach(w.blocked, { x: 6.3, y: 0, z: 0.7 }, { x: 0.5, y: 0, z: 0.5 })).toBe('reachable');
    // the bot on a ledge one block up, then two blocks up with nothing to climb
    for (let x = -3; x <= 3; x += 1) for (let z = -3; z <= 3; z += 1) w.put(x, 0, z);
    expect(reach(w.blocked, { x: 6.3, y: 0, z: 0.7 }, { x: 0.5, y: 1, z: 0.5 })).toBe('reachable');
    for (let x = -3; x <= 3; x += 1) for (let z = -3; z <= 3; z += 1) w.put(x, 1, z);
    expect(reach(w.blocked, { x: 6.3, y: 0, z: 0.7 }, { x: 0.5, y: 2, z: 0.5 })).toBe('unreachable');
  });

  it('a wall across the whole field cuts the zombie off; a gap in it lets it through', () => {
    const w = world(10);
    w.wall(3, -10, 10, 2);
    expect(reach(w.blocked, { x: 6.5, y: 0, z: 2.5 }, { x: 0.5, y: 0, z: 0.5 })).toBe('unreachable');
    w.dig(3, 0, 9);
    w.dig(3, 1, 9);
    expect(reach(w.blocked, { x: 6.5, y: 0, z: 2.5 }, { x: 0.5, y: 0, z: 0.5 })).toBe('reachable');
  });

  it('a bot walled in on a wide field is out of reach, though the field is too big to search from the zombie side', () => {
    const w = world(200);
    for (const [a, b] of [
      [-2, -2],
      [2, 2],
    ] as const) {
      w.wall(a, -2, 2, 3);
      w.wall(b, -2, 2, 3);
    }
    for (let x = -1; x <= 1; x += 1) for (let y = 0; y < 3; y += 1) (w.put(x, y, -2), w.put(x, y, 2));
    expect(reach(w.blocked, { x: 7.5, y: 0, z: 0.5 }, { x: 0.5, y: 0, z: 0.5 }, 300)).toBe('unreachable');
    // the same field with a door open in the shelter
    w.dig(2, 0, 0);
    w.dig(2, 1, 0);
    expect(reach(w.blocked, { x: 7.5, y: 0, z: 0.5 }, { x: 0.5, y: 0, z: 0.5 }, 300)).toBe('reachable');
  });

  it('a zombie in a cave under the bot cannot come up; a staircase tunnel to the surface lets it', () => {
    const w = world(16);
    // a cave 8 long, 2 high, at y -6..-5 under the bot
    for (let x = -4; x <= 4; x += 1) for (let y = -6; y <= -5; y += 1) w.dig(x, y, 0);
    expect(reach(w.blocked, { x: 2.5, y: -6, z: 0.5 }, { x: 0.5, y: 0, z: 0.5 })).toBe('unreachable');
    // a staircase from the cave's end (x 4, y -6) up to the surface at x 10: each step one up, three high (a jump
    // needs head room above the take-off cell, so a two-high tunnel's first step is not enough)
    for (let i = 0; i <= 6; i += 1) for (let h = 0; h < 3; h += 1) w.dig(4 + i, -6 + i + h, 0);
    expect(reach(w.blocked, { x: 2.5, y: -6, z: 0.5 }, { x: 0.5, y: 0, z: 0.5 })).toBe('reachable');
  });

  it('is cheap on open ground: a zombie 14 blocks off is found reaching the bot after reading a few hundred blocks', () => {
    const w = world(64);
    let reads = 0;
    const counted = (x: number, y: number, z: number) => ((reads += 1), w.blocked(x, y, z));
    expect(reach(counted, { x: 14.5, y: 0, z: -3.5 }, { x: 0.5, y: 0, z: 0.5 })).toBe('reachable');
    expect(reads).toBeLessThan(400);
  });

  it('both searches out of budget is unknown (the caller treats it as reachable), never a guess of unreachable', () => {
    const w = world(100);
    w.wall(0, -100, 100, 3);
    // the wall splits two huge halves: neither side runs out of cells within 50
    expect(reach(w.blocked, { x: 30.5, y: 0, z: 0.5 }, { x: -30.5, y: 0, z: 0.5 }, 50)).toBe('unknown');
    expect(reach(w.blocked, { x: 30.5, y: 0, z: 0.5 }, { x: -30.5, y: 0, z: 0.5 }, 200_000)).toBe('unreachable');
  });

  it('threatsThatReach leaves out a zombie in a pit, never a skeleton in the same pit (it shoots), a far one or a passive one', () => {
    const w = world(12);
    for (let x = 3; x <= 5; x += 1) for (let z = -1; z <= 1; z += 1) for (let y = -2; y <= -1; y += 1) w.dig(x, y, z);
    const pit = { x: 4.5, y: -2, z: 0.5 };
    const counts = { checked: 0, unreachable: 0 };
    const scope = { self: { x: 0.5, y: 0, z: 0.5 }, blocked: w.blocked, maxNodes: 400, radius: 8, counts };
    const threats = [
      { cls: 'zombie', hostile: true, predicted: pit, distance: 4 },
      { cls: 'skeleton', hostile: true, predicted: pit, distance: 4 },
      { cls: 'zombie', hostile: true, predicted: { x: 10.5, y: -2, z: 0.5 }, distance: 10 },
      { cls: 'sheep', hostile: false, predicted: pit, distance: 4 },
      { cls: 'zombie', hostile: true, predicted: { x: -3.5, y: 0, z: 0.5 }, distance: 4 },
    ];
    expect(threatsThatReach(threats, scope).map((t) => `${t.cls}@${t.predicted.x}`)).toEqual(['skeleton@4.5', 'zombie@10.5', 'sheep@4.5', 'zombie@-3.5']);
    expect(counts).toEqual({ checked: 2, unreachable: 1 });
  });
});
