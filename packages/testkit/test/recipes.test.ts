import { describe, expect, it } from 'vitest';
import minecraftData from 'minecraft-data';
import { matchGrid, recipesOf, trim } from '../src/extensions/recipes.js';

const registry = minecraftData('1.20.4');
const id = (name: string): number => registry.itemsByName[name]!.id;
const recipes = recipesOf(registry);

describe('recipe matching against a crafting grid (minecraft-data 1.20.4)', () => {
  it('trims a shape to the box of its non-empty cells', () => {
    expect(trim([[null, null, null], [null, 1, 2], [null, null, 3]])).toEqual({ width: 2, height: 2, cells: [1, 2, null, 3] });
    expect(trim([[null, null], [null, null]])).toBeNull();
  });

  it('a shapeless recipe matches anywhere in the grid: one log is 4 planks', () => {
    const grid = [null, null, null, id('birch_log')];
    expect(matchGrid(recipes, grid, 2)?.result).toEqual({ id: id('birch_planks'), count: 4 });
  });

  it('a shaped recipe matches in any column: two planks stacked are 4 sticks, side by side a pressure plate', () => {
    const planks = id('oak_planks');
    expect(matchGrid(recipes, [null, planks, null, planks], 2)?.result).toEqual({ id: id('stick'), count: 4 });
    expect(matchGrid(recipes, [planks, planks, null, null], 2)?.result.id).toBe(id('oak_pressure_plate'));
    expect(matchGrid(recipes, [planks, null, null, planks], 2)).toBeNull();
  });

  it('a 3×3 recipe needs the table grid; its mirror image matches too', () => {
    const p = id('oak_planks');
    const s = id('stick');
    expect(matchGrid(recipes, [p, p, p, null, s, null, null, s, null], 3)?.result.id).toBe(id('wooden_pickaxe'));
    // axe: planks in the top-left L and its mirror
    expect(matchGrid(recipes, [p, p, null, p, s, null, null, s, null], 3)?.result.id).toBe(id('wooden_axe'));
    expect(matchGrid(recipes, [null, p, p, null, s, p, null, s, null], 3)?.result.id).toBe(id('wooden_axe'));
  });

  it('a grid that is no recipe gives nothing, and mixed wood kinds do not make a table', () => {
    expect(matchGrid(recipes, [id('dirt'), id('dirt'), null, null], 2)).toBeNull();
    expect(matchGrid(recipes, [id('oak_planks'), id('oak_planks'), id('oak_planks'), id('birch_planks')], 2)).toBeNull();
    expect(matchGrid(recipes, [id('oak_planks'), id('oak_planks'), id('oak_planks'), id('oak_planks')], 2)?.result.id).toBe(id('crafting_table'));
  });
});
