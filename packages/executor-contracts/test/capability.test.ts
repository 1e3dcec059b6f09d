import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  accepted,
  capabilityFactory,
  CapabilityDefinitionError,
  CapabilityRegistry,
  checkArgs,
  defineCapability,
  effectsUnmet,
  formatPredicate,
  pred,
  guardFailed,
  guardOk,
  isUnverified,
  precondMissing,
  RETRY_POLICY_DEFAULTS,
  unverified,
  type CapabilityDefinition,
  type RunContext,
} from '@sinew/executor-contracts';

const base = {
  name: 'dig_block',
  version: '1.0.0',
  description: 'dig a block',
  inputSchema: z.object({ x: z.number() }),
  run: async () => {},
  acceptance: () => accepted,
} satisfies CapabilityDefinition<z.ZodObject<{ x: z.ZodNumber }>, unknown, unknown>;

function definitionError(patch: Record<string, unknown>): string {
  try {
    defineCapability({ ...base, ...patch } as typeof base);
  } catch (error) {
    expect(error).toBeInstanceOf(CapabilityDefinitionError);
    expect(error).toMatchObject({ code: 'invalid_capability', capability: expect.any(String) });
    return (error as Error).message;
  }
  throw new Error('defineCapability accepted a bad definition');
}

describe('defineCapability', () => {
  it('rejects a bad retry policy when defined, naming the field, expected and received', () => {
    expect(definitionError({ retry: { backoff: { initialMs: Number.NaN } } })).toBe('capability dig_block: retry.backoff.initialMs: backoff.initialMs must be a number of milliseconds, received NaN');
    expect(definitionError({ retry: { backoff: { initialMs: -1 } } })).toContain('retry.backoff.initialMs: backoff.initialMs must be > 0 ms');
    expect(definitionError({ retry: { backoff: { maxMs: Number.POSITIVE_INFINITY } } })).toContain('received Infinity');
    expect(definitionError({ retry: { backoff: { factor: '2' } } })).toBe('capability dig_block: retry.backoff.factor: backoff.factor must be a number, received "2"');
    expect(definitionError({ retry: { backoff: { initialMs: 500, maxMs: 100 } } })).toContain('retry.backoff.maxMs: backoff.maxMs must be >= backoff.initialMs');
    expect(definitionError({ retry: { maxLocalRetries: 1.5 } })).toBe('capability dig_block: retry.maxLocalRetries: maxLocalRetries must be an integer, received 1.5');
    expect(definitionError({ retry: { maxLocalRetries: -1 } })).toContain('received -1');
    expect(definitionError({ retry: { backoffMs: 100 } })).toBe('capability dig_block: retry: unknown key `backoffMs`');
    expect(definitionError({ retry: { backoff: { initial: 100 } } })).toBe('capability dig_block: retry.backoff: unknown key `initial`');
    expect(definitionError({ retry: null })).toBe('capability dig_block: retry: expected an object, received null');
    expect(definitionError({ retry: { backoff: 100 } })).toBe('capability dig_block: retry.backoff: backoff must be an object, received 100');
  });

  it('takes any part of the executor policy\'s retry fields as the capability\'s override', () => {
    const retry = { maxLocalRetries: 0, backoff: { initialMs: 10 } };
    expect(defineCapability({ ...base, retry }).retry).toEqual(retry);
    expect(defineCapability({ ...base, retry: RETRY_POLICY_DEFAULTS }).retry).toEqual(RETRY_POLICY_DEFAULTS);
  });

  it('normalizes a definition with documented defaults', () => {
    const cap = defineCapability(base);
    expect(cap).toMatchObject({ name: 'dig_block', version: '1.0.0', safetyLevel: 'safe', atomic: false, aliases: [], runnerKind: 'function' });
    expect([cap.preconds({ x: 1 }), cap.effects({ x: 1 })]).toEqual([[], []]);
    expect(cap.unverified).toBeUndefined();
    expect(cap.guard({ body: undefined }, { x: 1 })).toEqual({ ok: true });
    expect(cap.observe({ body: undefined }, { x: 1 })).toBeUndefined();
  });

  it.each([
    [{ name: 'DigBlock' }, 'snake_case'],
    [{ name: '' }, 'snake_case'],
    [{ version: '1.0' }, 'not semver'],
    [{ version: 'latest' }, 'not semver'],
    [{ description: '   ' }, 'description: expected a non-empty string'],
    [{ run: undefined }, 'exactly one of `run` or `behavior`'],
    [{ behavior: { kind: 'bt', run: async () => {} } }, 'exactly one of `run` or `behavior`'],
    [{ expectedDurationMs: 0 }, 'expectedDurationMs must be > 0'],
    [{ expectedDurationMs: Number.NaN }, 'expectedDurationMs must be > 0'],
    [{ aliases: ['Mine'] }, 'bad alias "Mine"'],
    [{ aliases: ['dig_block'] }, 'bad alias "dig_block"'],
  ])('rejects %o with a message naming the problem', (patch, message) => {
    expect(definitionError(patch)).toContain(message);
  });

  it('names the capability in the error', () => {
    expect(definitionError({ version: 'x' })).toMatch(/^capability dig_block: /);
  });

  it('runs a behavior runner through run() and reports its kind', async () => {
    const seen: unknown[] = [];
    const cap = defineCapability({
      ...base,
      run: undefined,
      behavior: { kind: 'behavior_tree', run: async (_ctx, args) => { seen.push(args); return { ok: true }; } },
    });
    expect(cap.runnerKind).toBe('behavior_tree');
    await expect(cap.run({} as RunContext<unknown>, { x: 3 })).resolves.toEqual({ ok: true });
    expect(seen).toEqual([{ x: 3 }]);
  });

  it('keeps an unverified marker and lets acceptance pass meanwhile', () => {
    const marker = unverified('no observable effect');
    const cap = defineCapability({ ...base, acceptance: marker });
    expect(cap.unverified).toBe(marker);
    expect(isUnverified(marker)).toBe(true);
    expect(isUnverified({ reason: 'x' })).toBe(false);
    expect(isUnverified(null)).toBe(false);
    expect(cap.acceptance(undefined, undefined, { x: 1 })).toEqual({ ok: true });
    expect(unverified().reason).toBe('acceptance not written yet');
  });

  it('copies optional fields so later mutation of the definition does not leak in', () => {
    const aliases = ['mine_block'];
    const preconds = ['near_block:stone'];
    const cap = defineCapability({ ...base, aliases, preconds, effects: ['block_removed'], safetyLevel: 'caution', atomic: true, expectedDurationMs: 500, retry: { maxLocalRetries: 1 } });
    aliases.push('break_block');
    preconds.push('has_item:stick');
    expect(cap).toMatchObject({ aliases: ['mine_block'], safetyLevel: 'caution', atomic: true, expectedDurationMs: 500, retry: { maxLocalRetries: 1 } });
    expect(cap.preconds({ x: 1 }).map(formatPredicate)).toEqual(['near_block:stone']);
    expect(cap.effects({ x: 1 }).map(formatPredicate)).toEqual(['custom:block_removed']);
  });

  it('types args from inputSchema and body/world from capabilityFactory', () => {
    type Bot = { chat(message: string): void };
    const defineBot = capabilityFactory<Bot, { said: string[] }>();
    const said: string[] = [];
    const chat = defineBot({
      name: 'chat',
      version: '1.0.0',
      description: 'say',
      inputSchema: z.object({ message: z.string(), loud: z.boolean().default(false) }),
      guard: (ctx, args) => {
        expectTypeOf(ctx.body).toEqualTypeOf<Bot>();
        expectTypeOf(args.loud).toEqualTypeOf<boolean>();
        return args.message ? guardOk : guardFailed('empty');
      },
      run: async (ctx, { message }) => ctx.body.chat(message),
      acceptance: (pre, post, args) => (post.said.length > pre.said.length && post.said.includes(args.message) ? accepted : effectsUnmet([`said:${args.message}`])),
    });
    void chat.run({ body: { chat: (m: string) => said.push(m) } } as unknown as RunContext<Bot>, { message: 'hi', loud: false });
    expect(said).toEqual(['hi']);
    expect(chat.acceptance({ said: [] }, { said: ['hi'] }, { message: 'hi', loud: false })).toEqual({ ok: true });
    expect(chat.acceptance({ said: [] }, { said: [] }, { message: 'hi', loud: false })).toEqual({ ok: false, unmet: ['said:hi'] });
  });

  it('builds guard and acceptance results', () => {
    expect(precondMissing(['has_item:stick'])).toEqual({ ok: false, code: 'precond_missing', reason: 'missing: has_item:stick', missing: ['has_item:stick'] });
    expect(guardFailed('night')).toEqual({ ok: false, code: 'guard_failed', reason: 'night' });
    expect(effectsUnmet(['a'], 'why')).toEqual({ ok: false, unmet: ['a'], reason: 'why' });
    expect(effectsUnmet(['a'])).toEqual({ ok: false, unmet: ['a'] });
  });
});

