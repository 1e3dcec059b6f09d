import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ErrorCodeSchema, isRetryable, stepFailure, StepFailureSchema, type ErrorCode } from '@sinew/executor-contracts';

describe('error codes', () => {
  it('is the closed union the architecture names, in order', () => {
    expect(Object.keys(ERROR_CODES)).toEqual([
      'unknown_verb', 'invalid_args', 'guard_failed', 'precond_missing', 'ttfa_exceeded', 'stuck', 'timeout',
      'effects_unmet', 'preempted', 'aborted', 'duplicate', 'body_disconnected', 'runner_error', 'journal_unavailable',
    ]);
    expect(ErrorCodeSchema.options).toEqual(Object.keys(ERROR_CODES));
  });

  it('marks exactly the transient failures retryable', () => {
    const retryable = (Object.keys(ERROR_CODES) as ErrorCode[]).filter(isRetryable);
    expect(retryable).toEqual(['ttfa_exceeded', 'stuck', 'timeout', 'effects_unmet', 'runner_error']);
  });

  it('rejects codes outside the union', () => {
    expect(ErrorCodeSchema.safeParse('oops').success).toBe(false);
    expect(ErrorCodeSchema.safeParse('stuck').success).toBe(true);
  });

  it('builds failures whose retryable flag comes from the table unless overridden', () => {
    expect(stepFailure('timeout', 'slow')).toEqual({ code: 'timeout', reason: 'slow', retryable: true });
    expect(stepFailure('timeout', 'slow', { retryable: false }).retryable).toBe(false);
    const failure = stepFailure('precond_missing', 'no stick', { missing: ['has_item:stick'] });
    expect(StepFailureSchema.parse(failure)).toEqual(failure);
  });
});
