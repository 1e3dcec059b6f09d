import { describe, expect, it } from 'vitest';
import { describeError, describeValue } from '../src/failure.js';
import { parsePlan } from '../src/plan.js';
import { PlanSchema } from '../src/schemas.js';

/** parsePlan's fast path must answer exactly what zod answers: same success, same data (prototypes included). */
function expectSameAsZod(input: unknown): void {
  const fast = parsePlan(input);
  const zod = PlanSchema.safeParse(input);
  expect(fast.success).toBe(zod.success);
  if (zod.success) expect(fast.data).toStrictEqual(zod.data);
}

const step = { stepId: 's1', type: 'dig_block', args: { block: 'log_1' } };

describe('parsePlan refuses what PlanSchema refuses, in shapes one guard alone keeps from the fast path', () => {
  it.each([
    ['an empty planId and intentId', { planId: '', intentId: '', steps: [] }],
    ['an empty intentId', { planId: 'p', intentId: '', steps: [] }],
    ['ids of 257 characters', { planId: 'p'.repeat(257), intentId: 'i'.repeat(257), steps: [] }],
    ['ids that are one-element arrays (strings by length only)', { planId: ['p'], intentId: ['i'], steps: [] }],
    ['steps as an object', { planId: 'p', intentId: 'i', steps: {} }],
    ['steps as an array-like object', { planId: 'p', intentId: 'i', steps: { length: 1, 0: step } }],
    ['null', null],
    ['a null step', { planId: 'p', intentId: 'i', steps: [null] }],
    ['null args', { planId: 'p', intentId: 'i', steps: [{ ...step, args: null }] }],
    ['args as an array', { planId: 'p', intentId: 'i', steps: [{ ...step, args: ['log_1'] }] }],
    ['a planner that is not a string', { planId: 'p', intentId: 'i', steps: [], planner: 7 }],
    ['a type of 129 characters', { planId: 'p', intentId: 'i', steps: [{ ...step, type: 't'.repeat(129) }] }],
  ])('%s', (_name, input) => {
    expectSameAsZod(input);
    expect(parsePlan(input).success).toBe(false);
  });

  it('keeps what zod accepts, as zod outputs it: ids of 1 and 256 characters, a type of 128, a planner key set to undefined, a configHash', () => {
    for (const input of [
      { planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 't' }] },
      { planId: 'p'.repeat(256), intentId: 'i'.repeat(256), steps: [{ ...step, stepId: 's'.repeat(256), type: 't'.repeat(128) }] },
      { planId: 'p', intentId: 'i', steps: [step], planner: undefined },
      // a key the fast path does not copy: zod keeps it
      { planId: 'p', intentId: 'i', steps: [step], configHash: 'cfg-1' },
      { planId: 'p', intentId: 'i', steps: [step, { stepId: 's2', type: 'craft_item', args: { item: 'stick', count: 2 } }], planner: 'htn' },
    ]) {
      expectSameAsZod(input);
      expect(parsePlan(input).success).toBe(true);
    }
  });

  it('reads optional step fields that are not enumerable, as zod does', () => {
    const hidden = { ...step };
    Object.defineProperties(hidden, {
      preconds: { value: ['has_item:log:1'] },
      effects: { value: ['has_item:log:2'] },
      cost: { value: 1 },
      priority: { value: 2 },
      safetyLevel: { value: 'caution' },
      expectedDurationMs: { value: 500 },
      idempotencyKey: { value: 'dig-1' },
      capabilityVersion: { value: '^1.0.0' },
    });
    expectSameAsZod({ planId: 'p', intentId: 'i', steps: [hidden] });
    expect(parsePlan({ planId: 'p', intentId: 'i', steps: [hidden] })).toMatchObject({ success: true, data: { steps: [{ priority: 2, capabilityVersion: '^1.0.0' }] } });
  });

  it('copies args own keys only: a JSON `__proto__` key does not become the copy\'s prototype', () => {
    const args = JSON.parse('{"__proto__": {"polluted": true}, "block": "log_1"}') as Record<string, unknown>;
    const parsed = parsePlan({ planId: 'p', intentId: 'i', steps: [{ ...step, args }] });
    expectSameAsZod({ planId: 'p', intentId: 'i', steps: [{ ...step, args }] });
    expect(parsed.success && Object.getPrototypeOf(parsed.data.steps[0]!.args)).toBe(Object.prototype);
    expect(parsed.success && (parsed.data.steps[0]!.args as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('describeError and describeValue', () => {
  it('gives an Error\'s message, clipped past 2,000 characters with the full length', () => {
    expect(describeError(new Error('x'.repeat(2000)))).toBe('x'.repeat(2000));
    expect(describeError(new Error('y'.repeat(2001)))).toBe(`${'y'.repeat(2000)}… (2001 characters)`);
    expect(describeValue('z'.repeat(2001))).toBe(`${'z'.repeat(2000)}… (2001 characters)`);
  });

  it('describes an Error whose message is not a string as that value', () => {
    const numbered = Object.assign(new Error('x'), { message: 42 });
    const shaped = Object.assign(new Error('x'), { message: { at: 'dig' } });
    expect(describeError(numbered)).toBe('42');
    expect(describeError(shaped)).toBe('{"at":"dig"}');
  });

  it('describes each kind of value as text, never throwing', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const { proxy: deadObject, revoke: revokeObject } = Proxy.revocable({}, {});
    const { proxy: deadFunction, revoke: revokeFunction } = Proxy.revocable(() => undefined, {});
    revokeObject();
    revokeFunction();
    expect([describeValue('text'), describeValue(null), describeValue(undefined), describeValue(12n), describeValue(Symbol('s')), describeValue(false)]).toEqual(['text', 'null', 'undefined', '12', 'Symbol(s)', 'false']);
    expect(describeValue(() => 1)).toBe('a function');
    expect(describeValue({ a: [1] })).toBe('{"a":[1]}');
    expect(describeValue(cyclic)).toBe('[object Object] (not serialisable)');
    expect(describeValue(deadObject)).toBe('an unreadable object (revoked proxy?)');
    expect(describeValue(deadFunction)).toBe('an unreadable function');
    expect(describeError(deadObject)).toBe('an unreadable object (revoked proxy?)');
    expect(describeError('plain text thrown')).toBe('plain text thrown');
  });
});
