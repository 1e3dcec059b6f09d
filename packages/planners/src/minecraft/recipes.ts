import minecraftData from 'minecraft-data';
import type { PlannerWorld } from '../contract.js';
import { SMELTING } from './smelting.js';
import { gatherBlock, PLACED_WORLD } from './sources.js';
import { PICKAXES_BY_TIER } from './tools.js';

/** One way to craft an item, normalized from minecraft-data. */
export interface RecipeOption {
  readonly result: string;
  readonly resultCount: number;
  /** ingredient item → count per craft */
  readonly ingredients: Readonly<Record<string, number>>;
  /** true when the shape does not fit the 2×2 inventory grid */
  readonly needsTable: boolean;
}

/** A raw item and how to get it with the `gather` verb. */
export interface GatherSource {
  readonly block: string;
  /** The cheapest tool the block needs to drop the item (minecraft-data `harvestTools`). */
  readonly tool?: string;
  /** Every tool that harvests the block; absent when a hand will do. */
  readonly tools?: readonly string[];
}

/** Recipes and item names read from minecraft-data. */
export interface RecipeBook {
  readonly version: string;
  /** Every recipe variant for an item, in minecraft-data order. */
  recipes(item: string): readonly RecipeOption[];
  /** How to gather a raw item in the placed world (`PLACED_WORLD`), when it is gathered rather than crafted. */
  gatherSource(item: string): GatherSource | undefined;
  /** Blocks whose loot (without silk touch) includes the item (`raw_iron` → iron_ore, deepslate_iron_ore), from minecraft-data. */
  blocksDropping(item: string): readonly string[];
  /** Mobs whose loot includes the item (`leather` → cow), from minecraft-data. */
  mobsDropping(item: string): readonly string[];
  /** What a mob drops when killed (`cow` → leather, beef), from minecraft-data. */
  mobLoot(mob: string): readonly string[];
  /** The tools that harvest a block, weakest pickaxe first; empty when a hand will do (minecraft-data `harvestTools`). */
  harvestTools(block: string): readonly string[];
  /** The item a block drops when dug (`stone` → `cobblestone`, `iron_ore` → `raw_iron`), from minecraft-data. */
  dropOf(block: string): string;
  /** The furnace input that smelts into an item (`iron_ingot` → `raw_iron`), from the smelting table. */
  smeltSource(item: string): string | undefined;
  /** Whether `name` is an item of this version. */
  isItem(name: string): boolean;
}

interface McItem {
  readonly id: number;
  readonly name: string;
}
type McIngredient = number | null | { id: number; count?: number };
interface McRecipe {
  readonly result: { readonly id: number; readonly count: number };
  readonly inShape?: readonly (readonly McIngredient[])[];
  readonly ingredients?: readonly McIngredient[];
}
interface McBlock {
  readonly drops?: readonly (number | { readonly drop?: number | { readonly id: number } })[];
  readonly harvestTools?: Readonly<Record<string, boolean>>;
}
interface McLoot {
  readonly drops: readonly { readonly item: string; readonly silkTouch?: boolean }[];
}
interface McData {
  readonly blockLoot: Record<string, McLoot | undefined>;
  readonly entityLoot: Record<string, McLoot | undefined>;
  readonly blocksByName: Record<string, McBlock | undefined>;
  readonly itemsByName: Record<string, McItem | undefined>;
  readonly items: Record<number, McItem | undefined>;
  readonly recipes: Record<number, readonly McRecipe[] | undefined>;
}

const books = new Map<string, RecipeBook>();

const tierOf = (tool: string): number => {
  const tier = (PICKAXES_BY_TIER as readonly string[]).indexOf(tool);
  return tier < 0 ? PICKAXES_BY_TIER.length : tier;
};

