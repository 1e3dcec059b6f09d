import { ManualClock, parsePredicate, type Intent, type PlanStep, type Predicate } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { backoffMs, backoffWait, defineExecutorPolicy, PolicyError, type Wake } from '../src/executor/policy.js';
import { effectsFailure, stepPredicates, takeBaseline, unmetPredicates } from '../src/executor/predicates.js';
import { effectiveSafetyLevel, heldWaitMs, holdBody, restrictedRefusal, stepRank } from '../src/executor/safety-level.js';
import type { PredicateEvaluator } from '../src/executor/types.js';

const policy = defineExecutorPolicy();
const step = (extra: Partial<PlanStep> = {}): PlanStep => ({ stepId: 's', type: 'dig_block', args: {}, ...extra }) as PlanStep;
const intent = (extra: object = {}): Intent => ({ id: 'i', source: 'user', goal: 'g', urgency: 0.5, safety: { allowed: true }, ...extra }) as Intent;
const capability = (safetyLevel: 'safe' | 'caution' | 'restricted') => ({ safetyLevel }) as never;

describe('executor policy', () => {
  it('refuses a backoff whose cap is below its first wait, at backoff.maxMs, and accepts equal bounds', () => {
    const thrown = (() => {
      try {
        defineExecutorPolicy({ backoff: { initialMs: 300, maxMs: 299 } });
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(PolicyError);
    expect(thrown).toMatchObject({ where: 'executor.policy', path: ['backoff', 'maxMs'], issues: [{ code: 'custom', message: 'backoff.maxMs must be >= backoff.initialMs' }] });
    expect((thrown as Error).message).toMatch(/^invalid executor policy:\n/);
    expect(defineExecutorPolicy({ backoff: { initialMs: 300, maxMs: 300 } }).backoff).toEqual({ initialMs: 300, factor: 2, maxMs: 300 });
    // Only one field given: the order is checked once the defaults fill the other (default maxMs 5000).
    expect(() => defineExecutorPolicy({ backoff: { initialMs: 6000 } })).toThrow(/backoff\.maxMs must be >= backoff\.initialMs/);
    expect(() => defineExecutorPolicy({ backoff: { initialMs: 6000 } })).toThrow(
      expect.objectContaining({ name: 'PolicyError', path: ['backoff', 'maxMs'], issues: [{ path: ['backoff', 'maxMs'], code: 'custom', message: 'backoff.maxMs must be >= backoff.initialMs' }] }),
    );
    expect(defineExecutorPolicy({ backoff: { initialMs: 5000 } }).backoff.maxMs).toBe(5000);
  });

  it('grows the backoff by factor^(retry-1) up to the cap; a capability overrides field by field', () => {
    const p = defineExecutorPolicy({ backoff: { initialMs: 100, factor: 3, maxMs: 1000 } });
    expect([0, 1, 2, 3, 4].map((retry) => backoffMs(p, retry))).toEqual([100, 100, 300, 900, 1000]);
    expect(backoffMs(p, 2, { factor: 2 })).toBe(200);
    expect(backoffMs(p, 5, { maxMs: 5000 })).toBe(5000);
  });

  it('backoffWait ends `elapsed` on the clock, or early through the wake or the signal, clearing its timer and wake', async () => {
    const clock = new ManualClock();
    const wakes: (((how: Wake) => void) | undefined)[] = [];
    const elapsed = backoffWait(clock, 500, undefined, (wake) => wakes.push(wake));
    await clock.advance(499);
    expect(wakes.length).toBe(1);
    await clock.advance(1);
    await expect(elapsed).resolves.toBe('elapsed');
    expect(wakes.at(-1)).toBeUndefined();

    const woken = backoffWait(clock, 500, undefined, (wake) => wakes.push(wake));
    wakes.at(-1)!('preempted');
    await expect(woken).resolves.toBe('preempted');
    expect(clock.pending()).toBe(0);

    const controller = new AbortController();
    const aborted = backoffWait(clock, 500, controller.signal, (wake) => wakes.push(wake));
    controller.abort();
    await expect(aborted).resolves.toBe('aborted');
    expect([clock.pending(), wakes.at(-1)]).toEqual([0, undefined]);
  });
});

describe('safety levels and ranks', () => {
  it('takes the stricter of the step\'s level (safe when unset) and the capability\'s', () => {
    expect(effectiveSafetyLevel(step(), capability('caution'))).toBe('caution');
    expect(effectiveSafetyLevel(step({ safetyLevel: 'restricted' }), capability('caution'))).toBe('restricted');
    expect(effectiveSafetyLevel(step({ safetyLevel: 'caution' }), capability('caution'))).toBe('caution');
    expect(effectiveSafetyLevel(step({ safetyLevel: 'safe' }), capability('restricted'))).toBe('restricted');
    expect(effectiveSafetyLevel(step({ safetyLevel: 'caution' }), capability('safe'))).toBe('caution');
  });

  it('refuses `restricted` only without a grant, never other levels', () => {
    expect(restrictedRefusal('restricted', policy, undefined)).toMatchObject({ code: 'guard_failed', retryable: false, reason: expect.stringContaining('safetyLevel restricted: not granted') });
    expect(restrictedRefusal('restricted', policy, intent({ safety: { allowed: true, allowRestricted: false } }))).toBeDefined();
    expect(restrictedRefusal('restricted', defineExecutorPolicy({ allowRestricted: true }), undefined)).toBeUndefined();
    expect(restrictedRefusal('restricted', policy, intent({ safety: { allowed: true, allowRestricted: true } }))).toBeUndefined();
    expect(restrictedRefusal('caution', policy, undefined)).toBeUndefined();
  });

  it('ranks a step by its own priority, else by its intent\'s urgency band (lower bounds inclusive), else 0', () => {
    expect(stepRank(step({ priority: -2 }), intent({ urgency: 1 }))).toBe(-2);
    expect(stepRank(step({ priority: 0 }), intent({ urgency: 0.95 }))).toBe(0);
    expect(stepRank(step(), undefined)).toBe(0);
    expect(stepRank(step(), intent({ urgency: -0.5 }))).toBe(0);
    expect([0, 0.39, 0.4, 0.69, 0.7, 0.89, 0.9, 1].map((urgency) => stepRank(step(), intent({ urgency })))).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
  });

  it('holds plain caution steps for the rest of a preemption\'s hold, never less than it already holds, and ignores a bad hold', () => {
    const clock = new ManualClock(1000);
    const rt = { clock, cautionHeldUntil: 0, heldUntil: 0 };
    holdBody(rt, { holdMs: 500 });
    expect(rt).toMatchObject({ cautionHeldUntil: 1500, heldUntil: 0 });
    holdBody(rt, { holdMs: 100 });
    expect(rt.cautionHeldUntil).toBe(1500);
    for (const bad of [0, -5, Number.NaN, Number.POSITIVE_INFINITY, '900']) {
      const untouched = { clock, cautionHeldUntil: 0, heldUntil: 0 };
      holdBody(untouched, { holdMs: bad, holds: 'all' });
      expect(untouched).toMatchObject({ cautionHeldUntil: 0, heldUntil: 0 });
    }
    // an options object whose getter throws holds nothing, and does not throw
    const throwing = { clock, cautionHeldUntil: 0, heldUntil: 0 };
    holdBody(throwing, { get holdMs(): number { throw new Error('boom'); } });
    expect(throwing.cautionHeldUntil).toBe(0);
    holdBody(rt, { holdMs: 2 ** 40 });
    expect(rt.cautionHeldUntil).toBe(1000 + 2_147_483_647);
    const fresh = { clock, cautionHeldUntil: 1500, heldUntil: 0 };
    expect([heldWaitMs('caution', fresh), heldWaitMs('safe', fresh), heldWaitMs('restricted', fresh)]).toEqual([500, 0, 0]);
    expect(heldWaitMs('caution', { clock, cautionHeldUntil: 400, heldUntil: 0 })).toBe(0);
  });

  it("holds: 'all' holds every plan step, whatever its level; an unknown holds value holds caution steps only", async () => {
    const clock = new ManualClock(1000);
    const rt = { clock, cautionHeldUntil: 0, heldUntil: 0 };
    holdBody(rt, { holdMs: 800, holds: 'all' });
    expect(rt).toMatchObject({ cautionHeldUntil: 0, heldUntil: 1800 });
    expect([heldWaitMs('caution', rt), heldWaitMs('safe', rt), heldWaitMs('restricted', rt)]).toEqual([800, 800, 800]);
    holdBody(rt, { holdMs: 2000, holds: 'everything' });
    expect([heldWaitMs('caution', rt), heldWaitMs('safe', rt)]).toEqual([2000, 800]);
    await clock.advance(900);
    expect([heldWaitMs('caution', rt), heldWaitMs('safe', rt)]).toEqual([1100, 0]);
  });
});

/** An evaluator over a set of holding wire strings (a small fake world, not an echo of the step). */
function evaluator(holding: string[], kinds: Predicate['kind'][] = ['has_item', 'at', 'near_block', 'hurt']): PredicateEvaluator<string[]> & { baselines: number } {
  const parsed = holding.map((text) => JSON.stringify(parsePredicate(text)));
  return {
    kinds,
    baselines: 0,
    holds: (predicate) => parsed.includes(JSON.stringify({ ok: true, predicate })),
    baseline(body) {
      this.baselines += 1;
      return body.length;
    },
  };
}

describe('step predicates', () => {
  it('needs no evaluator when the step declares nothing (empty lists included)', () => {
    expect(stepPredicates(step(), undefined)).toEqual({ ok: true, value: { preconds: [], effects: [] } });
    expect(stepPredicates(step({ preconds: [], effects: [] }), undefined)).toEqual({ ok: true, value: { preconds: [], effects: [] } });
  });

  it('refuses declared preconds or effects when nothing can check them', () => {
    for (const declared of [{ preconds: ['has_item:log:1'] }, { effects: ['at:1,2,3'] }]) {
      expect(stepPredicates(step(declared), undefined)).toMatchObject({ ok: false, failure: { code: 'invalid_args', reason: expect.stringContaining('nothing can check them') } });
    }
  });

  it('parses both lists in order for an evaluator that checks their kinds', () => {
    const result = stepPredicates(step({ preconds: ['near_block:oak_log', 'has_item:log:2'], effects: ['at:1,2,3'] }), evaluator([]));
    expect(result).toEqual({
      ok: true,
      value: {
        preconds: [{ kind: 'near_block', block: 'oak_log' }, { kind: 'has_item', item: 'log', count: 2, mode: 'at_least' }],
        effects: [{ kind: 'at', position: { x: 1, y: 2, z: 3 } }],
      },
    });
  });

  it('refuses, naming the list and index, a predicate that does not parse, a kind the evaluator does not check, or a placeholder target', () => {
    const reason = (declared: Partial<PlanStep>, kinds?: Predicate['kind'][]) => {
      const result = stepPredicates(step(declared), evaluator([], kinds));
      return result.ok ? undefined : result.failure.reason;
    };
    expect(reason({ effects: ['at:1,2,3', 'nonsense:1'] })).toMatch(/^effects\[1\] cannot be checked: "nonsense:1": unknown predicate kind/);
    expect(reason({ preconds: ['has_item:log:1', 'y:+2'] })).toBe('preconds[1] cannot be checked: the predicate evaluator does not check "rose" (it checks has_item, at, near_block, hurt)');
    expect(reason({ preconds: ['has_item:log:1'] }, [])).toBe('preconds[0] cannot be checked: the predicate evaluator does not check "has_item" (it checks nothing)');
    expect(reason({ effects: ['at:<target>'] })).toBe('effects[0] cannot be checked: "at:<target>" names an unobserved target');
    expect(reason({ effects: ['hurt:<entity>'] })).toBe('effects[0] cannot be checked: "hurt:<entity>" names an unobserved target');
  });

  it('lists the wire strings of what does not hold, and turns a throwing evaluator into its error', () => {
    const list = [parsePredicate('has_item:log:2'), parsePredicate('near_block:oak_log')].map((p) => (p.ok ? p.predicate : undefined!));
    expect(unmetPredicates(evaluator(['near_block:oak_log']), list, [], undefined)).toEqual({ unmet: ['has_item:log:2'] });
    expect(unmetPredicates(evaluator(['near_block:oak_log', 'has_item:log:2']), list, [], undefined)).toEqual({ unmet: [] });
    const throwing = { kinds: ['has_item'], holds: () => { throw new Error('world unloaded'); } } as PredicateEvaluator<string[]>;
    expect(unmetPredicates(throwing, list, [], undefined)).toEqual({ error: 'world unloaded' });
    // Anything but `true` is not holding.
    const truthy = { kinds: ['has_item'], holds: () => 1 as unknown as boolean } as PredicateEvaluator<string[]>;
    expect(unmetPredicates(truthy, list.slice(0, 1), [], undefined)).toEqual({ unmet: ['has_item:log:2'] });
  });

  it('takes the evaluator\'s baseline once, none without one, and an error when it throws', () => {
    const e = evaluator([]);
    expect(takeBaseline(e, ['a', 'b'])).toEqual({ ok: true, value: 2 });
    expect(e.baselines).toBe(1);
    expect(takeBaseline({ kinds: [], holds: () => true }, [])).toEqual({ ok: true, value: undefined });
    expect(takeBaseline({ kinds: [], holds: () => true, baseline: () => { throw new Error('no inventory'); } }, [])).toEqual({ ok: false, error: 'no inventory' });
  });

  it('fails effects_unmet naming the effects not observed, or the evaluator\'s error, and nothing when all hold', () => {
    const list = [parsePredicate('at:1,2,3'), parsePredicate('has_item:log:1')].map((p) => (p.ok ? p.predicate : undefined!));
    expect(effectsFailure(undefined, [])).toBeUndefined();
    expect(effectsFailure({ evaluator: evaluator(['at:1,2,3']), list, baseline: 0 }, [])).toEqual({ code: 'effects_unmet', retryable: expect.any(Boolean), reason: 'declared effects not observed: has_item:log:1', unmet: ['has_item:log:1'] });
    expect(effectsFailure({ evaluator: evaluator([]), list, baseline: 0 }, [])?.reason).toBe('declared effects not observed: at:1,2,3, has_item:log:1');
    expect(effectsFailure({ evaluator: evaluator(['at:1,2,3', 'has_item:log:1']), list, baseline: 0 }, [])).toBeUndefined();
    const throwing = { kinds: ['at'], holds: () => { throw new Error('chunk gone'); } } as PredicateEvaluator<string[]>;
    expect(effectsFailure({ evaluator: throwing, list, baseline: 0 }, [])).toMatchObject({ code: 'effects_unmet', reason: 'the predicate evaluator threw on the effects: chunk gone', unmet: [] });
  });
});
