import { formatPredicate, parsePredicate, PredicateSchema, type PredicateTemplate } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { explore, mine } from '../src/index.js';

/** The wire strings of a declaration for concrete args, each a predicate a plan step could carry. */
function concrete(declared: readonly PredicateTemplate[]): string[] {
  for (const predicate of declared) expect(PredicateSchema.safeParse(predicate).success, JSON.stringify(predicate)).toBe(true);
  const texts = declared.map(formatPredicate);
  for (const text of texts) expect(parsePredicate(text)).toMatchObject({ ok: true });
  return texts;
}

describe('explore and mine declare mobs, biomes and depth in the predicate vocabulary (no custom strings)', () => {
  it('explore: a block is near_block, a mob seen_mob, a biome in_biome', () => {
    const effects = (target: object) => concrete(explore.effects(explore.inputSchema.parse({ target, maxRadius: 48 })));
    expect(effects({ block: 'sugar_cane' })).toEqual(['near_block:sugar_cane']);
    expect(effects({ mob: 'sheep' })).toEqual(['seen_mob:sheep']);
    expect(effects({ biome: 'snowy_plains' })).toEqual(['in_biome:snowy_plains']);
  });

  it('mine: the depth is below_y (y:<=n) unless the step climbs back out; an ore is its drop gained', () => {
    const effects = (args: object) => concrete(mine.effects(mine.inputSchema.parse(args)));
    expect(effects({ target: { depth: -54 } })).toEqual(['y:<=-54']);
    expect(effects({ target: { ore: 'diamond', depth: -58 }, count: 2 })).toEqual(['has_item:diamond:+2', 'y:<=-58']);
    // back at the surface the feet are above the depth: it is not declared as holding after the step
    expect(effects({ target: { depth: 11 }, returnToSurface: true })).toEqual([]);
    expect(effects({ target: { ore: 'iron' }, returnToSurface: true })).toEqual(['has_item:raw_iron:+1']);
  });
});
