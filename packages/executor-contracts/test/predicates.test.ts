import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  blockKey,
  effectsUnmet,
  formatPredicate,
  parseBlockKey,
  parsePredicate,
  precondMissing,
  pred,
  PredicateSchema,
  PredicateStringSchema,
  type Predicate,
} from '@sinew/executor-contracts';

const name = fc.stringMatching(/^[a-z0-9_]{1,12}$/).filter((s) => s !== 'food' && s !== 'any');
const int = fc.integer({ min: -30_000_000, max: 30_000_000 });
const placeholder = fc.stringMatching(/^[a-z_]{1,8}$/).map((p) => pred.placeholder(p));
const target = fc.oneof(fc.record({ x: int, y: int, z: int }), placeholder);
const count = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });
const item = fc.oneof(name, fc.constantFrom({ class: 'food' as const }, { class: 'any' as const }));

const predicate: fc.Arbitrary<Predicate> = fc.oneof(
  fc.tuple(item, count).map(([i, n]) => pred.hasItem(i, n)),
  fc.tuple(item, count).map(([i, n]) => pred.gained(i, n)),
  name.map(pred.nearBlock),
  target.map(pred.withinReach),
  target.map(pred.at),
  target.map(pred.airAt),
  fc.tuple(target, name).map(([p, b]) => pred.blockAt(p, b)),
  fc.tuple(fc.stringMatching(/^[a-z-]{1,8}$/), name).map(([d, i]) => pred.equipped(d, i)),
  fc.oneof(fc.tuple(name, fc.nat()).map(([n, id]) => pred.hurt({ name: n, id })), placeholder.map(pred.hurt)),
  count.map(pred.rose),
  fc.option(fc.double({ min: 0, max: 1e300, noNaN: true }), { nil: undefined }).map(pred.distanceFromThreat),
  fc.constant(pred.foodRose()),
  fc.constant(pred.chatEchoed()),
  fc.constantFrom('built' as const, 'observed' as const).map(pred.structure),
  fc.stringMatching(/^[^\n\r]{1,60}$/).map(pred.custom),
  name.map(pred.seenMob),
  name.map(pred.inBiome),
  int.map(pred.belowY),
);

// Every predicate string the repository produces today (capabilities' guards and acceptance, planners' effects).
const PRODUCED = [
  'has_item:stick', 'has_item:stick:2', 'has_item:oak_planks:4', 'has_item:wooden_pickaxe:1', 'has_item:food:1', 'has_item:bread:1',
  'has_item:log:+3', 'has_item:oak_log:+1', 'has_item:any', 'has_item:cobblestone', 'has_item:dirt:2', 'has_item:log',
  'near_block:crafting_table', 'within_reach:1,64,-3', 'within_reach:-12,5,0', 'at:10,5,0', 'at:<target>',
  'air:3,64,1', 'air:<target>', 'block:1,64,2=dirt', 'block:<position>=oak_planks', 'equipped:hand=wooden_pickaxe',
  'equipped:off-hand=shield', 'hurt:zombie#12', 'hurt:<entity>', 'y:+3', 'distance_from_threat', 'distance_from_threat:>=8',
  'distance_from_threat:>=2.5', 'food:rose', 'chat:echoed', 'structure:built', 'structure:observed',
  'seen_mob:sheep', 'in_biome:desert', 'y:<=16', 'y:<=-54',
];

