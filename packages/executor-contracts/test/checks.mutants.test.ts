import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { accepted, CapabilityRegistry, checkAcceptance, checkArgs, checkStep, defineCapability, type AcceptanceResult } from '../src/index.js';

const capability = (name: string, inputSchema: z.ZodType = z.object({}), acceptance: () => AcceptanceResult = () => accepted) =>
  defineCapability({ name, version: '1.0.0', description: name, inputSchema, run: async () => {}, acceptance });

const registry = new CapabilityRegistry().register(capability('dig_block')).register(capability('dig_stone')).register(capability('craft_item'));

const failureOf = (result: ReturnType<typeof checkStep>) => (result.ok ? undefined : result.failure);

describe('checkStep: V1 suggestions', () => {
  it('names every close verb of an unknown one, comma-separated', () => {
    const failure = failureOf(checkStep(registry, { stepId: 's', type: 'dig_blone' }));
    expect(failure).toMatchObject({ code: 'unknown_verb', suggestions: ['dig_block', 'dig_stone'] });
    expect(failure?.reason).toContain(' (did you mean dig_block, dig_stone?)');
  });

  it('suggests nothing when the verb is known but no version satisfies the range', () => {
    const failure = failureOf(checkStep(registry, { stepId: 's', type: 'dig_block', capabilityVersion: '^2.0.0' }));
    expect(failure).toMatchObject({ code: 'unknown_verb' });
    expect(failure?.reason).not.toContain('did you mean');
    expect(failure).not.toHaveProperty('suggestions');
  });

  it('gives a step whose fields throw when read a coded invalid_args, not a throw', () => {
    const hostile = new Proxy({ stepId: 's', type: 'dig_block' }, { get: () => { throw new Error('trap'); } });
    const failure = failureOf(checkStep(registry, hostile));
    expect(failure?.code).toBe('invalid_args');
    expect(failure?.reason).toContain('trap');
  });
});

describe('checkArgs: unknown keys name the nearest key of the object they are in', () => {
  it('looks through an optional wrapper to the nested object the key belongs to', () => {
    const schema = z.strictObject({ at: z.strictObject({ pos: z.strictObject({ x: z.number(), y: z.number() }) }).optional() });
    const result = checkArgs(capability('walk', schema), { at: { pos: { x: 1, y: 2, yy: 3 } } });
    expect(result.ok).toBe(false);
    expect(result.ok ? undefined : result.failure.issues?.[0]).toMatchObject({ path: ['at', 'pos'], message: 'unknown key `yy` — did you mean `y`?' });
  });

  it('looks into the values of a record of objects (a key under any record key belongs to the value schema)', () => {
    const schema = z.strictObject({ slots: z.record(z.string(), z.strictObject({ item: z.string(), count: z.number() })) });
    const result = checkArgs(capability('stock', schema), { slots: { hand: { item: 'torch', count: 1, cout: 2 } } });
    expect(result.ok ? undefined : result.failure.issues?.[0]).toMatchObject({ path: ['slots', 'hand'], message: 'unknown key `cout` — did you mean `count`?' });
  });

  it('looks into every option of a union of objects: the nearest key of any option, or all their keys once', () => {
    const chest = z.strictObject({ kind: z.literal('chest'), slot: z.number() });
    const ground = z.strictObject({ kind: z.literal('ground'), radius: z.number().default(3) });
    const schema = z.strictObject({ drop: z.array(z.union([chest, ground]).optional()) });
    const misspelt = checkArgs(capability('stash', schema), { drop: [{ kind: 'ground', raduis: 2 }] });
    expect(misspelt.ok ? undefined : misspelt.failure.issues?.[0]).toMatchObject({ path: ['drop', 0], message: 'unknown key `raduis` — did you mean `radius`?' });
    const far = checkArgs(capability('stash', schema), { drop: [{ kind: 'chest', slot: 1, zzzzzzzz: true }] });
    expect(far.ok ? undefined : far.failure.issues?.[0]?.message).toBe('unknown key `zzzzzzzz` — known keys: kind, slot, radius');
  });

  it('walks as deep as the path goes (40 objects, each behind an optional: 80 steps)', () => {
    let schema: z.ZodType = z.strictObject({ count: z.number() });
    for (let level = 0; level < 40; level += 1) schema = z.strictObject({ next: schema.optional() });
    let args: Record<string, unknown> = { count: 1, cuont: 2 };
    for (let level = 0; level < 40; level += 1) args = { next: args };
    const result = checkArgs(capability('nest', schema), args);
    expect(result.ok ? undefined : result.failure.issues?.[0]?.message).toBe('unknown key `cuont` — did you mean `count`?');
  });

  it('answers known keys (none) where the schema has no object: a refinement’s own unknown-key issue on a record', () => {
    const schema = z.strictObject({
      limits: z.record(z.string(), z.number()).superRefine((limits, ctx) => {
        const extra = Object.keys(limits).filter((key) => key !== 'logs');
        if (extra.length) ctx.addIssue({ code: 'unrecognized_keys', keys: extra, input: limits });
      }),
    });
    const result = checkArgs(capability('stock', schema), { limits: { logs: 3, dirt: 1 } });
    expect(result.ok ? undefined : result.failure.issues?.[0]).toEqual({ path: ['limits'], code: 'unrecognized_keys', message: 'unknown key `dirt` — known keys: (none)' });
  });

  it('joins several unknown keys with semicolons and lists the known keys when none is near', () => {
    const schema = z.strictObject({ item: z.string(), count: z.number().optional() });
    const result = checkArgs(capability('craft', schema), { item: 'stick', cuont: 2, zzzzzzzz: true });
    expect(result.ok ? undefined : result.failure.issues?.[0]?.message).toBe('unknown key `cuont` — did you mean `count`?; unknown key `zzzzzzzz` — known keys: item, count');
  });
});

