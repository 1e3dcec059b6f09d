import { pred, type Predicate } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { declaredPrecondsFailure, precondsFailure, takeBaseline } from '../src/executor/predicates.js';
import type { PredicateEvaluator } from '../src/executor/types.js';

// A step's declared preconditions before an attempt: the evaluator's baseline taken once, what holds, what does
// not (named in the wire form), and an evaluator that throws — each a coded failure, never a throw.

interface Pack {
  readonly items: Record<string, number>;
}

/** Checks has_item on a pack; counts its baseline calls; `boom` makes holds or baseline throw. */
function evaluator(boom: 'holds' | 'baseline' | undefined = undefined) {
  const calls = { baseline: 0, holds: 0 };
  const e: PredicateEvaluator<Pack> = {
    kinds: ['has_item'],
    holds: (predicate, pack) => {
      calls.holds += 1;
      if (boom === 'holds') throw new Error('sensor offline');
      return predicate.kind === 'has_item' && (pack.items[predicate.item as string] ?? 0) >= predicate.count;
    },
    baseline: (pack) => {
      calls.baseline += 1;
      if (boom === 'baseline') throw new Error('no snapshot');
      return { ...pack.items };
    },
  };
  return { e, calls };
}

const pack: Pack = { items: { stick: 2, log: 0 } };
const sticks = pred.hasItem('stick', 2);
const logs = pred.hasItem('log', 1);
const planks = pred.hasItem('planks', 3);

describe('preconds before an attempt', () => {
  it('hold: no failure', () => {
    const { e } = evaluator();
    expect(precondsFailure(e, [sticks], pack, takeBaseline(e, pack))).toBeUndefined();
  });

  it('that do not hold are precond_missing, each named in its wire form', () => {
    const { e } = evaluator();
    expect(precondsFailure(e, [sticks, logs, planks], pack, takeBaseline(e, pack))).toStrictEqual({
      code: 'precond_missing',
      reason: 'preconds do not hold: has_item:log:1, has_item:planks:3',
      retryable: false,
      missing: ['has_item:log:1', 'has_item:planks:3'],
    });
  });

  it('none declared: nothing is asked of the evaluator', () => {
    const { e, calls } = evaluator();
    expect(precondsFailure(e, [], pack, { ok: true, value: undefined })).toBeUndefined();
    expect(calls.holds).toBe(0);
  });

  it('an evaluator that throws is guard_failed, saying where', () => {
    const { e } = evaluator('holds');
    expect(precondsFailure(e, [sticks], pack, { ok: true, value: {} })).toStrictEqual({ code: 'guard_failed', reason: 'the predicate evaluator threw on the preconds: sensor offline', retryable: false });
  });

  it('a baseline that threw is guard_failed before any precond is checked, even with none declared', () => {
    const { e, calls } = evaluator('baseline');
    const baseline = takeBaseline(e, pack);
    expect(baseline).toStrictEqual({ ok: false, error: 'no snapshot' });
    expect(precondsFailure(e, [], pack, baseline)).toStrictEqual({ code: 'guard_failed', reason: "the predicate evaluator's baseline threw: no snapshot", retryable: false });
    expect(calls.holds).toBe(0);
  });
});

describe('declared preconds of a step', () => {
  it('without an evaluator, or with nothing declared, are not checked and take no baseline', () => {
    const { e, calls } = evaluator();
    const step: { baseline: ReturnType<typeof takeBaseline> | undefined } = { baseline: undefined };
    expect(declaredPrecondsFailure(undefined, { preconds: [logs], effects: [] }, pack, step)).toBeUndefined();
    expect(declaredPrecondsFailure(e, { preconds: [], effects: [] }, pack, step)).toBeUndefined();
    expect([step.baseline, calls.baseline, calls.holds]).toEqual([undefined, 0, 0]);
  });

  it('take the baseline before the first attempt and keep it for the next ones', () => {
    const { e, calls } = evaluator();
    const step: { baseline: ReturnType<typeof takeBaseline> | undefined } = { baseline: undefined };
    const declared: { preconds: Predicate[]; effects: Predicate[] } = { preconds: [logs], effects: [] };
    expect(declaredPrecondsFailure(e, declared, pack, step)?.code).toBe('precond_missing');
    expect(declaredPrecondsFailure(e, declared, { items: { log: 1 } }, step)).toBeUndefined();
    expect([calls.baseline, step.baseline]).toEqual([1, { ok: true, value: { stick: 2, log: 0 } }]);
  });

  it('with only effects declared still take the baseline (gains are measured from it)', () => {
    const { e, calls } = evaluator();
    const step: { baseline: ReturnType<typeof takeBaseline> | undefined } = { baseline: undefined };
    expect(declaredPrecondsFailure(e, { preconds: [], effects: [planks] }, pack, step)).toBeUndefined();
    expect([calls.baseline, calls.holds]).toEqual([1, 0]);
  });
});