describe('predicates', () => {
  it('parse ∘ format is the identity on generated predicates', () => {
    fc.assert(
      fc.property(predicate, (p) => {
        expect(PredicateSchema.safeParse(p).success).toBe(true);
        expect(parsePredicate(formatPredicate(p))).toEqual({ ok: true, predicate: p });
      }),
      { numRuns: 2_000 },
    );
  });

  it('parses every predicate string the repository produces today, and formats each back to an equivalent string', () => {
    for (const text of PRODUCED) {
      const parsed = parsePredicate(text);
      expect(parsed, text).toMatchObject({ ok: true });
      if (parsed.ok) expect(parsePredicate(formatPredicate(parsed.predicate))).toEqual(parsed);
    }
  });

  it('reads `:+n` as a gain, not an absolute count (gather reports has_item:<pattern>:+3)', () => {
    expect(parsePredicate('has_item:log:+3')).toEqual({ ok: true, predicate: { kind: 'has_item', item: 'log', count: 3, mode: 'gain' } });
    expect(parsePredicate('has_item:log:3')).toEqual({ ok: true, predicate: { kind: 'has_item', item: 'log', count: 3, mode: 'at_least' } });
    expect(parsePredicate('has_item:log:>=3')).toEqual({ ok: true, predicate: { kind: 'has_item', item: 'log', count: 3, mode: 'at_least' } });
  });

  it('reads food and any as item classes, never as item names', () => {
    expect(parsePredicate('has_item:food:1')).toEqual({ ok: true, predicate: { kind: 'has_item', item: { class: 'food' }, count: 1, mode: 'at_least' } });
    expect(PredicateSchema.safeParse({ kind: 'has_item', item: 'any', count: 1, mode: 'at_least' }).success).toBe(false);
  });

  it('rejects malformed strings with a reason naming what was expected, and never throws', () => {
    const cases: [unknown, string][] = [
      ['has_item:stick:0', 'expected has_item:<item | food | any>'],
      ['has_item::2', 'expected has_item:'],
      ['has_item:Stick', 'expected has_item:'],
      ['near_block:', 'expected near_block:<block>'],
      ['within_reach:1,2', 'expected within_reach:<x>,<y>,<z>'],
      ['within_reach:1.5,2,3', 'expected within_reach:<x>,<y>,<z>'],
      ['y:3', 'expected y:+<n>'],
      ['y:<=', 'y:<=<y> with y an integer'],
      ['y:<=1.5', 'y:<=<y> with y an integer'],
      ['y:<=+3', 'y:<=<y> with y an integer'],
      ['y:>=3', 'y:<=<y> with y an integer'],
      ['seen_mob:', 'expected seen_mob:<mob>'],
      ['seen_mob:Sheep', 'expected seen_mob:<mob>'],
      ['in_biome:snowy plains', 'expected in_biome:<biome>'],
      ['in_biome', 'expected in_biome:<biome>'],
      ['hungry:yes', 'unknown predicate kind "hungry"'],
      ['', 'unknown predicate kind ""'],
      ['custom:', 'expected custom:<text>'],
      ['toString', 'unknown predicate kind "toString"'],
      ['__proto__:x', 'unknown predicate kind "__proto__"'],
      [42, 'expected a predicate string, received number'],
      [null, 'received null'],
      ['x'.repeat(10_000), 'longer than 512 characters'],
    ];
    for (const [text, reason] of cases) {
      const parsed = parsePredicate(text);
      expect(parsed.ok, String(text)).toBe(false);
      if (!parsed.ok) expect(parsed.reason).toContain(reason);
    }
  });

  it('never throws on arbitrary strings', () => {
    fc.assert(fc.property(fc.string({ maxLength: 80 }), (text) => void parsePredicate(text)), { numRuns: 2_000 });
  });

  it('validates wire strings as a zod schema', () => {
    expect(PredicateStringSchema.safeParse('has_item:stick:2').success).toBe(true);
    const bad = PredicateStringSchema.safeParse('has_item:stick:-1');
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toContain('expected has_item:');
  });

  it('block keys floor positions and parse back, rejecting anything else', () => {
    expect(blockKey({ x: 1.7, y: 64, z: -0.2 })).toBe('1,64,-1');
    expect(parseBlockKey('1,64,-1')).toEqual({ x: 1, y: 64, z: -1 });
    for (const bad of ['1,2', '1,2,3,4', '1.5,2,3', 'a,b,c', '', '99999999999999999999,0,0']) expect(parseBlockKey(bad), bad).toBeUndefined();
    fc.assert(fc.property(int, int, int, (x, y, z) => void expect(parseBlockKey(blockKey({ x, y, z }))).toEqual({ x, y, z })));
  });

  it('mobs, biomes and depth: seen_mob, in_biome and below_y (y:<=n), typed, with templates for declarations', () => {
    expect(parsePredicate('seen_mob:sheep')).toEqual({ ok: true, predicate: { kind: 'seen_mob', mob: 'sheep' } });
    expect(parsePredicate('in_biome:dark_forest')).toEqual({ ok: true, predicate: { kind: 'in_biome', biome: 'dark_forest' } });
    expect(parsePredicate('y:<=-54')).toEqual({ ok: true, predicate: { kind: 'below_y', y: -54 } });
    // y:+n is still `rose`: the two share the prefix, told apart by the sign
    expect(parsePredicate('y:+3')).toEqual({ ok: true, predicate: { kind: 'rose', blocks: 3 } });
    expect([pred.seenMob('cow'), pred.inBiome('desert'), pred.belowY(16), pred.belowY(-0)].map(formatPredicate)).toEqual(['seen_mob:cow', 'in_biome:desert', 'y:<=16', 'y:<=0']);
    expect(parsePredicate(formatPredicate(pred.belowY(-0)))).toEqual({ ok: true, predicate: pred.belowY(-0) });
    // a declaration over symbolic args: refused on a step, read as a template
    for (const text of ['seen_mob:<mob>', 'in_biome:<biome>', 'y:<=<depth>']) {
      expect(parsePredicate(text)).toMatchObject({ ok: false, reason: expect.stringContaining('a step must give the value') });
      const template = parsePredicate(text, { templates: true });
      expect(template.ok && formatPredicate(template.predicate)).toBe(text);
    }
    expect(PredicateSchema.safeParse({ kind: 'below_y', y: 2.5 }).success).toBe(false);
    expect(PredicateSchema.safeParse({ kind: 'seen_mob', mob: 'sheep', extra: 1 }).success).toBe(false);
  });

  it('builders floor positions and feed precondMissing / effectsUnmet with wire strings', () => {
    expect(formatPredicate(pred.withinReach({ x: 1.5, y: 64.2, z: -3.1 }))).toBe('within_reach:1,64,-4');
    expect(precondMissing([pred.hasItem('stick', 2), 'near_block:crafting_table'])).toEqual({
      ok: false,
      code: 'precond_missing',
      reason: 'missing: has_item:stick:2, near_block:crafting_table',
      missing: ['has_item:stick:2', 'near_block:crafting_table'],
    });
    expect(effectsUnmet([pred.gained('oak_log', 3)], 'got 1')).toEqual({ ok: false, unmet: ['has_item:oak_log:+3'], reason: 'got 1' });
  });
});
