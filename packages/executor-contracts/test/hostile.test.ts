import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CapabilityRegistry,
  checkAcceptance,
  checkArgs,
  checkStep,
  defineCapability,
  describeError,
  describeValue,
  runGuard,
  summarizeIssues,
  type AcceptanceResult,
  type GuardResult,
} from '@sinew/executor-contracts';

// Values a hostile or buggy user can hand over: each must end in a coded result with a safe description.
function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}
const throwingGetter = (key: string) =>
  Object.defineProperty({}, key, {
    get() {
      throw new Error(`${key} getter exploded`);
    },
    enumerable: true,
  });
function errorWithThrowingMessage(): Error {
  const error = new Error('x');
  Object.defineProperty(error, 'message', {
    get() {
      throw new Error('message getter exploded');
    },
  });
  return error;
}
function cyclic(): object {
  const value: Record<string, unknown> = { a: 1 };
  value.self = value;
  return value;
}

const HOSTILE: [string, () => unknown][] = [
  ['a revoked Proxy', revoked],
  ['Object.create(null)', () => Object.create(null)],
  ['an Error whose message getter throws', errorWithThrowingMessage],
  ['a cyclic object', cyclic],
  ['a BigInt', () => 10n],
  ['a Symbol', () => Symbol('s')],
  ['an object whose toJSON throws', () => ({ toJSON: () => { throw new Error('toJSON exploded'); } })],
  ['an object with a throwing getter', () => throwingGetter('ok')],
];

const capability = (guard: () => GuardResult, acceptance: () => AcceptanceResult) =>
  defineCapability({ name: 'probe', version: '1.0.0', description: 'probe', inputSchema: z.object({}), guard, run: async () => {}, acceptance });

describe('hostile values never throw out of the contracts', () => {
  it.each(HOSTILE)('describeError and describeValue describe %s', (_label, make) => {
    for (const describe of [describeError, describeValue]) {
      const text = describe(make());
      expect(typeof text).toBe('string');
      expect(text.length).toBeGreaterThan(0);
    }
  });

  it('describeError reads a normal Error message and clips huge ones', () => {
    expect(describeError(new Error('boom'))).toBe('boom');
    expect(describeError(new Error('x'.repeat(10_000))).length).toBeLessThan(2_100);
    expect(describeError(revoked())).toContain('unreadable');
  });

  it.each(HOSTILE)('runGuard turns a guard that throws or returns %s into guard_failed', (_label, make) => {
    const throwing = capability(() => { throw make(); }, () => ({ ok: true }));
    expect(runGuard(throwing, { body: undefined }, {})).toMatchObject({ code: 'guard_failed', reason: expect.stringContaining('guard of probe threw') });
    const returning = capability(() => make() as GuardResult, () => ({ ok: true }));
    expect(runGuard(returning, { body: undefined }, {})).toMatchObject({ code: 'guard_failed' });
  });

  it.each(HOSTILE)('checkAcceptance turns an acceptance that throws or returns %s into effects_unmet', (_label, make) => {
    const throwing = capability(() => ({ ok: true }), () => { throw make(); });
    expect(checkAcceptance(throwing, {}, {}, {})).toMatchObject({ code: 'effects_unmet', reason: expect.stringContaining('acceptance of probe threw') });
    const returning = capability(() => ({ ok: true }), () => make() as AcceptanceResult);
    expect(checkAcceptance(returning, {}, {}, {})).toMatchObject({ code: 'effects_unmet' });
  });

  it.each(HOSTILE)('unmet / missing entries that are %s become safe strings', (_label, make) => {
    const cap = capability(
      () => ({ ok: false, code: 'precond_missing', reason: 'r', missing: [make() as string] }),
      () => ({ ok: false, unmet: [make() as string] }),
    );
    const guard = runGuard(cap, { body: undefined }, {});
    const acceptance = checkAcceptance(cap, {}, {}, {});
    expect(guard?.code).toBe('precond_missing');
    expect(typeof guard?.missing?.[0]).toBe('string');
    expect(acceptance?.code).toBe('effects_unmet');
    expect(typeof acceptance?.unmet?.[0]).toBe('string');
  });

  it('an acceptance returning { ok: false, unmet: [Object.create(null)] } ends effects_unmet (issue 12)', () => {
    const cap = capability(() => ({ ok: true }), () => ({ ok: false, unmet: [Object.create(null) as string] }));
    expect(checkAcceptance(cap, {}, {}, {})).toEqual({ code: 'effects_unmet', reason: 'effects not observed: {}', retryable: true, unmet: ['{}'] });
  });

  it('a result whose unmet is a revoked Proxy, or whose ok getter throws, is unreadable but coded', () => {
    const unmetProxy = capability(() => ({ ok: true }), () => ({ ok: false, unmet: revoked() as string[] }));
    expect(checkAcceptance(unmetProxy, {}, {}, {})).toMatchObject({ code: 'effects_unmet', reason: expect.stringContaining('could not be read') });
    const okGetter = capability(() => throwingGetter('ok') as GuardResult, () => ({ ok: true }));
    expect(runGuard(okGetter, { body: undefined }, {})).toMatchObject({ code: 'guard_failed', reason: expect.stringContaining('ok getter exploded') });
  });

  it.each(HOSTILE)('checkStep and checkArgs read %s as a step or as args without throwing (invalid_args when unreadable)', (_label, make) => {
    const registry = new CapabilityRegistry().register(capability(() => ({ ok: true }), () => ({ ok: true })));
    const step = checkStep(registry, make());
    expect(step.ok ? undefined : step.failure.code).toBe('invalid_args');
    // Some of these are valid empty args (Object.create(null), an Error object): ok, or invalid_args, never a throw.
    const args = checkStep(registry, { stepId: 's', type: 'probe', args: make() });
    expect(args.ok || args.failure.code === 'invalid_args').toBe(true);
    const direct = checkArgs(registry.capabilities()[0]!, make());
    expect(direct.ok || direct.failure.code === 'invalid_args').toBe(true);
  });

  it('checkStep reads a step with a throwing getter as invalid_args', () => {
    const registry = new CapabilityRegistry().register(capability(() => ({ ok: true }), () => ({ ok: true })));
    const step = Object.defineProperty({ stepId: 's', args: {} }, 'type', { get: () => { throw errorWithThrowingMessage(); }, enumerable: true });
    expect(checkStep(registry, step)).toMatchObject({ ok: false, failure: { code: 'invalid_args' } });
  });

  it('summarizeIssues never throws on unreadable issues', () => {
    expect(summarizeIssues(revoked() as never)).toEqual([{ path: [], code: 'custom', message: expect.stringContaining('issues could not be read') }]);
    expect(summarizeIssues([{ code: 'custom', path: [Symbol('k'), 1], message: 'm', input: undefined } as never])).toEqual([{ path: ['Symbol(k)', 1], code: 'custom', message: 'm' }]);
  });
});
