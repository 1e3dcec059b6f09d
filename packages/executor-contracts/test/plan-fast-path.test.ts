import { afterEach, describe, expect, it, vi } from 'vitest';
import { parsePlan } from '../src/plan.js';
import { PlanSchema } from '../src/schemas.js';

// parsePlan answers the common plan shape without zod (the executor's per-step budget relies on it) and hands every
// other shape to the schema. Both halves are pinned here: which shapes take which path (a spy that calls through to
// the real schema counts the schema's calls), and that a step carrying any one optional field — which only the
// schema may read — comes out exactly as zod outputs it.

afterEach(() => {
  vi.restoreAllMocks();
});

/** parsePlan's answer and how many times it asked the schema. */
function parsedCountingSchema(input: unknown) {
  const schema = vi.spyOn(PlanSchema, 'safeParse');
  const parsed = parsePlan(input);
  const calls = schema.mock.calls.length;
  schema.mockRestore();
  return { parsed, calls };
}

const walk = { stepId: 'w-1', type: 'navigate', args: { x: 3, y: 64, z: -9 } };

describe('the common shape is answered without the schema', () => {
  it.each([
    ['a step without args', { planId: 'p', intentId: 'i', steps: [{ stepId: 'a', type: 'b' }] }],
    ['no steps at all', { planId: 'empty-plan', intentId: 'why', steps: [] }],
    ['ids of 256 characters and a type of 128', { planId: 'P'.repeat(256), intentId: 'I'.repeat(256), steps: [{ stepId: 'S'.repeat(256), type: 'T'.repeat(128), args: {} }] }],
    ['a planner name', { planId: 'p2', intentId: 'i2', steps: [walk, { ...walk, stepId: 'w-2' }], planner: 'htn' }],
    ['a planner key left undefined', { planId: 'p3', intentId: 'i3', steps: [walk], planner: undefined }],
    ['three steps, args with nested values', { planId: 'p4', intentId: 'i4', steps: [walk, { stepId: 'c', type: 'craft_item', args: { item: 'stick', uses: { planks: 2 } } }, { stepId: 'e', type: 'chat', args: { text: '' } }] }],
  ])('%s', (_name, input) => {
    const { parsed, calls } = parsedCountingSchema(input);
    expect(calls).toBe(0);
    expect(parsed).toStrictEqual(PlanSchema.safeParse(input));
  });
});

class StepLike {
  stepId = 's';
  type = 't';
}

const inherited = Object.assign(Object.create({ stepId: 's' }) as object, { type: 't' });

describe('every other shape goes to the schema once', () => {
  it.each([
    ['a configHash on the plan', { planId: 'p', intentId: 'i', steps: [walk], configHash: 'cfg' }],
    ['an unknown plan key', { planId: 'p', intentId: 'i', steps: [], plannr: 'htn' }],
    ['a planner that is a number', { planId: 'p', intentId: 'i', steps: [], planner: 3 }],
    ['a plan with a null prototype', Object.assign(Object.create(null) as object, { planId: 'p', intentId: 'i', steps: [] })],
    ['a plan behind a proxy', new Proxy({ planId: 'p', intentId: 'i', steps: [] }, {})],
    ['a string', 'plan'],
    ['a step that is a class instance', { planId: 'p', intentId: 'i', steps: [new StepLike()] }],
    ['a step whose stepId is inherited', { planId: 'p', intentId: 'i', steps: [inherited] }],
    ['a step with an unknown key', { planId: 'p', intentId: 'i', steps: [{ ...walk, tpye: 'x' }] }],
    ['a step with an empty stepId', { planId: 'p', intentId: 'i', steps: [{ ...walk, stepId: '' }] }],
    ['a type of 129 characters', { planId: 'p', intentId: 'i', steps: [{ ...walk, type: 'T'.repeat(129) }] }],
    ['a planId of 257 characters', { planId: 'P'.repeat(257), intentId: 'i', steps: [] }],
    ['an intentId that is a number', { planId: 'p', intentId: 7, steps: [] }],
    ['args with a symbol key', { planId: 'p', intentId: 'i', steps: [{ ...walk, args: { [Symbol('hidden')]: 1, x: 1 } }] }],
    ['args with an own __proto__ key', { planId: 'p', intentId: 'i', steps: [{ ...walk, args: JSON.parse('{"__proto__": {"x": 1}}') as object }] }],
    ['args that are a Map', { planId: 'p', intentId: 'i', steps: [{ ...walk, args: new Map([['x', 1]]) }] }],
    ['a second step that is null', { planId: 'p', intentId: 'i', steps: [walk, null] }],
  ])('%s', (_name, input) => {
    const { parsed, calls } = parsedCountingSchema(input);
    expect(calls).toBe(1);
    const zod = PlanSchema.safeParse(input);
    expect(parsed.success).toBe(zod.success);
    if (zod.success) expect(parsed.data).toStrictEqual(zod.data);
  });
});

describe('a step with one optional field set', () => {
  it.each([
    ['preconds', ['has_item:log:1']],
    ['effects', ['has_item:planks:4']],
    ['cost', 2.5],
    ['priority', -1],
    ['safetyLevel', 'caution'],
    ['expectedDurationMs', 1_500],
    ['idempotencyKey', 'walk-once'],
    ['capabilityVersion', '^2.0.0'],
  ])('%s: read by the schema, kept in the output as zod gives it', (field, value) => {
    const input = { planId: 'p', intentId: 'i', steps: [walk, { stepId: 'opt', type: 'navigate', [field]: value }] };
    const { parsed, calls } = parsedCountingSchema(input);
    expect(calls).toBe(1);
    expect(parsed).toStrictEqual(PlanSchema.safeParse(input));
    expect(parsed.success && (parsed.data.steps[1] as Record<string, unknown>)[field]).toStrictEqual(value);
  });

  it.each([
    ['preconds', ['near_block:oak_log']],
    ['effects', ['has_item:stick:2']],
    ['cost', 0],
    ['priority', 9],
    ['safetyLevel', 'safe'],
    ['expectedDurationMs', 250],
    ['idempotencyKey', 'hidden-key'],
    ['capabilityVersion', '>=1'],
  ])('%s, not enumerable (a getter on a class-less step): the schema reads it, as zod reads every field of its shape', (field, value) => {
    const hidden = { stepId: 'h', type: 'navigate' };
    Object.defineProperty(hidden, field, { get: () => value, enumerable: false });
    const input = { planId: 'p', intentId: 'i', steps: [hidden] };
    const { parsed, calls } = parsedCountingSchema(input);
    expect(calls).toBe(1);
    expect(parsed).toStrictEqual(PlanSchema.safeParse(input));
    expect(parsed.success && (parsed.data.steps[0] as Record<string, unknown>)[field]).toStrictEqual(value);
  });

  it('set to an invalid value: refused as zod refuses it', () => {
    for (const [field, value] of [['preconds', 'has_item:log'], ['cost', -1], ['safetyLevel', 'reckless'], ['expectedDurationMs', 0.5], ['idempotencyKey', '']] as const) {
      const input = { planId: 'p', intentId: 'i', steps: [{ ...walk, [field]: value }] };
      const parsed = parsePlan(input);
      expect(parsed.success, field).toBe(false);
      expect(parsed.error?.issues.map((issue) => issue.path.join('.')), field).toEqual(PlanSchema.safeParse(input).error?.issues.map((issue) => issue.path.join('.')));
    }
  });
});
