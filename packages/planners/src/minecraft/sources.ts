// Where an item comes from in a world, written once for every Minecraft planner (HTN methods, repair, the
// goal-oriented domain): what the world holds is data (`WorldSources`), what a block or mob gives is
// minecraft-data's loot tables, which tool a block needs is its `harvestTools`, furnaces and recipes are the
// recipe book's. Only the world lists and the verb each source takes are written here.
import type { PlannerWorld } from '../contract.js';
import type { RecipeBook } from './recipes.js';
import { SMELTING } from './smelting.js';

/** What a world holds that a body can take items from. A block entry `*_log` is every block with that suffix. */
export interface WorldSources {
  /** Blocks at the surface (or wherever `gather` finds them), dug for their loot. */
  readonly blocks: readonly string[];
  /** Blocks found below ground (ores): `mine` goes for them when the body has it, else `gather`. */
  readonly underground?: readonly string[];
  /** Mobs living in it, hunted for their loot or sheared. */
  readonly mobs?: readonly string[];
  /** Blocks under every spot (stone, dirt): `gather` finds them from anywhere, so nobody explores for them. */
  readonly everywhere?: readonly string[];
  /**
   * Underground blocks a hundred stairs or more below the surface (deepslate levels): a craft that needs them is made
   * down there, with a table carried along, rather than after the climb back (~3 minutes from y −50).
   */
  readonly deep?: readonly string[];
  /**
   * Fluids whose source blocks `fill_bucket` takes into an empty bucket (`water` → `water_bucket`): at the surface
   * (`'water'`), or only deep down (`{ fluid: 'lava', depth: -53 }`: `mine` stairs down to that feet y first).
   */
  readonly fluids?: readonly (Fluid | DeepFluid)[];
}

/** A fluid a bucket can take from its source block. */
export type Fluid = 'water' | 'lava';

/** A fluid found only below ground: its pools lie at the feet y `depth` or just under it. */
export interface DeepFluid {
  readonly fluid: Fluid;
  readonly depth: number;
}

/**
 * The placed worlds (superflat, the tech-tree world): trees of any wood, stone, the placed ore outcrops, dirt and
 * sand — what `gather` has always been planned against; no animals.
 */
export const PLACED_WORLD: WorldSources = {
  blocks: ['*_log', '*_stem', 'stone', 'deepslate', 'coal_ore', 'iron_ore', 'copper_ore', 'gold_ore', 'diamond_ore', 'dirt', 'sand', 'gravel', 'clay'],
};

/**
 * A generated overworld (the testkit's `terrain` generator): three woods, flowers, stone over deepslate, ores at depth,
 * animals. Every block the generator writes that drops an item is listed (a test reads its `TERRAIN_BLOCKS`).
 */
export const OVERWORLD: WorldSources = {
  blocks: [
    'oak_log', 'birch_log', 'spruce_log', 'dirt', 'grass_block', 'sand', 'gravel', 'clay', 'sugar_cane',
    'dandelion', 'poppy', 'cornflower', 'oxeye_daisy', 'azure_bluet',
  ],
  // Stone lies under every spot but seldom bare (walking does not dig): a body with `mine` stairs down to it.
  underground: [
    'stone', 'deepslate', 'coal_ore', 'iron_ore', 'copper_ore', 'gold_ore', 'redstone_ore', 'lapis_ore', 'diamond_ore', 'emerald_ore',
    'deepslate_coal_ore', 'deepslate_iron_ore', 'deepslate_copper_ore', 'deepslate_gold_ore', 'deepslate_redstone_ore', 'deepslate_lapis_ore', 'deepslate_diamond_ore',
  ],
  mobs: ['sheep', 'cow', 'pig', 'chicken'],
  everywhere: ['stone', 'dirt', 'grass_block'],
  deep: ['diamond_ore', 'redstone_ore', 'deepslate_*_ore'],
  // Lakes and rivers at sea level; lava fills the caves up to y −55, under air: a mine to feet y −53 stands a block
  // above its pools (most seeds have one within 40 blocks of any spot down there).
  fluids: ['water', { fluid: 'lava', depth: -53 }],
};

