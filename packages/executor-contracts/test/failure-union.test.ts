import { describe, expect, it } from 'vitest';
import { ERROR_CODES, fail, RunnerResultSchema, runnerStepFailure, StepFailureSchema, stepFailure, type ErrorCode, type RunnerResult, type StepFailure } from '../src/index.js';

describe('StepFailure: one variant per error code (issue 24)', () => {
  it('has exactly one variant for every code of the table', () => {
    const codes = StepFailureSchema.options.map((variant) => variant.shape.code.value).sort();
    expect(codes).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it.each([
    [{ code: 'precond_missing', reason: 'no planks', retryable: false, missing: ['has_item:oak_planks:4'], nodePath: 'root/craft' }],
    [{ code: 'effects_unmet', reason: 'nothing changed', retryable: true, unmet: [] }],
    [{ code: 'invalid_args', reason: 'bad', retryable: false, issues: [{ path: ['to', 0], code: 'invalid_type', message: 'expected number' }] }],
    [{ code: 'unknown_verb', reason: 'no such verb', retryable: false, suggestions: [] }],
    [{ code: 'journal_unavailable', reason: 'ENOSPC', retryable: false }],
  ])('reads %j as it is', (failure) => {
    expect(StepFailureSchema.parse(failure)).toEqual(failure);
  });

  it.each([
    ['a field of another code', { code: 'stuck', reason: 'r', retryable: true, missing: ['has_item:dirt'] }, 'missing'],
    ['issues on a guard failure', { code: 'guard_failed', reason: 'r', retryable: false, issues: [] }, 'issues'],
    ['a nodePath on a verb the executor refused', { code: 'unknown_verb', reason: 'r', retryable: false, nodePath: 'root' }, 'nodePath'],
    ['an unknown key', { code: 'timeout', reason: 'r', retryable: true, retryAfterMs: 5 }, 'retryAfterMs'],
  ])('refuses %s, naming it', (_what, failure, key) => {
    const parsed = StepFailureSchema.safeParse(failure);
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain(key);
  });

  it('refuses a code outside the table', () => {
    expect(StepFailureSchema.safeParse({ code: 'not_found', reason: 'r', retryable: false }).success).toBe(false);
  });
});

describe('stepFailure and fail.*', () => {
  it('stepFailure takes retryable from the table unless told, and keeps the wire order code, reason, retryable, fields', () => {
    const failure = stepFailure('precond_missing', 'no stick', { missing: ['has_item:stick'] });
    expect(JSON.stringify(failure)).toBe('{"code":"precond_missing","reason":"no stick","retryable":false,"missing":["has_item:stick"]}');
    expect(stepFailure('timeout', 'budget', { retryable: false }).retryable).toBe(false);
    // @ts-expect-error a stuck failure carries no missing preconditions
    stepFailure('stuck', 'r', { missing: [] });
  });

  it.each([
    ['guardFailed', 'guard_failed'],
    ['precondMissing', 'precond_missing'],
    ['stuck', 'stuck'],
    ['timeout', 'timeout'],
    ['effectsUnmet', 'effects_unmet'],
    ['aborted', 'aborted'],
    ['bodyDisconnected', 'body_disconnected'],
    ['runnerError', 'runner_error'],
  ] as const)('fail.%s builds a %s runner result the executor reads back as the same failure', (builder, code: ErrorCode) => {
    const result = fail[builder]('why it failed');
    expect(result).toEqual({ ok: false, code, reason: 'why it failed', retryable: ERROR_CODES[code].retryable });
    const parsed = RunnerResultSchema.parse(result) as Extract<RunnerResult, { ok: false }>;
    expect(runnerStepFailure(parsed)).toEqual(stepFailure(code, 'why it failed'));
  });

  it('fail.* carries the fields of its code and an explicit retryable', () => {
    expect(fail.stuck('no path', { retryable: false, nodePath: 'root/walk' })).toEqual({ ok: false, code: 'stuck', reason: 'no path', retryable: false, nodePath: 'root/walk' });
    const missing: readonly string[] = ['has_item:coal:2'];
    expect(fail.precondMissing('no fuel', { missing }).missing).toEqual(['has_item:coal:2']);
    // @ts-expect-error effects that did not happen belong to effects_unmet, not to a timeout
    fail.timeout('late', { unmet: [] });
  });
});

describe('runnerStepFailure: a runner result as the failure of its code', () => {
  const read = (result: Extract<RunnerResult, { ok: false }>): StepFailure => runnerStepFailure(result);

  it('defaults the code to runner_error and retryable to the code table', () => {
    expect(read({ ok: false, reason: 'gave up' })).toEqual({ code: 'runner_error', reason: 'gave up', retryable: true });
    expect(read({ ok: false, code: 'aborted', reason: 'stop' })).toEqual({ code: 'aborted', reason: 'stop', retryable: false });
  });

  it('keeps missing, unmet and nodePath only where the code carries them', () => {
    expect(read({ ok: false, code: 'guard_failed', reason: 'r', missing: ['near_block:furnace'], nodePath: 'root' })).toEqual({ code: 'guard_failed', reason: 'r', retryable: false, missing: ['near_block:furnace'], nodePath: 'root' });
    expect(read({ ok: false, code: 'effects_unmet', reason: 'r', unmet: ['has_item:dirt:+1'], missing: ['x'] })).toEqual({ code: 'effects_unmet', reason: 'r', retryable: true, unmet: ['has_item:dirt:+1'] });
    expect(read({ ok: false, code: 'stuck', reason: 'r', missing: ['x'], unmet: ['y'], nodePath: 'root/a' })).toEqual({ code: 'stuck', reason: 'r', retryable: true, nodePath: 'root/a' });
    expect(read({ ok: false, code: 'duplicate', reason: 'r', nodePath: 'root' })).toEqual({ code: 'duplicate', reason: 'r', retryable: false });
  });

  it('every failure it builds parses with the strict union', () => {
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
      const failure = read({ ok: false, code, reason: code, missing: ['m'], unmet: ['u'], nodePath: 'root' });
      expect(StepFailureSchema.parse(failure)).toEqual(failure);
    }
  });
});
