// Issue 27: a water bucket has a source in a generated world — an empty bucket dipped into a water source block
// (`fill_bucket`) — and none where the world lists no fluid: the HTN plans it, or ends `no_source` naming the item.
import { IntentSchema, pred, type PlanStep } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { createGoapPlanner, type PlannerWorld, type PlanResult } from '../../src/index.js';
import { createMinecraftHtn, itemSources, minecraftGoapDomain, OVERWORLD, PLACED_WORLD, recipeBook } from '../../src/minecraft/index.js';
import { wildRegistry } from './wild-verbs.js';

const registry = wildRegistry();
const book = recipeBook();
const verbs = registry.verbs();

/** A hillside at y 71 with a birch and, when `pond`, a water source three blocks off among the grass. */
const world = (inventory: Record<string, number>, pond: boolean): PlannerWorld => ({
  position: { x: -7.5, y: 71, z: 12.5 },
  health: 20,
  food: 20,
  heldItem: null,
  inventory,
  blocks: { '-5,71,14': 'birch_log', '-5,72,14': 'birch_log', '-9,70,11': 'grass_block', ...(pond ? { '-10,70,12': 'water' } : {}) },
});

function plan(item: string, count: number, inventory: Record<string, number> = {}, options: { pond?: boolean; sources?: typeof OVERWORLD } = {}): PlanResult {
  const planner = createMinecraftHtn({ registry, world: options.sources ?? OVERWORLD, verbs });
  return planner.plan(IntentSchema.parse({ id: 'w', source: 'user', goal: `obtain ${item}`, context: { count }, urgency: 0.5 }), world(inventory, options.pond ?? false));
}

const line = (step: PlanStep): string => {
  const args = step.args as { item?: string; fluid?: string; count?: number; target?: { ore?: string; block?: string } };
  return `${step.type}:${args.item ?? args.fluid ?? args.target?.ore ?? args.target?.block ?? ''}${step.type === 'fill_bucket' ? `×${args.count}` : ''}`;
};
const steps = (result: PlanResult): string[] => (result.ok ? result.plan.steps.map(line) : [`✗ ${result.failure.code}: ${result.failure.reason}`]);

describe('water_bucket from the world: an empty bucket filled at a water source', () => {
  it('is a fill_bucket source in the overworld (needs a bucket), none in a world that lists no fluid', () => {
    const wild = { world: OVERWORLD, verbs: new Set(verbs), sourced: () => true };
    expect(itemSources(book, 'water_bucket', wild)).toContainEqual({ verb: 'fill_bucket', fluid: 'water' });
    expect(itemSources(book, 'water_bucket', { ...wild, world: PLACED_WORLD })).toEqual([]);
    // Lava only deep down: the stairs need a pickaxe, and a body without `mine` has no source of it.
    expect(itemSources(book, 'lava_bucket', wild)).toEqual([{ verb: 'fill_bucket', fluid: 'lava', depth: -53, tools: book.harvestTools('deepslate') }]);
    expect(itemSources(book, 'lava_bucket', { ...wild, verbs: new Set(verbs.filter((verb) => verb !== 'mine')) })).toEqual([]);
  });

  it('with buckets held and water in view: one fill_bucket for the count, no search', () => {
    const result = plan('water_bucket', 2, { bucket: 2 }, { pond: true });
    expect(steps(result)).toEqual(['fill_bucket:water×2']);
    if (result.ok) expect(result.plan.steps[0]!.effects).toEqual(['has_item:water_bucket:+2']);
  });

  it('with a bucket and no water in view: explore for water first', () => {
    expect(steps(plan('water_bucket', 1, { bucket: 1, water_bucket: 0 }))).toEqual(['explore:water', 'fill_bucket:water×1']);
  });

  it('from nothing: iron mined and smelted, a bucket crafted, then water found and the bucket filled — every step parses', () => {
    const result = plan('water_bucket', 1);
    const list = steps(result);
    const at = (s: string) => list.indexOf(s);
    expect(at('smelt_item:iron_ingot'), list.join(' ')).toBeGreaterThan(at('mine:iron_ore'));
    expect(at('craft_item:bucket')).toBeGreaterThan(at('smelt_item:iron_ingot'));
    expect(list.slice(-2)).toEqual(['explore:water', 'fill_bucket:water×1']);
    expect(result.ok && result.plan.steps.every((step) => registry.get(step.type)?.inputSchema.safeParse(step.args).success)).toBe(true);
  });

  it('one already held is enough; a world without fluids ends no_source naming the water bucket', () => {
    expect(steps(plan('water_bucket', 1, { water_bucket: 1 }))).toEqual([]);
    const none = plan('water_bucket', 1, { bucket: 1 }, { sources: PLACED_WORLD });
    expect(none).toMatchObject({ ok: false, failure: { code: 'no_source', reason: expect.stringContaining('no source of water_bucket') } });
  });

  it('the goal-oriented planner binds fill_bucket from the source too (its declared effect is a placeholder, not any item)', () => {
    const goap = createGoapPlanner({ registry, domain: minecraftGoapDomain(book, { world: OVERWORLD, verbs }), limits: { maxNodes: 20_000, maxMs: 10_000 } });
    expect(steps(goap.planGoal([pred.hasItem('water_bucket', 2)], world({ bucket: 2 }, true)))).toEqual(['fill_bucket:water×2']);
    // planks are not "filled": the wooden pickaxe from nothing is the usual one trip for the logs
    const pickaxe = steps(goap.planGoal([pred.hasItem('wooden_pickaxe', 1)], world({}, false)));
    expect(pickaxe.filter((s) => s.startsWith('gather:'))).toHaveLength(1);
    expect(pickaxe.some((s) => s.startsWith('fill_bucket'))).toBe(false);
  });

  it('lava_bucket: a bucket and a pickaxe, the stairs down to the pools, then the fill — not an explore up top', () => {
    expect(steps(plan('lava_bucket', 1, { bucket: 1, stone_pickaxe: 1 }))).toEqual(['equip:stone_pickaxe', 'mine:', 'fill_bucket:lava×1']);
    const result = plan('lava_bucket', 1, { bucket: 1, stone_pickaxe: 1 });
    if (result.ok) {
      expect(result.plan.steps[1]!.args).toEqual({ target: { depth: -53 } });
      expect(result.plan.steps[1]!.effects).toEqual(['y:<=-53']);
    }
    // From nothing: iron for the bucket comes up the same stairs' way (mined, smelted, crafted) before the trip down.
    const full = steps(plan('lava_bucket', 1));
    expect(full.slice(-2), full.join(' ')).toEqual(['mine:', 'fill_bucket:lava×1']);
    expect(full.indexOf('craft_item:bucket')).toBeGreaterThan(full.indexOf('smelt_item:iron_ingot'));
    // Already down there: no stairs.
    const deep = createMinecraftHtn({ registry, world: OVERWORLD, verbs }).plan(
      IntentSchema.parse({ id: 'w', source: 'user', goal: 'obtain lava_bucket', context: { count: 1 }, urgency: 0.5 }),
      { ...world({ bucket: 1, stone_pickaxe: 1 }, false), position: { x: 0, y: -54, z: 0 } },
    );
    expect(steps(deep)).toEqual(['equip:stone_pickaxe', 'fill_bucket:lava×1']);
  });
});
