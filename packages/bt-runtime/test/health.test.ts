import type { StepOutcome } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { HealthTracker } from '../src/executor/health.js';

/** A succeeded step that took `ms` and acted after `ms / 10`. */
const outcome = (ms: number): StepOutcome => ({ planId: 'p', stepId: `s${ms}`, verb: 'walk', status: 'succeeded', attempts: 1, startedAt: 1000, endedAt: 1000 + ms, ttfaMs: ms / 10 });

describe('HealthTracker', () => {
  it('reports p95 over the steps so far before its 200-sample ring is full', () => {
    const health = new HealthTracker();
    for (let ms = 1; ms <= 10; ms += 1) health.record('walk', '1.0.0', outcome(ms));
    expect(health.version('walk', '1.0.0')).toMatchObject({ steps: 10, durationP95Ms: 10, ttfaP95Ms: 1 });
  });

  it('reports p95 over the last 200 steps once the ring wraps, in numeric order', () => {
    const health = new HealthTracker();
    // 250 steps, 1..250 ms: the ring holds 51..250, whose nearest-rank p95 is the 190th, 240
    for (let ms = 1; ms <= 250; ms += 1) health.record('walk', '1.0.0', outcome(ms));
    const [walk] = health.report();
    expect(walk).toMatchObject({ steps: 250, durationP95Ms: 240, ttfaP95Ms: 24, meanDurationMs: 125.5 });
  });
});
