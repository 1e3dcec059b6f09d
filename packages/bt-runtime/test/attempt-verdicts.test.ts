import { MAX_TIMER_MS, type PlanStep } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { attemptLimits, interpretRunnerResult, StepAbortError, thrownFailure, traceActivity, trippedVerdict, watchdogFailure, type AttemptOptions, type StepScope } from '../src/executor/attempt-result.js';
import type { PlanContext } from '../src/executor/plan-context.js';
import { defineExecutorPolicy } from '../src/executor/policy.js';
import type { ActuatorSource } from '../src/index.js';
import { digBlock, walker } from './fake-body.js';

// How an attempt's ending becomes a verdict: its deadlines from the policy, a watchdog's or a trip's failure, what a
// runner returned or threw, and the actuator trace it leaves.

const step = (extra: Partial<PlanStep> = {}): PlanStep => ({ stepId: 's', type: 'dig_block', args: {}, ...extra });

describe('an attempt’s deadlines', () => {
  it('come from the policy, the timeout being the default when nobody declares a duration', () => {
    const policy = defineExecutorPolicy({ ttfaMs: 111, stuckMs: 222, defaultTimeoutMs: 3_333, abortGraceMs: 44, traceLimit: 5 });
    expect(attemptLimits(policy, walker, step())).toStrictEqual({ ttfaMs: 111, stuckMs: 222, timeoutMs: 3_333, graceMs: 44, traceLimit: 5 });
  });

  it('time out at the declared duration times the multiplier, the step’s declaration before the capability’s', () => {
    const policy = defineExecutorPolicy({ timeoutMultiplier: 2.5, defaultTimeoutMs: 9_999 });
    // digBlock declares 1,000 ms.
    expect(attemptLimits(policy, digBlock, step()).timeoutMs).toBe(2_500);
    expect(attemptLimits(policy, digBlock, step({ expectedDurationMs: 40 })).timeoutMs).toBe(100);
    expect(attemptLimits(policy, walker, step({ expectedDurationMs: 0 })).timeoutMs).toBe(0);
  });

  it('take a verb’s own overrides over everything, field by field', () => {
    const policy = defineExecutorPolicy({ ttfaMs: 100, stuckMs: 200, capabilities: { dig_block: { timeoutMs: 70, stuckMs: 30 }, walker: { ttfaMs: 5 } } });
    expect(attemptLimits(policy, digBlock, step({ expectedDurationMs: 40 }))).toMatchObject({ ttfaMs: 100, stuckMs: 30, timeoutMs: 70 });
    expect(attemptLimits(policy, walker, step())).toMatchObject({ ttfaMs: 5, stuckMs: 200, timeoutMs: 30_000 });
  });

  it('never hold a timer past MAX_TIMER_MS, however long the declared duration', () => {
    const policy = defineExecutorPolicy({ timeoutMultiplier: 10 });
    expect(attemptLimits(policy, digBlock, step({ expectedDurationMs: MAX_TIMER_MS })).timeoutMs).toBe(MAX_TIMER_MS);
    expect(attemptLimits(policy, digBlock, step({ expectedDurationMs: MAX_TIMER_MS / 10 })).timeoutMs).toBe(MAX_TIMER_MS);
    expect(attemptLimits(policy, digBlock, step({ expectedDurationMs: MAX_TIMER_MS / 10 - 1 })).timeoutMs).toBe(MAX_TIMER_MS - 10);
  });
});

describe('a watchdog’s failure', () => {
  const limits = { ttfaMs: 12, stuckMs: 34, timeoutMs: 56, graceMs: 0, traceLimit: 1 };
  it('names the limit that ran out, and is retryable as its code is', () => {
    expect(watchdogFailure('ttfa_exceeded', limits)).toStrictEqual({ code: 'ttfa_exceeded', reason: 'no actuator command within 12 ms of dispatch', retryable: true });
    expect(watchdogFailure('stuck', limits)).toStrictEqual({ code: 'stuck', reason: 'no actuator command, node transition or progress for 34 ms', retryable: true });
    expect(watchdogFailure('timeout', limits)).toStrictEqual({ code: 'timeout', reason: 'attempt ran past its 56 ms deadline', retryable: true });
  });
});