/** The recipe book of a Minecraft version (default 1.20.4, the embedded server's), from minecraft-data. */
export function recipeBook(version = '1.20.4'): RecipeBook {
  const cached = books.get(version);
  if (cached) return cached;
  const data = (minecraftData as unknown as (v: string) => McData | undefined)(version);
  if (!data) throw new Error(`minecraft-data has no version ${version}`);
  const cache = new Map<string, RecipeOption[]>();
  const nameOf = (ingredient: McIngredient): string | undefined => {
    if (ingredient === null) return undefined;
    const id = typeof ingredient === 'number' ? ingredient : ingredient.id;
    return data.items[id]?.name;
  };
  const craftsFrom = (product: string, ingredient: string): boolean => {
    const productId = data.itemsByName[product]?.id;
    const ingredientId = data.itemsByName[ingredient]?.id;
    if (productId === undefined || ingredientId === undefined) return false;
    return (data.recipes[productId] ?? []).some((recipe) =>
      (recipe.inShape ? recipe.inShape.flat() : (recipe.ingredients ?? [])).some((cell) => cell !== null && (typeof cell === 'number' ? cell : cell.id) === ingredientId),
    );
  };
  const blockDrops = lootIndex(data.blockLoot);
  const mobDrops = lootIndex(data.entityLoot);
  const book: RecipeBook = {
    version,
    recipes(item) {
      const hit = cache.get(item);
      if (hit) return hit;
      const id = data.itemsByName[item]?.id;
      const options: RecipeOption[] = [];
      for (const recipe of id === undefined ? [] : (data.recipes[id] ?? [])) {
        const cells = recipe.inShape ? recipe.inShape.flat() : (recipe.ingredients ?? []);
        const ingredients: Record<string, number> = {};
        let valid = true;
        for (const cell of cells) {
          if (cell === null) continue;
          const name = nameOf(cell);
          if (!name) valid = false;
          else ingredients[name] = (ingredients[name] ?? 0) + 1;
        }
        const rows = recipe.inShape?.length ?? 0;
        const cols = Math.max(0, ...(recipe.inShape ?? []).map((row) => row.length));
        const needsTable = recipe.inShape ? rows > 2 || cols > 2 : cells.length > 4;
        // Storage blocks and nuggets craft back into the item (iron_ingot ← iron_block ← iron_ingot): unpacking one, or
        // packing what is smelted, is a loop, never a source; packing ingots into a block stays.
        const units = Object.values(ingredients).reduce((a, b) => a + b, 0);
        const loops = Object.keys(ingredients).some((name) => craftsFrom(name, item)) && (recipe.result.count > units || item in SMELTING);
        if (valid && !loops && Object.keys(ingredients).length) {
          options.push({ result: item, resultCount: recipe.result.count, ingredients, needsTable });
        }
      }
      cache.set(item, options);
      return options;
    },
    gatherSource(item) {
      const block = gatherBlock(book, item, PLACED_WORLD);
      if (!block) return undefined;
      const tools = book.harvestTools(block);
      return tools.length ? { block, tool: tools[0]!, tools } : { block };
    },
    blocksDropping: (item) => blockDrops.get(item) ?? [],
    mobsDropping: (item) => mobDrops.get(item) ?? [],
    mobLoot: (mob) => (data.entityLoot[mob]?.drops ?? []).map((drop) => drop.item),
    harvestTools(block) {
      return Object.keys(data.blocksByName[block]?.harvestTools ?? {})
        .map((id) => data.items[Number(id)]?.name)
        .filter((name): name is string => name !== undefined)
        .sort((a, b) => tierOf(a) - tierOf(b));
    },
    dropOf(block) {
      const [drop] = data.blocksByName[block]?.drops ?? [];
      const id = typeof drop === 'number' ? drop : typeof drop?.drop === 'number' ? drop.drop : drop?.drop?.id;
      return (id === undefined ? undefined : data.items[id]?.name) ?? block;
    },
    smeltSource(item) {
      return SMELTING[item];
    },
    isItem(name) {
      return data.itemsByName[name] !== undefined;
    },
  };
  books.set(version, book);
  return book;
}