/** The verbs a body has always had for items (the standard set before explore, mine, shear and hunt). */
export const ITEM_VERBS: readonly string[] = ['gather', 'craft_item', 'smelt_item'];

/** One way to get an item: the verb that gets it and what that verb is given. */
export type ItemSource =
  | { readonly verb: 'gather'; readonly block: string; readonly tools: readonly string[] }
  | { readonly verb: 'mine'; readonly block: string; readonly tools: readonly string[] }
  | { readonly verb: 'hunt'; readonly mob: string }
  | { readonly verb: 'shear'; readonly mob: 'sheep' }
  | { readonly verb: 'fill_bucket'; readonly fluid: Fluid; readonly depth?: number; readonly tools?: readonly string[] }
  | { readonly verb: 'smelt_item'; readonly input: string }
  | { readonly verb: 'craft_item' };

/** The world a planner plans in and the verbs its body has (defaults: `PLACED_WORLD`, `ITEM_VERBS`). */
export interface SourceContext {
  readonly world: WorldSources;
  readonly verbs: ReadonlySet<string>;
  /** Whether some chain of sources gives the item from an empty inventory (memoised per context and book). */
  readonly sourced: (book: RecipeBook, item: string) => boolean;
}

/** A source context from options, with the defaults that keep every plan of the placed worlds as it was. */
export function sourceContext(options: { readonly world?: WorldSources; readonly verbs?: readonly string[] } = {}): SourceContext {
  const memo = new Map<string, boolean>();
  const context: SourceContext = {
    world: options.world ?? PLACED_WORLD,
    verbs: new Set(options.verbs ?? ITEM_VERBS),
    sourced(book, item) {
      const key = `${book.version}:${item}`;
      if (!memo.has(key)) memo.set(key, missingSource(book, item, context) === undefined);
      return memo.get(key)!;
    },
  };
  return context;
}

const listed = (names: readonly string[] | undefined, block: string): boolean =>
  (names ?? []).some((name) => name === block || wildcard(name, block));
/** `*_log` matches by suffix, `deepslate_*_ore` by prefix and suffix. */
function wildcard(name: string, block: string): boolean {
  const star = name.indexOf('*');
  return star >= 0 && block.length >= name.length - 1 && block.startsWith(name.slice(0, star)) && block.endsWith(name.slice(star + 1));
}

/** Whether the item is mined from a block the world lists as deep (`WorldSources.deep`). */
export function minedDeep(book: RecipeBook, item: string, context: SourceContext): boolean {
  const source = itemSources(book, item, context)[0];
  return source?.verb === 'mine' && listed(context.world.deep, source.block);
}

/** The block of `world` that drops `item` when dug (the one named like the item first), surface before underground. */
export function gatherBlock(book: RecipeBook, item: string, world: WorldSources): string | undefined {
  const blocks = book.blocksDropping(item);
  const first = (names: readonly string[] | undefined) => {
    const found = blocks.filter((block) => listed(names, block));
    // The block named like the item, else the first the world lists (iron_ore before deepslate_iron_ore).
    const rank = (block: string) => (block === item ? -1 : (names ?? []).findIndex((name) => listed([name], block)));
    return found.sort((a, b) => rank(a) - rank(b))[0];
  };
  return first(world.blocks) ?? first(world.underground);
}