describe('checkArgs: issues that cannot be read', () => {
  it('answers a refinement whose issue has a null path segment with invalid_args naming the fault, not a throw', () => {
    const schema = z.object({ item: z.string() }).superRefine((_args, ctx) => {
      ctx.addIssue({ code: 'custom', message: 'no such item', path: [null as unknown as string] });
    });
    const result = checkArgs(capability('craft', schema), { item: 'stick' });
    expect(result.ok).toBe(false);
    const failure = result.ok ? undefined : result.failure;
    expect(failure?.code).toBe('invalid_args');
    expect(failure?.reason).toMatch(/^invalid args for craft@1\.0\.0 \(issues unreadable: \S.*\)$/);
    expect(failure).not.toHaveProperty('issues');
  });
});

describe('checkAcceptance: a refusal without a reason', () => {
  it('names the unmet effects, or says none were named', () => {
    const named = checkAcceptance(capability('dig', z.object({}), () => ({ ok: false, unmet: ['removed:log_1', 'has_item:log:1'] })), {}, {}, {});
    expect(named).toMatchObject({ code: 'effects_unmet', reason: 'effects not observed: removed:log_1, has_item:log:1', unmet: ['removed:log_1', 'has_item:log:1'] });
    const unnamed = checkAcceptance(capability('dig', z.object({}), () => ({ ok: false }) as AcceptanceResult), {}, {}, {});
    expect(unnamed).toMatchObject({ code: 'effects_unmet', reason: 'effects not observed: (none named)', unmet: [] });
  });

  it('says a function with a `then` is a function, and a thenable object a Promise', () => {
    const thenFunction = Object.assign(() => undefined, { then: () => undefined });
    const asFunction = checkAcceptance(capability('dig', z.object({}), () => thenFunction as unknown as AcceptanceResult), {}, {}, {});
    expect(asFunction?.reason).toBe('acceptance of dig returned function, not an AcceptanceResult');
    const asPromise = checkAcceptance(capability('dig', z.object({}), () => Promise.resolve(accepted) as unknown as AcceptanceResult), {}, {}, {});
    expect(asPromise?.reason).toBe('acceptance of dig returned a Promise (guards and acceptance are synchronous), not an AcceptanceResult');
  });
});
