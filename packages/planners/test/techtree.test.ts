import { createStandardRegistry } from '@sinew/capabilities';
import { IntentSchema, type CapabilityRegistry } from '@sinew/executor-contracts';
import minecraftData from 'minecraft-data';
import { describe, expect, it } from 'vitest';
import type { PlannerWorld } from '../src/index.js';
import { createMinecraftHtn, FUEL_TICKS, minecraftOperators, recipeBook, SMELTING, subgoalsFor } from '../src/minecraft/index.js';

const data = minecraftData('1.20.4');
const world = (inventory: Record<string, number> = {}, blocks: Record<string, string> = { '2,64,0': 'oak_log' }): PlannerWorld => ({
  position: { x: 0, y: 64, z: 0 },
  health: 20,
  food: 20,
  heldItem: null,
  inventory,
  blocks,
});
const verbs = (steps: readonly { type: string; args: Record<string, unknown> }[]) =>
  steps.map((s) => `${s.type}:${String(s.args.item ?? s.args.block ?? '')}${s.args.count === undefined ? '' : `:${String(s.args.count)}`}`);
const book = recipeBook();

describe('smelting and fuel tables', () => {
  it('name only items minecraft-data 1.20.4 knows, with ~25 recipes and ~35 fuels', () => {
    const names = [...Object.keys(SMELTING), ...Object.values(SMELTING), ...Object.keys(FUEL_TICKS)];
    expect(names.filter((name) => data.itemsByName[name] === undefined)).toEqual([]);
    expect(Object.keys(SMELTING).length).toBeGreaterThanOrEqual(25);
    expect(Object.keys(FUEL_TICKS).length).toBeGreaterThanOrEqual(35);
    expect(FUEL_TICKS.cobblestone).toBeUndefined();
  });

  it('the recipe book smelts ingots and drops the storage-block and nugget loops', () => {
    expect(book.smeltSource('iron_ingot')).toBe('raw_iron');
    expect(book.recipes('iron_ingot')).toEqual([]);
    expect(book.recipes('iron_block').length).toBeGreaterThan(0); // the other direction stays
    expect(book.gatherSource('raw_iron')).toMatchObject({ block: 'iron_ore', tool: 'stone_pickaxe' });
    expect(book.gatherSource('coal')).toMatchObject({ block: 'coal_ore', tool: 'wooden_pickaxe' });
    expect(book.dropOf('iron_ore')).toBe('raw_iron');
    expect(book.dropOf('stone')).toBe('cobblestone');
  });
});

describe('gather needs the right pickaxe tier (minecraft-data harvestTools)', () => {
  const gather = minecraftOperators(book).find((o) => o.verb === 'gather')!;
  it.each([
    [{}, 'stone', false],
    [{ wooden_pickaxe: 1 }, 'stone', true],
    [{ wooden_pickaxe: 1 }, 'iron_ore', false],
    [{ golden_pickaxe: 1 }, 'iron_ore', false],
    [{ stone_pickaxe: 1 }, 'iron_ore', true],
    [{}, 'oak_log', true],
  ] as const)('with %j, gathering %s is %s', (inventory, block, ok) => {
    expect(gather.apply!(world({ ...inventory }), { block, count: 1 }) !== false).toBe(ok);
  });
});

const registry = createStandardRegistry() as unknown as CapabilityRegistry<unknown>;

// A repair up the tech tree, planned from the standard registry's declarations (issue 31).
const way = { registry };
describe('repair up the tech tree', () => {
  it('has_item:iron_ingot:3 from nothing: tools, cobblestone, a furnace crafted and placed, then smelting — no iron_block', () => {
    const result = subgoalsFor(['has_item:iron_ingot:3'], world(), way);
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (!result.ok) return;
    const steps = verbs(result.steps);
    expect(steps.at(-1)).toBe('smelt_item:iron_ingot:3');
    expect(steps.filter((s) => /iron_block|iron_nugget/.test(s))).toEqual([]);
    // What must come before what (the two ways order the independent furnace and ore differently).
    const before = [
      ['craft_item:wooden_pickaxe:1', 'craft_item:stone_pickaxe:1'],
      ['craft_item:stone_pickaxe:1', 'gather:iron_ore:3'],
      ['craft_item:furnace:1', 'place_block:furnace'],
      ['place_block:furnace', 'smelt_item:iron_ingot:3'],
      ['gather:iron_ore:3', 'smelt_item:iron_ingot:3'],
    ];
    for (const [first, then] of before) {
      expect(steps.indexOf(first!), steps.join(' ')).toBeGreaterThanOrEqual(0);
      expect(steps.indexOf(first!), `${first} before ${then}: ${steps.join(' ')}`).toBeLessThan(steps.indexOf(then!));
    }
  });

  it('near_block:furnace builds one the way it builds a crafting table (no navigate to a furnace that does not exist)', () => {
    const result = subgoalsFor(['near_block:furnace'], world({ cobblestone: 8 }, { '1,64,1': 'crafting_table' }), way);
    expect(result.ok && verbs(result.steps)).toEqual(['craft_item:furnace:1', 'place_block:furnace']);
    const held = subgoalsFor(['near_block:furnace'], world({ furnace: 1 }), way);
    expect(held.ok && verbs(held.steps)).toEqual(['place_block:furnace']);
  });

  it('burns held planks instead of mining coal when they cover the smelts', () => {
    const result = subgoalsFor(['has_item:iron_ingot:1'], world({ raw_iron: 1, oak_planks: 1, furnace: 1 }), way);
    expect(result.ok && verbs(result.steps)).toEqual(['place_block:furnace', 'smelt_item:iron_ingot:1']);
  });
});

describe('HTN: the stone and iron tiers', () => {
  const plan = (goal: string, inventory: Record<string, number> = {}) =>
    createMinecraftHtn(way).plan(IntentSchema.parse({ id: 'i', source: 'user', goal, urgency: 0.5 }), world(inventory));

  it('plans an iron pickaxe from an empty inventory: wooden → stone pickaxe → iron ore, coal, furnace → smelt → iron pickaxe', () => {
    const result = plan('craft iron_pickaxe');
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (!result.ok) return;
    const steps = verbs(result.plan.steps);
    const order = ['craft_item:wooden_pickaxe:1', 'craft_item:stone_pickaxe:1', 'gather:iron_ore:3', 'gather:coal_ore:1', 'place_block:furnace', 'smelt_item:iron_ingot:3', 'craft_item:iron_pickaxe:1'];
    const at = order.map((step) => steps.indexOf(step));
    expect(at.every((index) => index >= 0), steps.join(' ')).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(result.methods).toEqual(expect.arrayContaining(['obtain.smelt', 'fuel.coal', 'furnace.craft_and_place', 'obtain.mine']));
    expect(result.plan.steps.find((s) => s.type === 'smelt_item')?.effects).toEqual(['has_item:iron_ingot:+3']);
  });

  it('iron_tools and stone_tools are the tools.iron and tools.stone methods; a held furnace is placed, not crafted', () => {
    const iron = plan('iron_tools');
    expect(iron.ok && iron.methods).toContain('tools.iron');
    const stone = plan('stone_tools', { wooden_pickaxe: 1, oak_planks: 8 });
    expect(stone.ok && stone.methods).toContain('tools.stone');
    const held = plan('craft iron_ingot', { furnace: 1, raw_iron: 1, coal: 1 });
    expect(held.ok && verbs(held.plan.steps)).toEqual(['place_block:furnace', 'smelt_item:iron_ingot:1']);
  });

  it('lists smelt_item among its verbs', () => {
    expect(createMinecraftHtn(way).verbs()).toContain('smelt_item');
  });
});
