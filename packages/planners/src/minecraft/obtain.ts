// The obtaining methods that read the world's item sources: which verb gets an item here and what must come first
// (the harvest tool, an explore when the target is not in view). Shared by the HTN library's obtain methods.
import type { HtnMethod, HtnTask } from '../htn/htn.js';
import type { PlannerWorld } from '../contract.js';
import type { RecipeBook } from './recipes.js';
import { itemSources, mustExplore, type ItemSource, type SourceContext } from './sources.js';
import { count } from './state.js';

type Args = Readonly<Record<string, unknown>>;
/** The task's item arg. */
export const item = (args: Args): string => String(args.item);
/** The task's count arg (default 1). */
export const want = (args: Args): number => (typeof args.count === 'number' ? args.count : 1);

/**
 * How many more of the item the task needs. Every obtaining method checks it itself: memory may try
 * them in any order, so none may rely on `obtain.held` having been tried first (a count-0 step).
 */
export const missing = (state: PlannerWorld, args: Args): number => want(args) - count(state, item(args));

/** The source of `verb` for the task's item in this world, when it has one and more is missing. */
export function sourceFor<V extends ItemSource['verb']>(book: RecipeBook, context: SourceContext, verb: V, state: PlannerWorld, args: Args) {
  if (missing(state, args) < 1) return undefined;
  return itemSources(book, item(args), context).find((source): source is Extract<ItemSource, { verb: V }> => source.verb === verb);
}

/** Get and hold the weakest of the block's harvest tools, unless a stronger one is held: the subtasks before digging. */
export function toolFirst(state: PlannerWorld, tools: readonly string[]): HtnTask[] {
  const tool = [...tools].reverse().find((name) => count(state, name) > 0) ?? tools[0];
  if (!tool) return [];
  return [{ task: 'obtain', args: { item: tool, count: 1 } }, ...(state.heldItem === tool ? [] : [{ task: 'equip', args: { item: tool, destination: 'hand' } }])];
}

/** The tasks that pass the test, and those that do not. */
function partition(tasks: readonly HtnTask[], test: (task: HtnTask) => boolean): [HtnTask[], HtnTask[]] {
  return [tasks.filter(test), tasks.filter((task) => !test(task))];
}

/**
 * How far a planned search may go. The spiral searches nearest ground first, so a wide bound only matters when the
 * near ground has none (sugar cane grows by water only; 64 blocks held none on seed 26); its time budget bounds it.
 */
export const EXPLORE_RADIUS = 256;

/** `explore` towards a target first when the body can and it is not in view (a mob never is: the snapshot has none). */
export function exploreFirst(state: PlannerWorld, context: SourceContext, target: { block: string } | { mob: string }): HtnTask[] {
  const needed = 'mob' in target ? context.verbs.has('explore') : mustExplore(state, target.block, context);
  return needed ? [{ task: 'explore', args: { target, maxRadius: EXPLORE_RADIUS } }] : [];
}

/**
 * The obtaining methods for the verbs only a body with explore, mine, hunt, shear and fill_bucket has (the testkit's generated
 * worlds); absent otherwise, so a planner never emits a verb its registry lacks.
 */
export function wildMethods(book: RecipeBook, context: SourceContext): HtnMethod<PlannerWorld>[] {
  const methods: HtnMethod<PlannerWorld>[] = [];
  if (context.verbs.has('mine')) {
    methods.push({
      name: 'obtain.deep',
      task: 'obtain',
      description: 'mine an ore below ground with the right pickaxe tier (the mine capability digs down, and back up unless the craft is made down there)',
      expand(state, args) {
        const source = sourceFor(book, context, 'mine', state, args);
        if (!source) return undefined;
        // What is mined is crafted or smelted at the table and furnace up there (the plan placed them where it stood,
        // and there are no logs below to make new ones): back up the stairs after — unless the craft that wants it
        // is made down there (`atDepth`, see craftAtDepth): then a table is carried, got after the pickaxe (whose
        // own crafts would place a table held before it).
        const [getTool = [], equip = []] = partition(toolFirst(state, source.tools), (task) => task.task === 'obtain');
        const carry = args.atDepth === true ? [{ task: 'obtain', args: { item: 'crafting_table', count: 1 } }] : [];
        // The count held in all, not gained: the mines before this one dug through stone and ores on their way (seeds
        // 4 and 9 held 35 cobblestone when the plan went for the furnace's 8), which the simulated world never counts.
        const mined = { target: { ore: source.block }, count: want(args), counting: 'held', returnToSurface: args.atDepth !== true };
        return [...getTool, ...carry, ...equip, { task: 'mine', args: mined }];
      },
    });
  }
  if (context.verbs.has('hunt')) {
    methods.push({
      name: 'obtain.hunt',
      task: 'obtain',
      description: 'hunt an animal whose drops give it (beef, leather, feathers), finding one first',
      expand(state, args) {
        const source = sourceFor(book, context, 'hunt', state, args);
        return source && [...exploreFirst(state, context, { mob: source.mob }), { task: 'hunt', args: { animal: source.mob, count: missing(state, args) } }];
      },
    });
  }
  if (context.verbs.has('shear')) {
    methods.push({
      name: 'obtain.shear',
      task: 'obtain',
      description: 'shear sheep for wool: shears first, then find a sheep',
      expand(state, args) {
        const source = sourceFor(book, context, 'shear', state, args);
        return source && [{ task: 'obtain', args: { item: 'shears', count: 1 } }, ...exploreFirst(state, context, { mob: 'sheep' }), { task: 'shear', args: { animal: 'sheep', count: missing(state, args) } }];
      },
    });
  }
  if (context.verbs.has('fill_bucket')) {
    methods.push({
      name: 'obtain.fill',
      task: 'obtain',
      description: 'fill empty buckets at a fluid source: the buckets first, then find the water, or stair down to the lava',
      expand(state, args) {
        const source = sourceFor(book, context, 'fill_bucket', state, args);
        if (!source) return undefined;
        const n = missing(state, args);
        const buckets = { task: 'obtain', args: { item: 'bucket', count: n } };
        const fill = { task: 'fill_bucket', args: { fluid: source.fluid, count: n } };
        if (source.depth === undefined) return [buckets, ...exploreFirst(state, context, { block: source.fluid }), fill];
        // A fluid deep down (lava): the buckets and a pickaxe up here, then the stairs down to its pools' level; the
        // body stays down there (nothing else in the plan waits up top for a bucket of lava).
        const [getTool = [], equip = []] = partition(toolFirst(state, source.tools ?? []), (task) => task.task === 'obtain');
        const down = state.position.y > source.depth ? [{ task: 'mine', args: { target: { depth: source.depth } } }] : [];
        return [buckets, ...getTool, ...equip, ...down, fill];
      },
    });
  }
  return methods;
}