describe('a trip’s verdict', () => {
  const limits = { ttfaMs: 1, stuckMs: 2, timeoutMs: 3, graceMs: 0, traceLimit: 1 };
  const planCtx = (extra: Partial<PlanContext> = {}): PlanContext => ({ plan: { planId: 'p', intentId: 'i', steps: [step()] }, ...extra });
  /** The parts of an attempt a verdict reads: the executor's liveness, the plan, the limits. */
  const attempt = (rt: { closed: boolean; disconnected?: string }, ctx = planCtx()) => ({ rt, planCtx: ctx, limits }) as unknown as AttemptOptions<ActuatorSource>;

  it('is preempted for a preemption, whatever else holds', () => {
    expect(trippedVerdict(attempt({ closed: true }), 'preempted')).toStrictEqual({ kind: 'preempted' });
  });

  it('is aborted with the plan’s stop reason: closed, disconnected, out of budget, cancelled', () => {
    const cancelled = new AbortController();
    cancelled.abort();
    const verdicts = [
      trippedVerdict(attempt({ closed: true }), 'aborted'),
      trippedVerdict(attempt({ closed: false, disconnected: 'kicked' }), 'body_disconnected'),
      trippedVerdict(attempt({ closed: false }, planCtx({ budget: { ms: 900, expired: true } })), 'aborted'),
      trippedVerdict(attempt({ closed: false }, planCtx({ signal: cancelled.signal })), 'aborted'),
    ];
    expect(verdicts.map((v) => (v.kind === 'aborted' ? `${v.failure.code}: ${v.failure.reason}` : v.kind))).toEqual([
      'aborted: the executor was closed',
      'body_disconnected: the body disconnected: kicked',
      'timeout: the plan ran past its time budget of 900 ms',
      'aborted: the plan was cancelled',
    ]);
  });

  it('is aborted as cancelled when nothing else explains the abort', () => {
    expect(trippedVerdict(attempt({ closed: false }), 'body_disconnected')).toStrictEqual({ kind: 'aborted', failure: { code: 'aborted', reason: 'the plan was cancelled', retryable: false } });
  });

  it('is the watchdog’s failure for ttfa, stuck and timeout', () => {
    expect(['ttfa_exceeded', 'stuck', 'timeout'].map((code) => trippedVerdict(attempt({ closed: true }), code as 'stuck'))).toStrictEqual([
      { kind: 'failed', failure: watchdogFailure('ttfa_exceeded', limits) },
      { kind: 'failed', failure: watchdogFailure('stuck', limits) },
      { kind: 'failed', failure: watchdogFailure('timeout', limits) },
    ]);
  });

  it('comes from a StepAbortError that keeps its code and message', () => {
    const error = new StepAbortError('stuck', 'no progress');
    expect([error.name, error.code, error.message, error instanceof Error]).toEqual(['StepAbortError', 'stuck', 'no progress', true]);
  });
});

describe('what a runner threw', () => {
  it('is a runner_error naming the capability, with the node path a behavior tree attached', () => {
    const thrown = Object.assign(new Error('leaf blew up'), { nodePath: 'root/seq[1]/dig' });
    expect(thrownFailure('dig_block', thrown)).toStrictEqual({ code: 'runner_error', reason: 'dig_block runner threw: leaf blew up', retryable: true, nodePath: 'root/seq[1]/dig' });
  });

  it('has no node path when the error has none, a non-string one, or throws when read', () => {
    const hostile = new Proxy({}, { get: () => { throw new Error('no reading'); } });
    for (const thrown of [new Error('plain'), Object.assign(new Error('n'), { nodePath: 7 }), 'a string', hostile]) {
      expect(thrownFailure('walker', thrown)).not.toHaveProperty('nodePath');
    }
    expect(thrownFailure('walker', 'a string').reason).toBe('walker runner threw: a string');
  });
});

describe('what a runner returned', () => {
  it('nothing, or ok, is ok; ok with observables keeps them', () => {
    expect(interpretRunnerResult('walker', undefined)).toStrictEqual({ ok: true });
    expect(interpretRunnerResult('walker', { ok: true })).toStrictEqual({ ok: true });
    expect(interpretRunnerResult('walker', { ok: true, observables: { steps: 3 } })).toStrictEqual({ ok: true, observables: { steps: 3 } });
  });

  it('a failure keeps its code, or is a runner_error', () => {
    expect(interpretRunnerResult('walker', { ok: false, code: 'stuck', reason: 'wall' })).toStrictEqual({ ok: false, failure: { code: 'stuck', reason: 'wall', retryable: true } });
    expect(interpretRunnerResult('walker', { ok: false, reason: 'gave up' })).toStrictEqual({ ok: false, failure: { code: 'runner_error', reason: 'gave up', retryable: true } });
  });

  it('a malformed value is a runner_error that says what was wrong', () => {
    const result = interpretRunnerResult('walker', { ok: 'yes' });
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.failure.reason).toMatch(/^walker runner returned a malformed result:\n✖ /);
    expect(result.ok ? undefined : result.failure.code).toBe('runner_error');
  });

  it('a value that throws when read is a runner_error that says so', () => {
    const hostile = new Proxy({}, { get: () => { throw new Error('trap'); }, has: () => { throw new Error('trap'); } });
    expect(interpretRunnerResult('walker', hostile)).toStrictEqual({ ok: false, failure: { code: 'runner_error', reason: 'walker runner returned a result that cannot be read: trap', retryable: true } });
  });
});

describe('the actuator trace', () => {
  const scope = (): StepScope => ({ entries: [], dropped: 0, startedAt: 1_000 });

  it('records each entry at its time since the step started, with a detail only when there is one', () => {
    const s = scope();
    traceActivity(s, 3, 1_000, 'command', 'dig', 'log_1');
    traceActivity(s, 3, 1_250, 'transition', 'seq/dig', undefined);
    expect(s.entries).toStrictEqual([
      { atMs: 0, kind: 'command', name: 'dig', detail: 'log_1' },
      { atMs: 250, kind: 'transition', name: 'seq/dig' },
    ]);
  });

  it('counts what comes past the limit as dropped, keeping the first entries', () => {
    const s = scope();
    for (let i = 0; i < 5; i += 1) traceActivity(s, 2, 1_000 + i, 'command', `c${i}`, undefined);
    expect([s.entries.map((e) => e.name), s.dropped]).toEqual([['c0', 'c1'], 3]);
  });

  it('a limit of zero drops everything', () => {
    const s = scope();
    traceActivity(s, 0, 1_000, 'command', 'c', 'd');
    expect([s.entries, s.dropped]).toEqual([[], 1]);
  });
});
