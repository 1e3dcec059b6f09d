import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  accepted,
  CapabilityRegistry,
  checkAcceptance,
  checkStep,
  defineCapability,
  effectsUnmet,
  guardFailed,
  precondMissing,
  runGuard,
  type AcceptanceResult,
  type GuardContext,
  type GuardResult,
} from '@sinew/executor-contracts';

type Body = { sticks: number; night: boolean };
type World = { logs: number };

const craftDefinition = {
  name: 'craft_item',
  version: '1.0.0',
  description: 'craft',
  inputSchema: z.object({ item: z.string().min(1), count: z.number().int().positive().default(1) }),
  guard: ({ body }: GuardContext<Body>, { count }: { count: number }): GuardResult =>
    body.night ? guardFailed('too dark') : body.sticks >= count ? { ok: true } : precondMissing(['has_item:stick']),
  run: async () => {},
  acceptance: (pre: World, post: World, args: { count: number }): AcceptanceResult => (post.logs >= pre.logs + args.count ? accepted : effectsUnmet(['has_item:log'])),
};
const craft = defineCapability<typeof craftDefinition.inputSchema, Body, World>(craftDefinition);
const craftV2 = defineCapability<typeof craftDefinition.inputSchema, Body, World>({ ...craftDefinition, version: '2.0.0', guard: undefined, acceptance: () => accepted, aliases: ['make_item'] });
const registry = new CapabilityRegistry<Body>().register(craft).register(craftV2);
const day: Body = { sticks: 5, night: false };

const code = (result: ReturnType<typeof checkStep>) => (result.ok ? 'ok' : result.failure.code);

describe('checkStep (V1–V3)', () => {
  it('passes a valid step, returning parsed args with defaults and the resolved capability', () => {
    const result = checkStep(registry, { stepId: 's1', type: 'craft_item', args: { item: 'stick' } }, { body: day });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.args).toEqual({ item: 'stick', count: 1 });
    expect(result.capability.version).toBe('2.0.0');
    expect(result.step).toEqual({ stepId: 's1', type: 'craft_item', args: { item: 'stick' } });
    expect(result).not.toHaveProperty('alias');
  });

  it('rejects a malformed step as invalid_args with zod issues and a readable message', () => {
    const result = checkStep(registry, { type: 42, args: 'x' });
    expect(code(result)).toBe('invalid_args');
    if (result.ok) return;
    expect(result.failure.issues?.map((i) => i.path.join('.'))).toEqual(['stepId', 'type', 'args']);
    expect(result.failure.reason).toContain('malformed plan step:');
    expect(result.failure.reason).toContain('→ at type');
    expect(result.failure.retryable).toBe(false);
  });

  it('V1: an unknown verb fails with suggestions', () => {
    const result = checkStep(registry, { stepId: 's', type: 'craft_itme' });
    expect(result.ok ? undefined : result.failure).toMatchObject({
      code: 'unknown_verb',
      suggestions: ['craft_item'],
      reason: expect.stringContaining('did you mean craft_item?'),
    });
    const far = checkStep(registry, { stepId: 's', type: 'teleport' });
    expect(far.ok ? undefined : far.failure).toEqual({ code: 'unknown_verb', reason: 'no capability provides "teleport"', retryable: false });
  });

  it('V1: capabilityVersion picks a version; an unsatisfiable or malformed range is unknown_verb', () => {
    const v1 = checkStep(registry, { stepId: 's', type: 'craft_item', capabilityVersion: '^1', args: { item: 'x' } });
    expect(v1.ok && v1.capability.version).toBe('1.0.0');
    const none = checkStep(registry, { stepId: 's', type: 'craft_item', capabilityVersion: '^3', args: { item: 'x' } });
    expect(none.ok ? undefined : none.failure).toMatchObject({ code: 'unknown_verb', reason: expect.stringContaining('no version of craft_item satisfies ^3') });
    expect(code(checkStep(registry, { stepId: 's', type: 'craft_item', capabilityVersion: 'soon' }))).toBe('unknown_verb');
  });

  it('V1: a deprecated alias resolves and is reported on the result', () => {
    const before = registry.aliasUses().get('make_item') ?? 0;
    const result = checkStep(registry, { stepId: 's', type: 'make_item', args: { item: 'x' } });
    expect(result.ok && result.alias).toBe('make_item');
    expect(result.ok && result.capability.name).toBe('craft_item');
    expect(registry.aliasUses().get('make_item')).toBe(before + 1);
  });

  it('V2: bad args fail as invalid_args naming the field, expected and received', () => {
    const result = checkStep(registry, { stepId: 's', type: 'craft_item', args: { item: '', count: 'two' } });
    expect(code(result)).toBe('invalid_args');
    if (result.ok) return;
    expect(result.failure.issues).toEqual([
      { path: ['item'], code: 'too_small', message: expect.any(String) },
      { path: ['count'], code: 'invalid_type', message: 'Invalid input: expected number, received string' },
    ]);
    expect(result.failure.reason).toMatch(/^invalid args for craft_item@2\.0\.0:\n/);
    expect(result.failure.reason).toContain('→ at count');
  });

  it('V2: an input schema that throws still yields invalid_args', () => {
    const explosive = defineCapability({
      name: 'explode',
      version: '1.0.0',
      description: 'refinement throws',
      inputSchema: z.object({}).refine(() => {
        throw new Error('refinement bug');
      }),
      run: async () => {},
      acceptance: () => accepted,
    });
    const result = checkStep(new CapabilityRegistry().register(explosive), { stepId: 's', type: 'explode' });
    expect(result.ok ? undefined : result.failure).toMatchObject({ code: 'invalid_args', reason: expect.stringContaining('refinement bug') });
  });

  it('V3: the guard runs only with a context, and its code and missing preconds come through', () => {
    const step = { stepId: 's', type: 'craft_item', capabilityVersion: '1.0.0', args: { item: 'x', count: 9 } };
    expect(code(checkStep(registry, step))).toBe('ok');
    const missing = checkStep(registry, step, { body: day });
    expect(missing.ok ? undefined : missing.failure).toEqual({ code: 'precond_missing', reason: 'missing: has_item:stick', retryable: false, missing: ['has_item:stick'] });
    const dark = checkStep(registry, step, { body: { sticks: 99, night: true } });
    expect(dark.ok ? undefined : dark.failure).toEqual({ code: 'guard_failed', reason: 'too dark', retryable: false });
  });
});

