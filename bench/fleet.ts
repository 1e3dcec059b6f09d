// What the real-server benches (ttfa, soak) run: a bot's loop of small plans that leaves its corner of the world
// and its inventory as it found them, so it can repeat for as long as a bench needs.
import type { PlanInput } from '@sinew/executor-contracts';
import { quantile } from './harness.js';

export interface Spot {
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

const at = (s: Spot, dx: number, dz: number) => ({ x: s.x + dx, y: s.y, z: s.z + dz });

/**
 * Walk home, place a dirt block three blocks off, dig it, walk over the drop, walk back: five steps, inventory and
 * world as before. (Not collect_drops: its guard runs before the drop's spawn packet arrives and fails `guard_failed`.)
 */
export function chorePlan(planId: string, home: Spot): PlanInput {
  const block = at(home, 3, 0);
  return {
    planId,
    intentId: 'chore',
    steps: [
      { stepId: 'home', type: 'navigate', args: { position: home, range: 0.5 } },
      { stepId: 'place', type: 'place_block', args: { item: 'dirt', position: block } },
      { stepId: 'dig', type: 'dig_block', args: { position: block } },
      { stepId: 'pickup', type: 'navigate', args: { position: block, range: 0 } },
      { stepId: 'back', type: 'navigate', args: { position: at(home, 0, 1), range: 0.5 } },
    ],
  };
}

/** TTFA p50 / p95 / max and count of `samples` as one printable line. */
export function ttfaLine(samples: readonly number[]): string {
  const f = (q: number) => quantile(samples, q).toFixed(1);
  return `TTFA over ${samples.length} steps: p50 ${f(0.5)} ms, p95 ${f(0.95)} ms, max ${Math.max(...samples).toFixed(1)} ms`;
}
