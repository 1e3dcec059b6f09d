import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  accepted,
  CapabilityRegistry,
  checkStep,
  defineCapability,
  ERROR_CODES,
  PlanStepSchema,
  guardFailed,
  precondMissing,
  StepFailureSchema,
  summarizeIssues,
  type GuardContext,
  type StepFailure,
} from '@sinew/executor-contracts';

// Capabilities whose schemas and guards poke at their input in different ways (deep recursion included).
const registry = new CapabilityRegistry<unknown>()
  .register(
    defineCapability({
      name: 'dig_block',
      version: '1.0.0',
      description: 'dig',
      inputSchema: z.object({ x: z.number().int(), y: z.number().int(), z: z.number().int() }),
      guard: ({ body }, { y }) => ((body as { y: number }).y >= y ? { ok: true } : precondMissing([`reach:${y}`])),
      run: async () => {},
      acceptance: () => accepted,
      aliases: ['mine_block'],
    }),
  )
  .register(
    defineCapability({
      name: 'dig_block',
      version: '2.0.0',
      description: 'dig v2',
      inputSchema: z.object({ target: z.object({ x: z.number(), y: z.number(), z: z.number() }), tool: z.enum(['pickaxe', 'hand']).default('hand') }),
      guard: ({ body }, { tool }) => (tool === 'pickaxe' && (body as { hasPickaxe?: unknown }).hasPickaxe !== true ? precondMissing(['has_item:pickaxe']) : { ok: true }),
      run: async () => {},
      acceptance: () => accepted,
    }),
  )
  .register(
    defineCapability({
      name: 'chat',
      version: '1.0.0',
      description: 'say',
      inputSchema: z.object({ message: z.string().min(1) }).strict(),
      guard: ({ body }) => ((body as { muted?: unknown }).muted ? guardFailed('muted') : { ok: true }),
      run: async () => {},
      acceptance: () => accepted,
    }),
  )
  .register(
    defineCapability({
      name: 'remember',
      version: '1.0.0',
      description: 'store any JSON',
      inputSchema: z.object({ key: z.string(), value: z.json() }),
      guard: (ctx, { key }) => (String((ctx.body as Record<string, unknown>)[key]) ? { ok: true } : { ok: true }),
      run: async () => {},
      acceptance: () => accepted,
    }),
  );

const VERBS = ['dig_block', 'mine_block', 'chat', 'remember', 'dig_blok', 'DIG_BLOCK', '', 'constructor', '__proto__', 'toString'];
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'type', 'stepId', 'args'];
const MEGABYTE = 'a'.repeat(1 << 20);

/** An object whose own keys include `__proto__`/`constructor` as data, as JSON.parse produces them. */
const hostileObject = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string()), fc.anything({ maxDepth: 2 })), { maxLength: 6 })
  .map((entries) => {
    const target: Record<string, unknown> = {};
    for (const [key, value] of entries) Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
    return target;
  });

const deep = fc.integer({ min: 1, max: 20_000 }).map((depth) => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i += 1) value = i % 2 ? [value] : { nested: value };
  return value;
});

const hugeString = fc.constantFrom(MEGABYTE, `dig_block${MEGABYTE}`, `^1.0.0 ${'|| 1.x '.repeat(20_000)}`);

const throwingProxy = fc.constantFrom(
  new Proxy({}, { get: () => { throw new Error('get trap'); }, ownKeys: () => { throw new Error('ownKeys trap'); } }),
  Object.defineProperty({ stepId: 's' }, 'type', { enumerable: true, get: () => { throw new Error('getter'); } }),
  new Proxy({ stepId: 's', type: 'chat', args: { message: 'hi' } }, { getPrototypeOf: () => { throw new Error('proto trap'); } }),
);

const anyValue = fc.oneof(
  { weight: 3, arbitrary: fc.anything({ withNullPrototype: true, withObjectString: true, withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true, withBoxedValues: true, maxDepth: 3 }) },
  { weight: 1, arbitrary: hostileObject },
  { weight: 1, arbitrary: deep },
  { weight: 1, arbitrary: hugeString },
);

/** Steps that look right: real or near-miss verbs, plausible ids, and args of any shape. */
const validLooking = fc.record(
  {
    stepId: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('s1', 'step-2') }, fc.string({ maxLength: 300 }), hugeString, anyValue),
    type: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...VERBS) }, { weight: 1, arbitrary: fc.string({ maxLength: 140 }) }, { weight: 1, arbitrary: anyValue }),
    args: fc.oneof(
      fc.record({ x: fc.oneof(fc.integer(), fc.double(), anyValue), y: fc.integer({ min: -64, max: 320 }), z: fc.integer() }, { requiredKeys: [] }),
      fc.record({ target: fc.oneof(fc.record({ x: fc.double(), y: fc.double(), z: fc.double() }), anyValue), tool: fc.oneof(fc.constantFrom('pickaxe', 'hand', 'spoon'), anyValue) }, { requiredKeys: [] }),
      fc.record({ message: fc.oneof(fc.string(), hugeString, anyValue), extra: anyValue }, { requiredKeys: ['message'] }),
      fc.record({ key: fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string()), value: fc.oneof(fc.jsonValue(), deep, anyValue) }),
      hostileObject,
      anyValue,
    ),
    capabilityVersion: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('^1', '^2', '>=3', '1.x || 2.x', 'garbage', '', '~1.0.0') }, hugeString, anyValue),
    expectedDurationMs: fc.oneof(fc.integer(), fc.double(), anyValue),
    idempotencyKey: fc.oneof(fc.string(), anyValue),
  },
  { requiredKeys: ['type'] },
);

