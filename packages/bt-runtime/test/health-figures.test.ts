import type { StepOutcome } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { HealthTracker } from '../src/executor/health.js';

// The SLA figures a capability's health shows: counts, rates, means and p95s from exact inputs, the failures kept,
// the order of capabilities and versions. Each figure is computed by hand from the steps recorded.

interface Shape {
  readonly id?: string;
  readonly ms?: number;
  readonly ttfa?: number;
  readonly failed?: string;
  readonly at?: number;
}

/** An outcome that started at `at` (default 5,000) and took `ms`; `failed` makes it a failure with that code. */
function step({ id = 'x', ms = 0, ttfa, failed, at = 5_000 }: Shape): StepOutcome {
  const base = { planId: 'p', stepId: id, verb: 'hop', attempts: 1, startedAt: at, endedAt: at + ms };
  const timed = ttfa === undefined ? base : { ...base, ttfaMs: ttfa };
  return failed === undefined ? { ...timed, status: 'succeeded' } : { ...timed, status: 'failed', failure: { code: failed as 'stuck', reason: `why ${id}`, retryable: false } };
}

describe('the SLA figures of one version', () => {
  it('are undefined for a capability or a version that never ran', () => {
    const health = new HealthTracker();
    health.record('hop', '1.0.0', step({ ms: 4 }));
    expect(health.version('skip', '1.0.0')).toBeUndefined();
    expect(health.version('hop', '2.0.0')).toBeUndefined();
  });

  it('count steps and successes, and give the rate and the mean duration', () => {
    const health = new HealthTracker();
    for (const shape of [{ ms: 10 }, { ms: 30, failed: 'stuck' }, { ms: 50 }, { ms: 70, failed: 'timeout' }]) health.record('hop', '1.0.0', step(shape));
    expect(health.version('hop', '1.0.0')).toStrictEqual({ steps: 4, succeeded: 2, successRate: 0.5, meanDurationMs: 40, ttfaP95Ms: null, durationP95Ms: 70 });
  });

  it('count a step that ended before it started as lasting 0 ms', () => {
    const health = new HealthTracker();
    health.record('hop', '1.0.0', step({ ms: -40 }));
    health.record('hop', '1.0.0', step({ ms: 10 }));
    expect(health.version('hop', '1.0.0')).toMatchObject({ meanDurationMs: 5, durationP95Ms: 10 });
  });

  it('take the TTFA p95 only over steps that acted, by nearest rank', () => {
    const health = new HealthTracker();
    // 20 steps that acted after 1..20 ms (recorded out of order) and 5 that never acted: rank ceil(0.95 × 20) = 19.
    const ttfas = [20, 3, 17, 1, 19, 2, 18, 4, 16, 5, 15, 6, 14, 7, 13, 8, 12, 9, 11, 10];
    for (const ttfa of ttfas) health.record('hop', '1.0.0', step({ ms: ttfa * 2, ttfa }));
    for (let i = 0; i < 5; i += 1) health.record('hop', '1.0.0', step({ ms: 1, failed: 'ttfa_exceeded' }));
    expect(health.version('hop', '1.0.0')).toMatchObject({ steps: 25, succeeded: 20, successRate: 0.8, ttfaP95Ms: 19, durationP95Ms: 38 });
  });

  it('give the one sample as the p95 of a single step', () => {
    const health = new HealthTracker();
    health.record('hop', '1.0.0', step({ ms: 7, ttfa: 3 }));
    expect(health.version('hop', '1.0.0')).toStrictEqual({ steps: 1, succeeded: 1, successRate: 1, meanDurationMs: 7, ttfaP95Ms: 3, durationP95Ms: 7 });
  });

  it('keep exactly the last 200 samples: each step past the 200th pushes out the oldest', () => {
    const health = new HealthTracker();
    // 11 slow steps, then 189 fast ones: 200 samples, the slow ones at ranks 190..200.
    for (let i = 0; i < 11; i += 1) health.record('hop', '1.0.0', step({ ms: 9_000, ttfa: 900 }));
    for (let i = 0; i < 189; i += 1) health.record('hop', '1.0.0', step({ ms: 1, ttfa: 1 }));
    expect(health.version('hop', '1.0.0')).toMatchObject({ steps: 200, ttfaP95Ms: 900, durationP95Ms: 9_000 });
    // 10 more steps of 2 ms push out 10 of the slow ones: the one left is rank 200, rank 190 is a 2.
    for (let i = 0; i < 10; i += 1) health.record('hop', '1.0.0', step({ ms: 2, ttfa: 2 }));
    expect(health.version('hop', '1.0.0')).toMatchObject({ steps: 210, ttfaP95Ms: 2, durationP95Ms: 2 });
    // One more 1 ms step replaces the last slow sample: 190 ones and 10 twos; the mean still counts every step.
    health.record('hop', '1.0.0', step({ ms: 1, ttfa: 1 }));
    expect(health.version('hop', '1.0.0')).toMatchObject({ ttfaP95Ms: 1, durationP95Ms: 1, meanDurationMs: (11 * 9_000 + 190 + 20) / 211 });
    // 189 steps of 3 ms replace the first 189 fast ones: one 1, ten 2s, 189 threes.
    for (let i = 0; i < 189; i += 1) health.record('hop', '1.0.0', step({ ms: 3, ttfa: 3 }));
    expect(health.version('hop', '1.0.0')).toMatchObject({ ttfaP95Ms: 3, durationP95Ms: 3 });
  });
  it('drops no sample as the ring wraps: the 201st to 211th steps all count', () => {
    const health = new HealthTracker();
    for (let i = 0; i < 200; i += 1) health.record('hop', '1.0.0', step({ ms: 1 }));
    // 11 slow steps overwrite 11 fast ones: ranks 190..200 are now all slow.
    for (let i = 0; i < 11; i += 1) health.record('hop', '1.0.0', step({ ms: 1_000 }));
    expect(health.version('hop', '1.0.0')).toMatchObject({ durationP95Ms: 1_000 });
  });
});

