import type { SquidItem } from '../squid/types.js';

/** Ticks one item cooks in a furnace. */
export const COOK_TICKS = 200;
export const INPUT_SLOT = 0;
export const FUEL_SLOT = 1;
export const RESULT_SLOT = 2;

/** What a furnace holds and how far it is: the four window properties are the four numbers. */
export interface FurnaceCore {
  /** [input, fuel, result]. */
  slots: [SquidItem | null, SquidItem | null, SquidItem | null];
  /** Ticks of fuel left (property 0). */
  litTime: number;
  /** Burn ticks of the last fuel item (property 1). */
  litDuration: number;
  /** Ticks the current item has cooked (property 2). */
  cookingProgress: number;
  /** Ticks an item needs (property 3). */
  cookingTotalTime: number;
}

/** The item knowledge a furnace needs, by item type id. */
export interface FurnaceRules {
  resultOf(type: number): number | undefined;
  /** 0 for items that are not fuel. */
  burnTicks(type: number): number;
  remainderOf(type: number): number | undefined;
  stackSize(type: number): number;
  make(type: number, count: number): SquidItem;
}

/** An empty, unlit furnace. */
export function emptyFurnace(): FurnaceCore {
  return { slots: [null, null, null], litTime: 0, litDuration: 0, cookingProgress: 0, cookingTotalTime: COOK_TICKS };
}

/** The four window properties in protocol order. */
export const propertiesOf = (f: FurnaceCore): number[] => [f.litTime, f.litDuration, f.cookingProgress, f.cookingTotalTime];

function resultFits(f: FurnaceCore, rules: FurnaceRules): boolean {
  const input = f.slots[INPUT_SLOT];
  const result = input ? rules.resultOf(input.type) : undefined;
  if (result === undefined) return false;
  const current = f.slots[RESULT_SLOT];
  return !current || (current.type === result && current.count < rules.stackSize(result));
}

function burnFuel(f: FurnaceCore, rules: FurnaceRules): void {
  const fuel = f.slots[FUEL_SLOT]!;
  f.litTime = rules.burnTicks(fuel.type);
  f.litDuration = f.litTime;
  if (f.litTime <= 0) return;
  fuel.count -= 1;
  if (fuel.count > 0) return;
  const remainder = rules.remainderOf(fuel.type);
  f.slots[FUEL_SLOT] = remainder === undefined ? null : rules.make(remainder, 1);
}

function smeltOne(f: FurnaceCore, rules: FurnaceRules): void {
  const input = f.slots[INPUT_SLOT]!;
  const result = rules.resultOf(input.type)!;
  const current = f.slots[RESULT_SLOT];
  if (current) current.count += 1;
  else f.slots[RESULT_SLOT] = rules.make(result, 1);
  input.count -= 1;
  if (input.count === 0) f.slots[INPUT_SLOT] = null;
}

/**
 * One server tick of a vanilla furnace (AbstractFurnaceBlockEntity.serverTick): burn down the
 * fuel, light the next fuel item when there is something to cook, cook, and cool down when unlit.
 */
export function tickFurnace(f: FurnaceCore, rules: FurnaceRules): void {
  if (f.litTime > 0) f.litTime -= 1;
  const hasFuel = f.slots[FUEL_SLOT] !== null;
  const hasInput = f.slots[INPUT_SLOT] !== null;
  if (f.litTime > 0 || (hasFuel && hasInput)) {
    const canBurn = resultFits(f, rules);
    if (f.litTime <= 0 && canBurn) burnFuel(f, rules);
    if (f.litTime > 0 && canBurn) {
      f.cookingProgress += 1;
      if (f.cookingProgress >= f.cookingTotalTime) {
        f.cookingProgress = 0;
        f.cookingTotalTime = COOK_TICKS;
        smeltOne(f, rules);
      }
    } else f.cookingProgress = 0;
  } else if (f.cookingProgress > 0) {
    f.cookingProgress = Math.max(0, Math.min(f.cookingProgress - 2, f.cookingTotalTime));
  }
}
