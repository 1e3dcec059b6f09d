import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  accepted,
  CapabilityDefinitionError,
  CapabilityRegistry,
  defineCapability,
  formatPredicate,
  parsePredicate,
  pred,
  PredicateSchema,
  PredicateStringSchema,
  PredicateTemplateSchema,
} from '@sinew/executor-contracts';

const base = { version: '1.0.0', description: 'test', run: async () => {}, acceptance: () => accepted } as const;

// A schema with a camelCase field, a default and a union: the fields a declaration reads come from all of it.
const TradeArgs = z.union([
  z.strictObject({ giveItem: z.string(), amount: z.number().int().positive().default(2) }),
  z.strictObject({ giveItem: z.string(), toll: z.number().int().positive() }),
]);

const trade = defineCapability({
  ...base,
  name: 'trade',
  inputSchema: TradeArgs,
  preconds: (args) => [pred.hasItem(args.giveItem, 'amount' in args ? args.amount : 1), pred.nearBlock('lectern')],
  effects: (args) => [pred.gained('emerald', 'toll' in args && typeof args.toll === 'number' ? args.toll * 3 : pred.placeholder('emeralds'))],
});

describe('capability declarations: typed predicates built from args', () => {
  it('render over placeholder args in the manifest and the tool definitions (camelCase fields as snake_case)', () => {
    const registry = new CapabilityRegistry().register(trade);
    expect(registry.manifest().capabilities[0]!.versions[0]).toMatchObject({
      preconds: ['has_item:<give_item>:<amount>', 'near_block:lectern'],
      effects: ['has_item:emerald:+<emeralds>'],
    });
    expect(registry.toolDefinitions()[0]).toMatchObject({ preconds: ['has_item:<give_item>:<amount>', 'near_block:lectern'], effects: ['has_item:emerald:+<emeralds>'] });
  });

  it('give concrete predicates for concrete args', () => {
    const args = trade.inputSchema.parse({ giveItem: 'wheat', toll: 4 });
    expect([...trade.preconds(args), ...trade.effects(args)].map(formatPredicate)).toEqual(['has_item:wheat:1', 'near_block:lectern', 'has_item:emerald:+12']);
  });

  it('a declaration that breaks on placeholder args fails at definition, naming the field', () => {
    const define = (effects: (args: { count: unknown }) => unknown) => () =>
      defineCapability({ ...base, name: 'pile', inputSchema: z.object({ count: z.number() }), effects: effects as never });
    expect(define((args) => [pred.rose((args.count as number) * 2)])).toThrow(CapabilityDefinitionError);
    expect(define((args) => [pred.rose((args.count as number) * 2)])).toThrow(/effects over placeholder args: \[0\]: not a predicate/);
    expect(define(() => 'y:+1')).toThrow(/effects over placeholder args: expected an array/);
    expect(define(() => {
      throw new RangeError('no');
    })).toThrow(/effects over placeholder args: no/);
  });

  it('keeps wire strings (deprecated): a predicate string keeps its meaning, anything else is custom', () => {
    const legacy = defineCapability({ ...base, name: 'legacy', inputSchema: z.object({}), preconds: ['has_item:<item>:2', 'near:block'] });
    expect(new CapabilityRegistry().register(legacy).manifest().capabilities[0]!.versions[0]!.preconds).toEqual(['has_item:<item>:2', 'custom:near:block']);
  });
});

describe('predicate templates', () => {
  const name = fc.stringMatching(/^[a-z0-9_]{1,10}$/).filter((s) => s !== 'food' && s !== 'any');
  const hole = fc.stringMatching(/^[a-z_]{1,8}$/).map((p) => pred.placeholder(p));
  const template = fc.oneof(
    fc.tuple(fc.oneof(name, hole), fc.oneof(fc.integer({ min: 1, max: 1e6 }), hole)).map(([i, n]) => pred.hasItem(i, n)),
    fc.tuple(fc.oneof(name, hole), fc.oneof(fc.integer({ min: 1, max: 99 }), hole)).map(([i, n]) => pred.gained(i, n)),
    fc.oneof(name, hole).map(pred.nearBlock),
    fc.tuple(hole, fc.oneof(name, hole)).map(([p, b]) => pred.blockAt(p, b)),
    fc.tuple(fc.oneof(fc.constantFrom('hand', 'off-hand'), hole), fc.oneof(name, hole)).map(([d, i]) => pred.equipped(d, i)),
    fc.oneof(fc.integer({ min: 1, max: 300 }), hole).map(pred.rose),
    fc.oneof(fc.double({ min: 0, max: 1e9, noNaN: true }), hole).map(pred.distanceFromThreat),
    fc.oneof(fc.constantFrom('lava' as const, 'fire' as const, 'water' as const), hole).map(pred.outOf),
  );

  it('parse ∘ format is the identity with { templates: true }', () => {
    fc.assert(
      fc.property(template, (p) => {
        expect(PredicateTemplateSchema.safeParse(p).success).toBe(true);
        expect(parsePredicate(formatPredicate(p), { templates: true })).toEqual({ ok: true, predicate: p });
      }),
      { numRuns: 1_000 },
    );
  });

  it('a step cannot carry one: parsePredicate and PredicateStringSchema refuse a placeholder in a value slot, saying so', () => {
    for (const text of ['has_item:<item>:2', 'has_item:stick:<n>', 'near_block:<block>', 'y:+<height>', 'equipped:hand=<item>', 'out_of:<fluid>', 'distance_from_threat:>=<d>']) {
      const parsed = parsePredicate(text);
      expect(parsed, text).toMatchObject({ ok: false, reason: expect.stringContaining('placeholder') });
      expect(PredicateStringSchema.safeParse(text).success, text).toBe(false);
    }
    // Targets have always taken a placeholder (an unobserved target), in both dialects.
    expect(parsePredicate('air:<target>')).toMatchObject({ ok: true });
  });

  it('out_of is a predicate of its own, concrete for a named fluid', () => {
    expect(parsePredicate('out_of:lava')).toEqual({ ok: true, predicate: { kind: 'out_of', fluid: 'lava' } });
    expect(PredicateSchema.safeParse(pred.outOf('water')).success).toBe(true);
    expect(parsePredicate('out_of:mud')).toMatchObject({ ok: false, reason: expect.stringContaining('out_of:lava, out_of:fire or out_of:water') });
  });
});