const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
/** Well-formed steps for the v2 capability, so guard outcomes (precond_missing included) are reached often. */
const wellFormed = fc.record({
  stepId: fc.constantFrom('s1', 'step-2'),
  type: fc.constantFrom('dig_block', 'mine_block'),
  args: fc.record({ target: fc.record({ x: finite, y: finite, z: finite }), tool: fc.constantFrom('pickaxe', 'hand') }, { requiredKeys: ['target'] }),
});

const ctxArb = fc.oneof(
  fc.constant(undefined),
  fc.record({ body: fc.oneof({ weight: 3, arbitrary: fc.record({ y: fc.integer({ min: -64, max: 320 }), muted: fc.boolean(), hasPickaxe: fc.boolean() }) }, anyValue) }),
  anyValue,
) as fc.Arbitrary<GuardContext<unknown> | undefined>;

const input = fc.oneof({ weight: 2, arbitrary: anyValue }, { weight: 1, arbitrary: throwingProxy }, { weight: 4, arbitrary: validLooking }, { weight: 1, arbitrary: wellFormed });

describe('checkStep on arbitrary input (property)', () => {
  it('never throws and returns ok or exactly one coded failure, over 10,000 inputs', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(input, ctxArb, (step, ctx) => {
        const result = checkStep(registry, step, ctx);
        expect(typeof result.ok).toBe('boolean');
        if (result.ok) {
          expect(Object.keys(result)).not.toContain('failure');
          expect(registry.verbs()).toContain(result.capability.name);
          expect(PlanStepSchema.safeParse(result.step).success).toBe(true);
          seen.add('ok');
          return;
        }
        expect(Object.keys(result).sort()).toEqual(['failure', 'ok']);
        const failure: StepFailure = StepFailureSchema.parse(result.failure);
        expect(['invalid_args', 'unknown_verb', 'guard_failed', 'precond_missing']).toContain(failure.code);
        expect(failure.retryable).toBe(ERROR_CODES[failure.code].retryable);
        expect(failure.reason.length).toBeGreaterThan(0);
        expect(() => JSON.stringify(failure)).not.toThrow();
        if (failure.issues) {
          expect(failure.issues.length).toBeGreaterThan(0);
          expect(failure.reason).toContain('✖'); // z.prettifyError output
        }
        seen.add(failure.code);
        // Oracle: a step the schema rejects is invalid_args carrying exactly the schema's issues.
        let shape: ReturnType<typeof PlanStepSchema.safeParse> | undefined;
        try {
          shape = PlanStepSchema.safeParse(step);
        } catch {
          shape = undefined;
        }
        if (shape && !shape.success) {
          expect(failure.code).toBe('invalid_args');
          // an unknown key's message is rewritten to name the nearest known key; everything else is zod's own
          const plain = (issues: readonly { code: string; message: string }[]) => issues.map((i) => (i.code === 'unrecognized_keys' ? { ...i, message: '' } : i));
          expect(plain(failure.issues ?? [])).toEqual(plain(summarizeIssues(shape.error.issues)));
          for (const issue of failure.issues ?? []) if (issue.code === 'unrecognized_keys') expect(issue.message).toMatch(/^unknown key `/);
          if (!shape.error.issues.some((i) => i.code === 'unrecognized_keys')) expect(failure.reason).toContain(z.prettifyError(shape.error));
        } else if (shape?.success && !registry.has(shape.data.type)) {
          expect(failure.code).toBe('unknown_verb');
        }
      }),
      { numRuns: 10_000, seed: 20261122 },
    );
    // Every branch was reached, so the property constrained something real.
    expect([...seen].sort()).toEqual(['guard_failed', 'invalid_args', 'ok', 'precond_missing', 'unknown_verb']);
  }, 30_000);

  it('handles the named extremes directly: 1 MB strings, 20k-deep args, __proto__ keys, hostile proxies', () => {
    const deepJson = (() => {
      let value: unknown = 1;
      for (let i = 0; i < 20_000; i += 1) value = { v: value };
      return value;
    })();
    const cases: unknown[] = [
      MEGABYTE,
      { stepId: MEGABYTE, type: MEGABYTE },
      { stepId: 's', type: 'chat', args: { message: MEGABYTE } },
      { stepId: 's', type: 'remember', args: { key: 'k', value: deepJson } },
      JSON.parse('{"stepId":"s","type":"chat","__proto__":{"args":{"message":"injected"}}}'),
      JSON.parse('{"stepId":"s","type":"chat","args":{"__proto__":{"message":"x"}}}'),
      JSON.parse('{"stepId":"s","type":"constructor","args":{}}'),
      Object.create(null),
      new Proxy({}, { ownKeys: () => { throw new Error('trap'); } }),
      Symbol('step'),
      () => 'step',
      10n,
    ];
    const codes = cases.map((step) => {
      const result = checkStep(registry, step, { body: { y: 100 } });
      return result.ok ? 'ok' : result.failure.code;
    });
    expect(codes).toEqual([
      'invalid_args', 'invalid_args', 'ok', 'invalid_args', 'invalid_args', 'invalid_args', 'unknown_verb',
      'invalid_args', 'invalid_args', 'invalid_args', 'invalid_args', 'invalid_args',
    ]);
    // Nothing leaked onto Object.prototype from the __proto__ payloads.
    expect(({} as Record<string, unknown>).args).toBeUndefined();
    expect(({} as Record<string, unknown>).message).toBeUndefined();
  });
});
