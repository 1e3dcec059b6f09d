import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  accepted,
  capabilityFactory,
  CapabilityDefinitionError,
  defineCapability,
  effectsUnmet,
  guardFailed,
  guardOk,
  isUnverified,
  precondMissing,
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
    return (error as Error).message;
  }
  throw new Error('defineCapability accepted a bad definition');
}

describe('defineCapability', () => {
  it('rejects a bad retry policy when defined, naming the field, expected and received', () => {
    expect(definitionError({ retry: { backoffMs: Number.NaN } })).toBe('capability dig_block: retry.backoffMs: expected a finite number >= 0, received NaN');
    expect(definitionError({ retry: { backoffMs: -1 } })).toContain('retry.backoffMs: expected a finite number >= 0, received -1');
    expect(definitionError({ retry: { backoffMs: Number.POSITIVE_INFINITY } })).toContain('received Infinity');
    expect(definitionError({ retry: { backoffMs: '100' } })).toContain('retry.backoffMs: expected a finite number >= 0, received "100"');
    expect(definitionError({ retry: { maxLocalRetries: 1.5 } })).toBe('capability dig_block: retry.maxLocalRetries: expected an integer >= 0, received 1.5');
    expect(definitionError({ retry: { maxLocalRetries: -1 } })).toContain('received -1');
    expect(definitionError({ retry: null })).toContain('retry: expected an object, received null');
    expect(defineCapability({ ...base, retry: { maxLocalRetries: 0, backoffMs: 0 } }).retry).toEqual({ maxLocalRetries: 0, backoffMs: 0 });
  });

  it('normalizes a definition with documented defaults', () => {
    const cap = defineCapability(base);
    expect(cap).toMatchObject({ name: 'dig_block', version: '1.0.0', safetyLevel: 'safe', atomic: false, aliases: [], preconds: [], effects: [], runnerKind: 'function' });
    expect(cap.unverified).toBeUndefined();
    expect(cap.guard({ body: undefined }, { x: 1 })).toEqual({ ok: true });
    expect(cap.observe({ body: undefined }, { x: 1 })).toBeUndefined();
  });

  it.each([
    [{ name: 'DigBlock' }, 'snake_case'],
    [{ name: '' }, 'snake_case'],
    [{ version: '1.0' }, 'not semver'],
    [{ version: 'latest' }, 'not semver'],
    [{ description: '   ' }, 'description is empty'],
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
    const cap = defineCapability({ ...base, aliases, preconds: ['near:block'], effects: ['block_removed'], safetyLevel: 'caution', atomic: true, expectedDurationMs: 500, retry: { maxLocalRetries: 1 } });
    aliases.push('break_block');
    expect(cap).toMatchObject({ aliases: ['mine_block'], preconds: ['near:block'], effects: ['block_removed'], safetyLevel: 'caution', atomic: true, expectedDurationMs: 500, retry: { maxLocalRetries: 1 } });
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