/** Item → the blocks (or mobs) whose loot gives it, silk-touch drops left out, in minecraft-data order. */
function lootIndex(loot: Record<string, McLoot | undefined>): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const [source, table] of Object.entries(loot)) {
    for (const drop of table?.drops ?? []) {
      if (drop.silkTouch) continue;
      const sources = index.get(drop.item) ?? [];
      if (!sources.includes(source)) index.set(drop.item, [...sources, source]);
    }
  }
  return index;
}

/** The wood family to prefer: logs/planks already held, else the nearest log in view, else oak. */
export function preferredWood(world: Pick<PlannerWorld, 'inventory' | 'blocks' | 'position'>): string {
  const held = Object.entries(world.inventory)
    .filter(([name, count]) => count > 0 && /_(log|planks)$/.test(name))
    .sort(([a, ca], [b, cb]) => cb - ca || a.localeCompare(b));
  if (held[0]) return held[0][0].replace(/_(log|planks)$/, '');
  let best: { family: string; distance: number } | undefined;
  for (const [key, block] of Object.entries(world.blocks)) {
    if (!/_log$/.test(block) || block.startsWith('stripped_')) continue;
    const [x = 0, y = 0, z = 0] = key.split(',').map(Number);
    const distance = Math.hypot(x - world.position.x, y - world.position.y, z - world.position.z);
    const family = block.replace(/_log$/, '');
    if (!best || distance < best.distance || (distance === best.distance && family < best.family)) best = { family, distance };
  }
  return best?.family ?? 'oak';
}

/** The wood family of a wood item (`stripped_spruce_log` → `spruce`), undefined for anything else. */
export function woodFamily(item: string): string | undefined {
  const match = /^(?:stripped_)?(.+)_(?:log|wood|planks|stem|hyphae)$/.exec(item);
  return match?.[1];
}

/**
 * Recipe variants ranked for a state: most ingredient units already held first, then the preferred
 * wood family, then minecraft-data order. Variants needing an ingredient that is neither held nor
 * `sourced` (default: gathered, smelted or crafted in the placed world) are dropped, and so are variants of a wood family with no evidence (neither
 * `wood` nor held) whenever another variant needs none: a second-best recipe must not mean spruce
 * planks in an oak forest.
 */
export function rankRecipes(
  book: RecipeBook,
  item: string,
  inventory: Readonly<Record<string, number>>,
  wood: string,
  sourced: (item: string) => boolean = (name) => book.gatherSource(name) !== undefined || book.smeltSource(name) !== undefined || book.recipes(name).length > 0,
): RecipeOption[] {
  const evidenced = new Set([wood, ...Object.keys(inventory).filter((name) => (inventory[name] ?? 0) > 0).map(woodFamily)]);
  const ranked = book
    .recipes(item)
    .map((option, index) => {
      const entries = Object.entries(option.ingredients);
      const held = entries.reduce((sum, [name, n]) => sum + Math.min(n, inventory[name] ?? 0), 0);
      const reachable = entries.every(([name]) => (inventory[name] ?? 0) > 0 || sourced(name));
      const foreign = entries.some(([name]) => !evidenced.has(woodFamily(name) ?? wood));
      const family = entries.some(([name]) => name.startsWith(`${wood}_`)) ? 1 : 0;
      const stripped = entries.some(([name]) => name.startsWith('stripped_') || name.endsWith('_wood')) ? 1 : 0;
      return { option, index, held, reachable, foreign, family, stripped };
    })
    .filter((r) => r.reachable)
    .sort((a, b) => b.held - a.held || b.family - a.family || a.stripped - b.stripped || a.index - b.index);
  const grounded = ranked.filter((r) => !r.foreign);
  return (grounded.length ? grounded : ranked)
    .map((r) => r.option);
}