/** Every way to get an item in a world with a body's verbs, in the order a player would try them. */
export function itemSources(book: RecipeBook, item: string, context: SourceContext): ItemSource[] {
  const sources: ItemSource[] = [];
  const { world, verbs } = context;
  const block = gatherBlock(book, item, world);
  if (block) {
    const deep = !listed(world.blocks, block) && verbs.has('mine');
    sources.push({ verb: deep ? 'mine' : 'gather', block, tools: book.harvestTools(block) });
  }
  if (verbs.has('hunt')) for (const mob of book.mobsDropping(item).filter((m) => listed(world.mobs, m))) sources.push({ verb: 'hunt', mob });
  // Shearing is no loot table: a sheep gives its wool (in its colour) to shears.
  if (verbs.has('shear') && item.endsWith('_wool') && listed(world.mobs, 'sheep')) sources.push({ verb: 'shear', mob: 'sheep' });
  // A filled bucket is an empty one dipped into a source block, no loot table.
  // Deep down only with `mine` to get there, and a pickaxe for the stairs (deepslate's tools).
  if (verbs.has('fill_bucket')) {
    for (const entry of world.fluids ?? []) {
      const { fluid, depth } = typeof entry === 'string' ? { fluid: entry, depth: undefined } : entry;
      if (item !== `${fluid}_bucket`) continue;
      if (depth === undefined) sources.push({ verb: 'fill_bucket', fluid });
      else if (verbs.has('mine')) sources.push({ verb: 'fill_bucket', fluid, depth, tools: book.harvestTools('deepslate') });
    }
  }
  const input = SMELTING[item];
  if (input && verbs.has('smelt_item')) sources.push({ verb: 'smelt_item', input });
  if (book.recipes(item).length > 0 && verbs.has('craft_item')) sources.push({ verb: 'craft_item' });
  return sources;
}

/** Whether the body should look for a block before gathering it: it can explore, none is in view and the world does not have it everywhere. */
export function mustExplore(world: Pick<PlannerWorld, 'blocks'>, block: string, context: SourceContext): boolean {
  return context.verbs.has('explore') && !listed(context.world.everywhere, block) && !Object.values(world.blocks).includes(block);
}

/**
 * The item, on the way to `item`, that no source in the world gives (`item` itself, or a raw material under a
 * recipe), or undefined when some chain bottoms out in sources everywhere. Held items count as sourced; an
 * item only reachable through itself (emerald ↔ emerald_block) is not. A least fixpoint: no search, no loop.
 */
export function missingSource(book: RecipeBook, item: string, context: SourceContext, held: Readonly<Record<string, number>> = {}): SourceGap | undefined {
  const ways = new Map<string, string[][]>();
  const pending = [item];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (ways.has(next)) continue;
    const alternatives = (held[next] ?? 0) > 0 ? [[]] : itemSources(book, next, context).flatMap((source) => alternativesOf(book, next, source));
    ways.set(next, alternatives);
    for (const alternative of alternatives) pending.push(...alternative);
  }
  const sourced = new Set<string>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, alternatives] of ways) {
      if (sourced.has(name) || !alternatives.some((needs) => needs.every((need) => sourced.has(need)))) continue;
      sourced.add(name);
      changed = true;
    }
  }
  // Down the first way of each unsourced item to the first one that has none (or comes back on itself).
  if (sourced.has(item)) return undefined;
  const chain = [item];
  for (;;) {
    const need = ways.get(chain.at(-1)!)?.[0]?.find((name) => !sourced.has(name));
    if (need === undefined || chain.includes(need)) return { item: chain.at(-1)!, chain };
    chain.push(need);
  }
}

/** An item no source gives, and the chain from the wanted item down to it (`book ← leather ← rabbit_hide`). */
export interface SourceGap {
  readonly item: string;
  readonly chain: readonly string[];
}

/** What a source needs, as alternatives each needed whole: any tool of the tier, any recipe's ingredients, the furnace input. */
function alternativesOf(book: RecipeBook, item: string, source: ItemSource): string[][] {
  switch (source.verb) {
    case 'gather':
    case 'mine':
      return source.tools.length ? source.tools.map((tool) => [tool]) : [[]];
    case 'shear':
      return [['shears']];
    case 'fill_bucket':
      return source.tools?.length ? source.tools.map((tool) => ['bucket', tool]) : [['bucket']];
    case 'smelt_item':
      return [[source.input]];
    case 'craft_item':
      return book.recipes(item).map((recipe) => Object.keys(recipe.ingredients).sort());
    default:
      return [[]];
  }
}
