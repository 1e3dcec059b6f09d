import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkAcceptance, checkArgs, defineCapability, parsePredicate, PREDICATE_PREFIXES, PredicateStringSchema, runGuard } from '../src/index.js';

// The words a planner author reads when a check refuses: what the check saw, and what would have been accepted.

const shelter = (inputSchema: z.ZodType, hooks: { guard?: () => never; acceptance?: () => never } = {}) =>
  defineCapability({
    name: 'seal_shelter',
    version: '2.1.0',
    description: 'close the last gap',
    inputSchema,
    run: async () => {},
    acceptance: hooks.acceptance ?? (() => ({ ok: true })),
    ...(hooks.guard ? { guard: hooks.guard } : {}),
  });

describe('an unknown argument of a capability that takes none', () => {
  it('says there are no known keys', () => {
    const result = checkArgs(shelter(z.object({})), { door: 'oak' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.failure.reason).toContain('unknown key `door` — known keys: (none)');
  });
});

describe('a guard or acceptance that returns a thenable function', () => {
  // A function with a `then` method is not an object: it is reported as what it is, not as a Promise.
  const thenableFunction = () => Object.assign(() => {}, { then: () => {} }) as never;

  it('is named a function by the acceptance check', () => {
    expect(checkAcceptance(shelter(z.object({}), { acceptance: thenableFunction }), {}, {}, {})).toMatchObject({
      code: 'effects_unmet',
      reason: 'acceptance of seal_shelter returned function, not an AcceptanceResult',
    });
  });

  it('and a real promise is named a Promise by the guard check', () => {
    expect(runGuard(shelter(z.object({}), { guard: () => Promise.resolve({ ok: true }) as never }), { body: {} }, {})).toMatchObject({
      code: 'guard_failed',
      reason: 'guard of seal_shelter returned a Promise (guards and acceptance are synchronous), not a GuardResult',
    });
  });
});

describe('a predicate of an unknown kind', () => {
  it('lists every known kind, comma-separated', () => {
    expect(parsePredicate('torch_lit:3')).toEqual({ ok: false, reason: `"torch_lit:3": unknown predicate kind "torch_lit" (known: ${PREDICATE_PREFIXES.join(', ')})` });
    expect(PREDICATE_PREFIXES.length).toBeGreaterThan(3);
  });

  it('is a custom zod issue when checked by PredicateStringSchema', () => {
    const parsed = PredicateStringSchema.safeParse('torch_lit:3');
    expect(parsed.error?.issues).toMatchObject([{ code: 'custom', message: expect.stringContaining('unknown predicate kind "torch_lit"') }]);
  });
});