describe('defineCapability called from JavaScript (definitions checked at run time)', () => {
  const untyped = (patch: Record<string, unknown>) => () => defineCapability({ ...base, ...patch } as never);
  it.each([
    [{ acceptance: undefined }, 'acceptance: expected a function'],
    [{ acceptance: 'yes' }, 'acceptance: expected a function (pre, post, args) => AcceptanceResult or unverified(reason), received "yes"'],
    [{ guard: true }, 'guard: expected a function, received boolean'],
    [{ observe: {} }, 'observe: expected a function, received object'],
    [{ run: 'go' }, 'run: expected a function, received "go"'],
    [{ run: undefined, behavior: { kind: 'bt' } }, 'behavior: expected a behavior runner'],
    [{ run: undefined, behavior: null }, 'behavior: expected a behavior runner'],
    [{ description: undefined }, 'description: expected a non-empty string, received undefined'],
    [{ description: 42 }, 'description: expected a non-empty string, received 42'],
    [{ inputSchema: { parse: () => ({}) } }, 'inputSchema: expected a zod schema (zod 4), received object'],
    [{ inputSchema: undefined }, 'inputSchema: expected a zod schema'],
    [{ name: 7 }, 'name: expected a snake_case verb'],
    [{ version: undefined }, 'version: undefined is not semver'],
    [{ aliases: 'mine' }, 'aliases: expected an array of strings'],
    [{ preconds: [1] }, 'preconds: expected a function (args) => predicates (pred.*), or an array of predicate strings'],
    [{ effects: 'has_item:stick' }, 'effects: expected a function'],
    [{ strictArgs: 'no' }, 'strictArgs: expected a boolean'],
  ])('throws CapabilityDefinitionError naming the field for %o', (patch, message) => {
    expect(untyped(patch)).toThrow(CapabilityDefinitionError);
    expect(untyped(patch)).toThrow(message);
  });

  it('rejects a definition that is not an object, and both or neither of run/behavior', () => {
    expect(() => defineCapability(null as never)).toThrow('capability ?: expected a definition object, received null');
    expect(untyped({ run: undefined })).toThrow('give exactly one of `run` or `behavior`');
    expect(untyped({ behavior: { kind: 'bt', run: async () => {} } })).toThrow('give exactly one of `run` or `behavior`');
  });

  it('refuses to register a hand-built capability without acceptance; the manifest never calls it verified', () => {
    const cap = defineCapability(base);
    const { acceptance: _dropped, ...withoutAcceptance } = cap;
    expect(() => new CapabilityRegistry().register(withoutAcceptance as never)).toThrow('acceptance: expected a function, received undefined');
    expect(() => new CapabilityRegistry().register({ ...cap, inputSchema: {} } as never)).toThrow('inputSchema: expected a zod schema');
    // A 0.x-style capability: declarations as arrays, not methods.
    expect(() => new CapabilityRegistry().register({ ...cap, effects: ['has_item:stick'] } as never)).toThrow('effects: expected a function, received object');
    const reads = { ...cap, preconds: (args: { x: number }) => [pred.rose(args.x * 2)] };
    expect(() => new CapabilityRegistry().register(reads as never)).toThrow(/preconds over placeholder args: \[0\]: not a predicate/);
    const manifest = new CapabilityRegistry().register(defineCapability({ ...base, acceptance: unverified('later') })).manifest();
    expect(manifest.capabilities[0]!.versions[0]).toMatchObject({ acceptance: 'unverified', unverifiedReason: 'later' });
  });
});

