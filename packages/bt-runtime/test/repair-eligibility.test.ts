import { ERROR_CODES, stepFailure, type ErrorCode } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { isRepairable, readRepair } from '../src/executor/repair.js';

// Which failures the repair hook is asked about, and how its answer is read: every code of the table, by name.

describe('the failures the repair hook is asked about', () => {
  it('are the ones a new plan could fix; refusals, stops, duplicates and a lost journal are not', () => {
    const codes = Object.keys(ERROR_CODES) as ErrorCode[];
    const repairable = codes.filter((code) => isRepairable(stepFailure(code, 'why')));
    expect(repairable.sort()).toEqual(['effects_unmet', 'precond_missing', 'runner_error', 'stuck', 'timeout', 'ttfa_exceeded']);
    expect(codes.filter((code) => !isRepairable(stepFailure(code, 'why'))).sort()).toEqual(['aborted', 'body_disconnected', 'duplicate', 'guard_failed', 'invalid_args', 'journal_unavailable', 'preempted', 'unknown_verb']);
  });
});

describe('the repair hook’s answer', () => {
  it('is no repair unless it carries a non-empty list of steps', () => {
    for (const answer of [undefined, null, 7, {}, { steps: [] }, { steps: 'dig' }, { steps: { 0: 'dig', length: 1 } }]) expect(readRepair(answer)).toBeUndefined();
  });

  it('keeps its steps in a copy, and replaces the rest of the plan only when replace is exactly true', () => {
    const steps = [{ stepId: 'a' }, 'not even a step'];
    const read = readRepair({ steps, replace: 'true' });
    expect(read).toStrictEqual({ steps: [{ stepId: 'a' }, 'not even a step'], replace: false });
    expect(read?.steps).not.toBe(steps);
    expect(readRepair({ steps, replace: true })?.replace).toBe(true);
    expect(readRepair({ steps, replace: 1 })?.replace).toBe(false);
  });
});
