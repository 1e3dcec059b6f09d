import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parsePlan, PlanSchema } from '@sinew/executor-contracts';

/** Keys in order, recursively: parsePlan must output what zod outputs, key order included. */
const shape = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(shape) : typeof value === 'object' && value !== null ? Object.entries(value).map(([k, v]) => [k, shape(v)]) : value;

const hidden = (target: object, key: string, get: () => unknown) => Object.defineProperty(target, key, { get, enumerable: false });

const inputs: [string, () => unknown][] = [
  ['the common shape', () => ({ planId: 'p', intentId: 'i', steps: [{ stepId: 's1', type: 'noop', args: { n: 1, nested: { a: [1] } } }, { type: 'noop', stepId: 's2' }] })],
  ['a planner, and an explicit undefined one', () => [{ planId: 'p', intentId: 'i', steps: [], planner: 'htn' }, { planId: 'p', intentId: 'i', steps: [], planner: undefined }]],
  ['args given as undefined', () => ({ planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 'noop', args: undefined }] })],
  ['optional step fields', () => ({ planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 'noop', priority: 2, idempotencyKey: 'k', preconds: ['has_item:stick:1'] }] })],
  ['an optional field given as undefined', () => ({ planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 'noop', priority: undefined }] })],
  ['a hidden optional field with a value', () => ({ planId: 'p', intentId: 'i', steps: [Object.defineProperty({ stepId: 's', type: 'noop' }, 'priority', { value: 'high' })] })],
  ['an inherited enumerable key', () => ({ planId: 'p', intentId: 'i', steps: [Object.assign(Object.create({ stepId: 's' }), { type: 'noop' })] })],
  ['unknown keys (refused)', () => ({ planId: 'p', intentId: 'i', extra: 1, steps: [{ stepId: 's', type: 'noop', args: {}, extra: true }] })],
  ['a null-prototype args record', () => ({ planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 'noop', args: Object.assign(Object.create(null), { a: 1 }) }] })],
  ['a non-enumerable args key', () => ({ planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 'noop', args: Object.defineProperty({ a: 1 }, 'b', { value: 2 }) }] })],
  ['an empty stepId', () => ({ planId: 'p', intentId: 'i', steps: [{ stepId: '', type: 'noop' }] })],
  ['a type over 128 chars', () => ({ planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 'x'.repeat(129) }] })],
  ['a planId over 256 chars', () => ({ planId: 'p'.repeat(257), intentId: 'i', steps: [] })],
  ['args as an array', () => ({ planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 'noop', args: [1] }] })],
  ['a symbol args key', () => ({ planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 'noop', args: { [Symbol('k')]: 1 } }] })],
  ['a sparse steps array', () => ({ planId: 'p', intentId: 'i', steps: [, { stepId: 's', type: 'noop' }] })], // eslint-disable-line no-sparse-arrays
  ['a number planner', () => ({ planId: 'p', intentId: 'i', steps: [], planner: 3 })],
  ['a class instance step', () => ({ planId: 'p', intentId: 'i', steps: [new (class { stepId = 's'; type = 'noop'; })()] })],
  // args records as people build them: copied by the fast path into objects of their own, the same as zod's output
  ['args with an enumerable getter, integer-like keys and a frozen nested value', () => ({ planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 'noop', args: Object.freeze({ b: 1, 10: 'ten', get a() { return 'got'; }, 2: 'two', nested: Object.freeze({ x: 1 }) }) }] })],
  ['args with a non-enumerable symbol key (zod skips it) and a key named constructor', () => ({ planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 'noop', args: Object.defineProperty({ constructor: 'c' }, Symbol('hidden'), { value: 1 }) }] })],
  ['args that grew key by key, then lost one', () => {
    const args: Record<string, unknown> = {};
    for (const key of ['x', 'y', 'z', 'w', 'v']) args[key] = key.charCodeAt(0);
    delete args.y;
    return { planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 'noop', args }, { stepId: 's2', type: 'noop', args: JSON.parse('{"count": 2, "item": "stick"}') }] };
  }],
  ['not an object', () => 'plan'],
];

describe('parsePlan', () => {
  for (const [name, make] of inputs) {
    it(`answers exactly as PlanSchema.safeParse: ${name}`, () => {
      for (const input of [make()].flat()) {
        const fast = parsePlan(input);
        const schema = PlanSchema.safeParse(input);
        expect(fast.success).toBe(schema.success);
        if (fast.success && schema.success) expect(shape(fast.data)).toEqual(shape(schema.data));
        if (!fast.success && !schema.success) {
          // the same issues; only an unknown key's message differs (parsePlan names the nearest known key)
          const plain = (issues: z.core.$ZodIssue[]) => issues.map((i) => (i.code === 'unrecognized_keys' ? { ...i, message: '' } : i));
          expect(plain(fast.error.issues)).toEqual(plain(schema.error.issues));
          if (!schema.error.issues.some((i) => i.code === 'unrecognized_keys')) expect(z.prettifyError(fast.error)).toBe(z.prettifyError(schema.error));
        }
      }
    });
  }

  it('refuses an unknown key on a plan or a step and names the nearest known one (a misspelled field is never dropped)', () => {
    const result = parsePlan({ planId: 'p', intentId: 'i', plannr: 'htn', steps: [{ stepId: 's', type: 'noop', efects: ['has_item:stick:1'] }] });
    expect(result.success).toBe(false);
    const messages = result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(messages).toEqual(['steps.0: unknown key `efects` — did you mean `effects`?', ': unknown key `plannr` — did you mean `planner`?']);
  });

  it('copies args records, as zod does (the caller keeps its objects)', () => {
    const args = { n: 1 };
    const parsed = parsePlan({ planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 'noop', args }] });
    expect(parsed.success && parsed.data.steps[0]!.args).toEqual({ n: 1 });
    expect(parsed.success && parsed.data.steps[0]!.args).not.toBe(args);
  });

  it('reads a hidden getter zod would read: its throw is the one zod throws', () => {
    const step = hidden({ stepId: 's', type: 'noop' }, 'preconds', () => {
      throw new Error('preconds getter');
    });
    const plan = { planId: 'p', intentId: 'i', steps: [step] };
    expect(() => PlanSchema.safeParse(plan)).toThrow('preconds getter');
    expect(() => parsePlan(plan)).toThrow('preconds getter');
  });

  it('throws the same error as zod when an args getter throws (read once, in key order)', () => {
    const reads: string[] = [];
    const args = {
      get first() {
        reads.push('first');
        return 1;
      },
      get boom(): never {
        reads.push('boom');
        throw new RangeError('args getter');
      },
    };
    const input = { planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 'noop', args }] };
    expect(() => PlanSchema.safeParse(input)).toThrow(new RangeError('args getter'));
    const zodReads = reads.splice(0);
    expect(() => parsePlan(input)).toThrow(new RangeError('args getter'));
    expect(reads).toEqual(zodReads);
  });

  it('throws the same error as zod when a step getter throws', () => {
    const plan = { planId: 'p', intentId: 'i', steps: [hidden({ type: 'noop' }, 'stepId', () => { throw new Error('stepId getter'); })], get planner(): string { throw new Error('planner getter'); } };
    expect(() => PlanSchema.safeParse(plan)).toThrow('stepId getter');
    expect(() => parsePlan(plan)).toThrow('stepId getter');
  });
});