describe('the health report', () => {
  it('lists capabilities by name, each with the figures over all its versions and every version, most steps first', () => {
    const health = new HealthTracker();
    health.record('walk', '2.0.0', step({ ms: 10 }));
    health.record('dig', '1.0.0', step({ ms: 4, ttfa: 1 }));
    health.record('walk', '1.0.0', step({ ms: 20, failed: 'stuck' }));
    health.record('walk', '2.0.0', step({ ms: 30 }));
    const report = health.report();
    expect(report.map((c) => c.capability)).toEqual(['dig', 'walk']);
    expect(report[1]).toStrictEqual({
      capability: 'walk',
      steps: 3,
      succeeded: 2,
      successRate: 2 / 3,
      meanDurationMs: 20,
      ttfaP95Ms: null,
      durationP95Ms: 30,
      lastFailures: [{ code: 'stuck', reason: 'why x', stepId: 'x', version: '1.0.0', at: 5_020 }],
      versions: [
        { version: '2.0.0', steps: 2, succeeded: 2, successRate: 1, meanDurationMs: 20, ttfaP95Ms: null, durationP95Ms: 30 },
        { version: '1.0.0', steps: 1, succeeded: 0, successRate: 0, meanDurationMs: 20, ttfaP95Ms: null, durationP95Ms: 20 },
      ],
    });
  });

  it('sorts versions by steps even when the busier one ran second', () => {
    const health = new HealthTracker();
    health.record('walk', '1.0.0', step({}));
    for (let i = 0; i < 3; i += 1) health.record('walk', '0.9.0', step({}));
    expect(health.report()[0]!.versions.map((v) => `${v.version}:${v.steps}`)).toEqual(['0.9.0:3', '1.0.0:1']);
  });

  it('keeps the last five failures, newest first, each with its version and end time; successes are not failures', () => {
    const health = new HealthTracker();
    for (let i = 1; i <= 7; i += 1) {
      health.record('walk', `1.0.${i % 2}`, step({ id: `f${i}`, at: i * 100, ms: 1, failed: i % 3 === 0 ? 'timeout' : 'stuck' }));
      health.record('walk', '1.0.0', step({ id: `ok${i}`, at: i * 100 + 50 }));
    }
    expect(health.report()[0]!.lastFailures).toStrictEqual([
      { code: 'stuck', reason: 'why f7', stepId: 'f7', version: '1.0.1', at: 701 },
      { code: 'timeout', reason: 'why f6', stepId: 'f6', version: '1.0.0', at: 601 },
      { code: 'stuck', reason: 'why f5', stepId: 'f5', version: '1.0.1', at: 501 },
      { code: 'stuck', reason: 'why f4', stepId: 'f4', version: '1.0.0', at: 401 },
      { code: 'timeout', reason: 'why f3', stepId: 'f3', version: '1.0.1', at: 301 },
    ]);
  });

  it('does not list a failed step that carries no failure, nor a succeeded one that does', () => {
    const health = new HealthTracker();
    health.record('walk', '1.0.0', { ...step({ ms: 3 }), status: 'failed' });
    health.record('walk', '1.0.0', { ...step({ ms: 3 }), failure: { code: 'duplicate', reason: 'seen', retryable: false } });
    expect(health.report()[0]).toMatchObject({ steps: 2, succeeded: 1, lastFailures: [] });
  });

  it('hands out copies: editing a report changes neither the next report nor the tracker', () => {
    const health = new HealthTracker();
    health.record('walk', '1.0.0', step({ failed: 'stuck' }));
    const first = health.report()[0]!.lastFailures[0] as { code: string };
    first.code = 'edited';
    expect(health.report()[0]!.lastFailures[0]!.code).toBe('stuck');
  });

  it('records through a version recorder into the same figures as record()', () => {
    const health = new HealthTracker();
    const recorder = health.of('walk', '1.0.0');
    recorder.record(step({ ms: 8 }));
    health.record('walk', '1.0.0', step({ ms: 2 }));
    health.of('walk', '1.0.0').record(step({ ms: 5, failed: 'stuck' }));
    expect(health.version('walk', '1.0.0')).toMatchObject({ steps: 3, succeeded: 2, meanDurationMs: 5 });
    expect(health.report()).toHaveLength(1);
    expect(health.report()[0]!.versions).toHaveLength(1);
  });
});
