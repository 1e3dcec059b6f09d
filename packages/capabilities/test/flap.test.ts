import { describe, expect, it } from 'vitest';
import { createFlapDetector } from '../src/index.js';

/** Feeds x positions at 250 ms intervals starting at t0; returns whether the last sample flapped. */
function feed(detector: ReturnType<typeof createFlapDetector>, xs: number[], t0 = 0): boolean {
  let flapping = false;
  xs.forEach((x, i) => {
    flapping = detector.sample({ x, z: 0 }, t0 + i * 250);
  });
  return flapping;
}

describe('createFlapDetector (FM-04)', () => {
  it('refuses a bad policy when built, with the one ConfigError of every package', () => {
    expect(() => createFlapDetector({ windowMs: -1 })).toThrow(expect.objectContaining({ code: 'invalid_config', where: 'createFlapDetector', path: ['windowMs'] }));
  });

  it('does not flag walking straight ahead', () => {
    const detector = createFlapDetector();
    expect(feed(detector, Array.from({ length: 40 }, (_, i) => i))).toBe(false);
    expect(detector.reversals(10_000)).toBe(0);
  });

  it('flags more than 3 reversals within 10 s', () => {
    const detector = createFlapDetector();
    // back and forth: +1, -1, +1, -1, +1 → 4 reversals
    expect(feed(detector, [0, 1, 0, 1, 0, 1])).toBe(true);
    expect(detector.reversals(1250)).toBe(4);
  });

  it('allows exactly 3 reversals', () => {
    expect(feed(createFlapDetector(), [0, 1, 0, 1, 0])).toBe(false);
  });

  it('forgets reversals older than the window', () => {
    const detector = createFlapDetector({ windowMs: 1_000 });
    // Reversals spread out: 2 s apart, never more than one inside any 1 s window.
    const samples: [number, number][] = [[0, 0], [1, 2000], [0, 4000], [1, 6000], [0, 8000], [1, 10_000]];
    const flapped = samples.map(([x, t]) => detector.sample({ x, z: 0 }, t));
    expect(flapped.some(Boolean)).toBe(false);
  });

  it('ignores jitter below the minimum step and 90° corners', () => {
    const jitter = createFlapDetector();
    expect(feed(jitter, [0, 0.05, 0, 0.05, 0, 0.05, 0, 0.05])).toBe(false);
    const corners = createFlapDetector();
    const path = [{ x: 0, z: 0 }, { x: 1, z: 0 }, { x: 1, z: 1 }, { x: 2, z: 1 }, { x: 2, z: 2 }, { x: 3, z: 2 }];
    expect(path.map((p, i) => corners.sample(p, i * 250)).some(Boolean)).toBe(false);
  });

  it('rejects a bad policy when built', () => {
    expect(() => createFlapDetector({ windowMs: -1 })).toThrow();
  });
});