describe('runGuard', () => {
  const withGuard = (guard: () => unknown) =>
    defineCapability<typeof craftDefinition.inputSchema, Body, World>({ ...craftDefinition, guard: guard as () => GuardResult });

  it('turns a throwing guard into guard_failed', () => {
    const failure = runGuard(withGuard(() => { throw new Error('no bot'); }), { body: day }, {});
    expect(failure).toEqual({ code: 'guard_failed', reason: 'guard of craft_item threw: no bot', retryable: false });
  });

  it.each([
    [undefined, 'returned undefined'],
    [null, 'returned null'],
    [true, 'returned boolean'],
    [Promise.resolve({ ok: true }), 'a Promise'],
  ])('turns a guard returning %o into guard_failed', (value, message) => {
    const failure = runGuard(withGuard(() => value), { body: day }, {});
    expect(failure?.code).toBe('guard_failed');
    expect(failure?.reason).toContain(message);
  });

  it('treats a refusal with an unknown code as guard_failed and stringifies missing', () => {
    const failure = runGuard(withGuard(() => ({ ok: false, code: 'stuck', missing: [1] })), { body: day }, {});
    expect(failure).toEqual({ code: 'guard_failed', reason: 'guard of craft_item refused the step', retryable: false, missing: ['1'] });
  });

  it('returns undefined when the guard passes', () => {
    expect(runGuard(craft, { body: day }, { item: 'x', count: 1 })).toBeUndefined();
  });
});

describe('checkAcceptance (V4)', () => {
  it('is undefined when the effect is observed', () => {
    expect(checkAcceptance(craft, { logs: 0 }, { logs: 2 }, { item: 'x', count: 2 })).toBeUndefined();
  });

  it('reports unmet effects as effects_unmet (retryable)', () => {
    expect(checkAcceptance(craft, { logs: 0 }, { logs: 0 }, { item: 'x', count: 1 })).toEqual({
      code: 'effects_unmet',
      reason: 'effects not observed: has_item:log',
      retryable: true,
      unmet: ['has_item:log'],
    });
  });

  it('keeps the reason an acceptance check gives', () => {
    const cap = defineCapability<typeof craftDefinition.inputSchema, Body, World>({ ...craftDefinition, acceptance: () => effectsUnmet(['x'], 'the log despawned') });
    expect(checkAcceptance(cap, { logs: 0 }, { logs: 0 }, {})?.reason).toBe('the log despawned');
  });

  it('turns a throwing or malformed acceptance into effects_unmet', () => {
    const throwing = defineCapability<typeof craftDefinition.inputSchema, Body, World>({ ...craftDefinition, acceptance: (_pre, post) => ({ ok: post.logs.toFixed(0) === 'never' }) as never });
    expect(checkAcceptance(throwing, { logs: 0 }, undefined as unknown as World, {})).toMatchObject({ code: 'effects_unmet', reason: expect.stringContaining('acceptance of craft_item threw') });
    const junk = defineCapability<typeof craftDefinition.inputSchema, Body, World>({ ...craftDefinition, acceptance: (() => 'yes') as never });
    expect(checkAcceptance(junk, { logs: 0 }, { logs: 1 }, {})).toMatchObject({ code: 'effects_unmet', reason: expect.stringContaining('returned string') });
    const noList = defineCapability<typeof craftDefinition.inputSchema, Body, World>({ ...craftDefinition, acceptance: (() => ({ ok: false })) as never });
    expect(checkAcceptance(noList, { logs: 0 }, { logs: 1 }, {})).toEqual({ code: 'effects_unmet', reason: 'effects not observed: (none named)', retryable: true, unmet: [] });
  });
});
