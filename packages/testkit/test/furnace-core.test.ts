import { describe, expect, it } from 'vitest';
import minecraftData from 'minecraft-data';
import { COOK_TICKS, emptyFurnace, propertiesOf, tickFurnace, type FurnaceCore, type FurnaceRules } from '../src/extensions/furnace-core.js';
import { FUEL_REMAINDER, FUEL_TICKS, SMELTING } from '../src/extensions/smelting.js';
import type { SquidItem } from '../src/squid/types.js';

const data = minecraftData('1.20.4');
const id = (name: string): number => data.itemsByName[name]!.id;
const nameOf = (type: number): string => data.items[type]!.name;

/** The furnace rules over minecraft-data and the testkit's tables (the server builds the same). */
const rules: FurnaceRules = {
  resultOf: (type) => (SMELTING[nameOf(type)] ? id(SMELTING[nameOf(type)]!) : undefined),
  burnTicks: (type) => FUEL_TICKS[nameOf(type)] ?? 0,
  remainderOf: (type) => (FUEL_REMAINDER[nameOf(type)] ? id(FUEL_REMAINDER[nameOf(type)]!) : undefined),
  stackSize: (type) => data.items[type]!.stackSize,
  make: (type, count) => ({ type, count, name: nameOf(type), stackSize: data.items[type]!.stackSize, slot: 0, metadata: 0, nbt: null }) as SquidItem,
};
const stack = (name: string, count: number): SquidItem => rules.make(id(name), count);
const show = (f: FurnaceCore): string[] => f.slots.map((s) => (s ? `${s.name}x${s.count}` : '-'));
const run = (f: FurnaceCore, ticks: number): void => {
  for (let i = 0; i < ticks; i++) tickFurnace(f, rules);
};

describe('furnace tick (vanilla AbstractFurnaceBlockEntity rules)', () => {
  it('cooks one raw iron with coal in exactly 200 ticks; the coal lights on the first tick', () => {
    const f = emptyFurnace();
    f.slots = [stack('raw_iron', 2), stack('coal', 1), null];
    run(f, 1);
    expect(show(f)).toEqual(['raw_ironx2', '-', '-']);
    expect(propertiesOf(f)).toEqual([1600, 1600, 1, COOK_TICKS]);
    run(f, COOK_TICKS - 2);
    expect(show(f)).toEqual(['raw_ironx2', '-', '-']);
    run(f, 1);
    expect(show(f)).toEqual(['raw_ironx1', '-', 'iron_ingotx1']);
    expect(propertiesOf(f)).toEqual([1600 - 199, 1600, 0, COOK_TICKS]); // lit on tick 1, burnt down on the 199 after
  });

  it('a plank burns 300 ticks: one ingot and half the next, which then cools down 2 per tick', () => {
    const f = emptyFurnace();
    f.slots = [stack('raw_iron', 2), stack('oak_planks', 1), null];
    run(f, 300);
    expect(show(f)).toEqual(['raw_ironx1', '-', 'iron_ingotx1']);
    expect(propertiesOf(f)).toEqual([1, 300, 100, COOK_TICKS]);
    run(f, 1);
    expect(propertiesOf(f)).toEqual([0, 300, 98, COOK_TICKS]);
    run(f, 49);
    expect(f.cookingProgress).toBe(0);
  });

  it('burns no fuel without something to smelt, or when the result slot holds another item', () => {
    const idle = emptyFurnace();
    idle.slots = [null, stack('coal', 1), null];
    run(idle, 10);
    expect(show(idle)).toEqual(['-', 'coalx1', '-']);
    const blocked = emptyFurnace();
    blocked.slots = [stack('raw_iron', 1), stack('coal', 1), stack('gold_ingot', 1)];
    const unsmeltable = emptyFurnace();
    unsmeltable.slots = [stack('dirt', 1), stack('coal', 1), null];
    run(blocked, 10);
    run(unsmeltable, 10);
    expect([show(blocked), show(unsmeltable)]).toEqual([['raw_ironx1', 'coalx1', 'gold_ingotx1'], ['dirtx1', 'coalx1', '-']]);
  });

  it('a lava bucket leaves its bucket in the fuel slot', () => {
    const f = emptyFurnace();
    f.slots = [stack('cobblestone', 1), stack('lava_bucket', 1), null];
    run(f, 1);
    expect(show(f)).toEqual(['cobblestonex1', 'bucketx1', '-']);
    expect(f.litTime).toBe(20_000);
  });

  it('every name in the smelting and fuel tables is a 1.20.4 item', () => {
    const names = [...Object.keys(SMELTING), ...Object.values(SMELTING), ...Object.keys(FUEL_TICKS), ...Object.entries(FUEL_REMAINDER).flat()];
    expect(names.filter((name) => !data.itemsByName[name])).toEqual([]);
    expect(FUEL_TICKS).toMatchObject({ coal: 1600, charcoal: 1600, oak_planks: 300, oak_log: 300, stick: 100, oak_slab: 150 });
    expect(FUEL_TICKS).not.toHaveProperty('cobblestone');
    expect(FUEL_TICKS).not.toHaveProperty('crimson_planks');
  });
});