describe('strict arguments', () => {
  const craft = defineCapability({ ...base, name: 'craft_item', inputSchema: z.object({ item: z.string(), count: z.number().int().default(1) }) });
  const failureOf = (capability: Parameters<typeof checkArgs>[0], args: unknown) => {
    const result = checkArgs(capability, args);
    return result.ok ? undefined : result.failure;
  };

  it('rejects a misspelled key as invalid_args naming the nearest known key', () => {
    const failure = failureOf(craft, { item: 'oak_planks', cout: 8 });
    expect(failure).toMatchObject({ code: 'invalid_args', issues: [{ path: [], code: 'unrecognized_keys', message: 'unknown key `cout` — did you mean `count`?' }] });
    expect(failure?.reason).toContain('unknown key `cout` — did you mean `count`?');
  });

  it('lists the known keys when nothing is close, and names nested unknown keys at their path', () => {
    expect(failureOf(craft, { item: 'x', zzzzzzzz: 1 })?.issues?.[0]?.message).toBe('unknown key `zzzzzzzz` — known keys: item, count');
    const nested = defineCapability({ ...base, inputSchema: z.object({ at: z.strictObject({ x: z.number() }).optional() }) });
    expect(failureOf(nested, { at: { x: 1, xx: 2 } })?.issues?.[0]).toMatchObject({ path: ['at'], message: 'unknown key `xx` — did you mean `x`?' });
  });

  it('keeps refinements of a schema it makes strict', () => {
    const either = defineCapability({ ...base, inputSchema: z.object({ a: z.number().optional(), b: z.number().optional() }).refine((v) => (v.a === undefined) !== (v.b === undefined), 'give a or b') });
    expect(failureOf(either, {})?.issues?.[0]?.message).toBe('give a or b');
    expect(failureOf(either, { a: 1, c: 1 })?.issues?.[0]?.message).toContain('unknown key `c`');
  });

  it('opts out with strictArgs: false (unknown keys stripped) or a loose schema (passed through)', () => {
    const lenient = defineCapability({ ...base, strictArgs: false, inputSchema: z.object({ item: z.string() }) });
    expect(checkArgs(lenient, { item: 'x', cout: 8 })).toEqual({ ok: true, args: { item: 'x' } });
    const loose = defineCapability({ ...base, inputSchema: z.looseObject({ item: z.string() }) });
    expect(checkArgs(loose, { item: 'x', extra: 1 })).toEqual({ ok: true, args: { item: 'x', extra: 1 } });
  });

  it('shows additionalProperties: false in the manifest', () => {
    const manifest = new CapabilityRegistry().register(craft).manifest();
    expect(manifest.capabilities[0]!.versions[0]!.inputSchema).toMatchObject({ additionalProperties: false });
  });
});
