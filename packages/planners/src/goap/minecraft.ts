// Minecraft knowledge the standard capabilities' declarations do not carry: which recipe a craft uses,
// which block a raw item is gathered from (and with which tool), which input a furnace smelts.
import { pred, type Predicate } from '@sinew/executor-contracts';
import type { PlannerWorld } from '../contract.js';
import { preferredWood, rankRecipes, type RecipeBook } from '../minecraft/recipes.js';
import type { ActionVariant, GoapDomain } from './actions.js';

/** How many recipe variants per item the search considers (best ranked first). */
const RECIPE_VARIANTS = 2;

/**
 * The goal-oriented planner's Minecraft domain, from a recipe book. Verbs it does not know (a user's own)
 * keep their declarations as they are.
 *
 * @example
 * createGoapPlanner({ registry, domain: minecraftGoapDomain(recipeBook()), limits: {} });
 */
export function minecraftGoapDomain(book: RecipeBook): GoapDomain {
  return {
    refine(verb, bound, world) {
      const item = typeof bound.item === 'string' ? bound.item : typeof bound.block === 'string' ? bound.block : undefined;
      const count = typeof bound.count === 'number' ? bound.count : 1;
      if (item === undefined) return undefined;
      switch (verb) {
        case 'craft_item':
          return craftVariants(book, item, count, world);
        case 'gather':
          return gatherVariants(book, item, count, world);
        case 'smelt_item': {
          const input = book.smeltSource(item);
          return input ? [{ args: { item, input, count } }] : [];
        }
        case 'collect_drops':
          // Picks up what lies around: never a source of an item the plan needs.
          return [];
        default:
          return undefined;
      }
    },
  };
}

function craftVariants(book: RecipeBook, item: string, count: number, world: PlannerWorld): ActionVariant[] {
  return rankRecipes(book, item, world.inventory, preferredWood(world))
    .slice(0, RECIPE_VARIANTS)
    .map((recipe) => {
      const times = Math.ceil(count / recipe.resultCount);
      const preconds: Predicate[] = Object.entries(recipe.ingredients).map(([name, n]) => pred.hasItem(name, n * times));
      if (recipe.needsTable) preconds.push(pred.nearBlock('crafting_table'));
      return { args: { item, count }, preconds, effects: [pred.gained(item, times * recipe.resultCount)] };
    });
}

function gatherVariants(book: RecipeBook, item: string, count: number, world: PlannerWorld): ActionVariant[] {
  const source = book.gatherSource(item);
  if (!source) return [];
  const tool = source.tools?.find((t) => (world.inventory[t] ?? 0) > 0) ?? source.tool;
  return [
    {
      args: { block: source.block, count },
      preconds: tool ? [pred.hasItem(tool)] : [],
      effects: [pred.gained(item, count)],
      ...(tool ? { keeps: [tool] } : {}),
    },
  ];
}
