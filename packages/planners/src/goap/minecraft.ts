// Minecraft knowledge the standard capabilities' declarations do not carry: which recipe a craft uses,
// where a raw item comes from (the world's sources: a block and its tool, an ore below ground, an animal), which
// input a furnace smelts.
import { formatPredicate, pred, type Predicate } from '@sinew/executor-contracts';
import { fuelHeld } from '../minecraft/operators.js';
import { nearestSeen } from '../minecraft/state.js';
import type { PlannerWorld } from '../contract.js';
import { preferredWood, rankRecipes, type RecipeBook } from '../minecraft/recipes.js';
import { itemSources, missingSource, mustExplore, sourceContext, type ItemSource, type SourceContext, type WorldSources } from '../minecraft/sources.js';
import type { ActionVariant, GoapDomain, GroundAction } from './actions.js';

/** How many recipe variants per item the search considers (best ranked first). */
const RECIPE_VARIANTS = 2;
/** How far one `explore` step may search (blocks from where it starts; the capability's own default). */
const EXPLORE_RADIUS = 64;

const views = new WeakMap<PlannerWorld, { readonly wood: string; readonly names: Pick<PlannerWorld, 'blocks'> }>();

/**
 * What the domain reads of a world at every node, read once per world: the wood family to craft with and the distinct
 * block names in view (a terrain snapshot holds ~1,700 blocks; a search asks hundreds of times). One search plans
 * against one world object, so the memo lives as long as it.
 */
function viewOf(world: PlannerWorld): { readonly wood: string; readonly names: Pick<PlannerWorld, 'blocks'> } {
  const known = views.get(world);
  if (known) return known;
  const distinct = [...new Set(Object.values(world.blocks))];
  const view = { wood: preferredWood(world), names: { blocks: Object.fromEntries(distinct.map((name, index) => [String(index), name])) } };
  views.set(world, view);
  return view;
}

/** Options of `minecraftGoapDomain`: the world's sources, the body's verbs, how far an explore may go. */
export interface MinecraftGoapDomainOptions {
  readonly world?: WorldSources;
  /** The body's verbs (`registry.verbs()`); explore, mine, hunt and shear are planned only when listed. */
  readonly verbs?: readonly string[];
  /** The bound of each `explore` step: its `maxRadius` (default 64). */
  readonly exploreRadius?: number;
}

/**
 * The goal-oriented planner's Minecraft domain, from a recipe book and the world's sources. Verbs it does not know
 * (a user's own) keep their declarations as they are. A goal item nothing in the world gives is `no_source`.
 *
 * @example
 * createGoapPlanner({ registry, domain: minecraftGoapDomain(recipeBook(), { verbs: registry.verbs() }), limits: {} });
 */
export function minecraftGoapDomain(book: RecipeBook, options: MinecraftGoapDomainOptions = {}): GoapDomain {
  const context = sourceContext(options);
  const maxRadius = options.exploreRadius ?? EXPLORE_RADIUS;
  return {
    refine(verb, bound, world) {
      const item = typeof bound.item === 'string' ? bound.item : typeof bound.block === 'string' ? bound.block : undefined;
      const count = typeof bound.count === 'number' ? bound.count : 1;
      if (verb === 'explore') return exploreVariants(context, bound, world, maxRadius);
      if (['mine', 'hunt', 'shear', 'fill_bucket'].includes(verb)) return []; // produce() binds them
      if (item === undefined) return undefined;
      switch (verb) {
        case 'place_block':
          return walkBackFirst(world, item) ? [] : undefined;
        case 'craft_item':
          return craftVariants(book, item, count, world, (name) => context.sourced(book, name));
        case 'gather':
          return digVariants(book, context, item, count, world, 'gather');
        case 'smelt_item': {
          const input = book.smeltSource(item);
          return input ? [smeltVariant(item, input, count, world)] : [];
        }
        case 'collect_drops':
          // Picks up what lies around: never a source of an item the plan needs.
          return [];
        default:
          return undefined;
      }
    },
    produce(wanted, world) {
      // What `hunt`/`shear` need, and `explore { target: { mob } }` declares (`seen_mob:<mob>`); the search checks explore's own declared effects.
      if (wanted.kind === 'seen_mob') return [{ verb: 'explore', variant: { args: { target: { mob: wanted.mob }, maxRadius } } }];
      if (wanted.kind === 'near_block' || wanted.kind === 'within_reach') return walks(wanted, world);
      return wanted.kind === 'has_item' && typeof wanted.item === 'string' ? wildVariants(book, context, { ...wanted, item: wanted.item }, world) : [];
    },
    commit: anyLogFirst,
    noSource(goal, world) {
      for (const predicate of goal) {
        if (predicate.kind !== 'has_item' || typeof predicate.item !== 'string') continue;
        const gap = missingSource(book, predicate.item, context, world.inventory);
        if (!gap) continue;
        const short = gap.item === predicate.item ? Math.max(1, predicate.count - (predicate.mode === 'gain' ? 0 : (world.inventory[gap.item] ?? 0))) : 1;
        return `no capability produces ${formatPredicate(pred.gained(gap.item, short))} from this world: no source of ${gap.item} in it (${gap.chain.join(' ← ')})`;
      }
      return undefined;
    },
  };
}

function craftVariants(book: RecipeBook, item: string, count: number, world: PlannerWorld, sourced: (item: string) => boolean): ActionVariant[] {
  return rankRecipes(book, item, world.inventory, viewOf(world).wood, sourced)
    .slice(0, RECIPE_VARIANTS)
    .map((recipe) => {
      const times = Math.ceil(count / recipe.resultCount);
      const preconds: Predicate[] = Object.entries(recipe.ingredients).map(([name, n]) => pred.hasItem(name, n * times));
      if (recipe.needsTable) preconds.push(pred.nearBlock('crafting_table'));
      return { args: { item, count }, preconds, effects: [pred.gained(item, times * recipe.resultCount)] };
    });
}

/** Digging an item from its block (gather at the surface, mine below), holding the weakest tool that harvests it unless a better one is held. */
function digVariants(book: RecipeBook, context: SourceContext, item: string, count: number, world: PlannerWorld, verb: 'gather' | 'mine'): ActionVariant[] {
  const source = itemSources(book, item, context).find((s): s is Extract<ItemSource, { verb: 'gather' | 'mine' }> => s.verb === verb);
  if (!source) return [];
  const tool = source.tools.find((t) => (world.inventory[t] ?? 0) > 0) ?? source.tools[0];
  // A surface block nowhere in the known world is looked for first (`explore` declares `near_block:<block>`); `mine` searches below ground itself.
  const scout = verb === 'gather' && mustExplore(viewOf(world).names, source.block, context) ? [pred.nearBlock(source.block)] : [];
  return [
    {
      args: verb === 'mine' ? { target: { ore: source.block }, count } : { block: source.block, count },
      preconds: [...(tool ? [pred.hasItem(tool)] : []), ...scout],
      effects: [pred.gained(item, count)],
      ...(tool ? { keeps: [tool] } : {}),
    },
  ];
}

/** The steps of generated worlds that make an item: mine its ore, hunt or shear an animal in view, fill a bucket. */
function wildVariants(book: RecipeBook, context: SourceContext, wanted: Extract<Predicate, { kind: 'has_item' }> & { item: string }, world: PlannerWorld): { verb: string; variant: ActionVariant }[] {
  const { item, count } = wanted;
  const found: { verb: string; variant: ActionVariant }[] = [];
  const seen = (mob: string): Predicate[] => (context.verbs.has('explore') ? [pred.seenMob(mob)] : []);
  for (const source of itemSources(book, item, context)) {
    if (source.verb === 'mine') for (const variant of digVariants(book, context, item, count, world, 'mine')) found.push({ verb: 'mine', variant });
    if (source.verb === 'hunt') found.push({ verb: 'hunt', variant: { args: { animal: source.mob, count }, preconds: seen(source.mob), effects: [wanted] } });
    if (source.verb === 'shear') {
      found.push({ verb: 'shear', variant: { args: { animal: 'sheep', count }, preconds: [pred.hasItem('shears'), ...seen('sheep')], effects: [wanted], keeps: ['shears'] } });
    }
    // The buckets are used up (filled); the water is found by the step itself, within its reach, or the step's guard says
    // none. A fluid only deep down (lava) is the HTN's: nothing here binds the stairs down to it.
    if (source.verb === 'fill_bucket' && source.depth === undefined) found.push({ verb: 'fill_bucket', variant: { args: { fluid: source.fluid, count }, preconds: [pred.hasItem('bucket', count)], effects: [wanted] } });
  }
  return found;
}

/**
 * `explore` bound from its declared `near_block:<block>`: only for a block the world's sources hold and the known
 * world lacks (never for a table or furnace the body makes), bounded by `maxRadius`.
 */
function exploreVariants(context: SourceContext, bound: Readonly<Record<string, unknown>>, world: PlannerWorld, maxRadius: number): ActionVariant[] {
  const block = (bound.target as { block?: unknown } | undefined)?.block;
  if (typeof block !== 'string' || !mustExplore(viewOf(world).names, block, context)) return [];
  const natural = [...context.world.blocks, ...(context.world.underground ?? [])].some((name) => name === block || (name.startsWith('*') && block.endsWith(name.slice(1))));
  return natural ? [{ args: { target: { block }, maxRadius } }] : [];
}

/**
 * How far (blocks) a table or furnace in view may stand for the plan to walk back to it rather than place another
 * (a second table spends the planks the pickaxe needs; a bot pushed off by a fight comes back to its table).
 * A method preference a cost search would not find: costs count seconds, not the planks a new table eats.
 */
export const WALK_BACK_DISTANCE = 24;

/** A station of this name stands in view within walking distance and none is held: walk back, place none. */
function walkBackFirst(world: PlannerWorld, block: string | undefined): boolean {
  const seen = block === undefined ? undefined : nearestSeen(world, block);
  if (!seen || (world.inventory[block!] ?? 0) > 0) return false;
  return Math.hypot(seen.x - world.position.x, seen.y - world.position.y, seen.z - world.position.z) <= WALK_BACK_DISTANCE;
}

/**
 * `navigate` for where the body must stand: to a block in view by name, to a position within reach. Its declared
 * effect (`at:<target>`) names the spot it picks, not the block, so the walk's effect is stated here.
 */
function walks(wanted: Extract<Predicate, { kind: 'near_block' | 'within_reach' }>, world: PlannerWorld): { verb: string; variant: ActionVariant }[] {
  if (wanted.kind === 'within_reach') {
    return 'placeholder' in wanted.position ? [] : [{ verb: 'navigate', variant: { args: { position: wanted.position, range: 3 }, preconds: [], effects: [wanted] } }];
  }
  if (typeof wanted.block !== 'string' || !nearestSeen(world, wanted.block)) return [];
  return [{ verb: 'navigate', variant: { args: { block: wanted.block, range: 2 }, preconds: [], effects: [wanted] } }];
}

/** smelt_item as declared (coal), or burning the fuel already held when it covers the smelts (planks), as the capability does. */
function smeltVariant(item: string, input: string, count: number, world: PlannerWorld): ActionVariant {
  const fuel = fuelHeld(world, count);
  if (!fuel) return { args: { item, input, count } };
  return { args: { item, input, count }, preconds: [pred.nearBlock('furnace'), pred.hasItem(input, count), pred.hasItem(fuel.name, fuel.count)] };
}

/**
 * With no wood in view nor held, the family that grows here is unknown until a log is in hand: the first log steps
 * (an explore and the gather after it, or the gather) take any log (`log`, a block group both accept) and the plan
 * ends there — planks of a guessed family would fail — so the caller plans again with the log held (a repair: the
 * failed step's retry asks again).
 */
function anyLogFirst(steps: readonly GroundAction[], world: PlannerWorld): readonly GroundAction[] {
  const held = Object.entries(world.inventory).some(([name, n]) => n > 0 && /_(log|planks)$/.test(name));
  if (held || Object.values(world.blocks).some(isLog)) return steps;
  const at = steps.findIndex((step) => isLog(logTarget(step)));
  if (at < 0) return steps;
  const block = logTarget(steps[at]!);
  const end = steps[at]!.verb === 'explore' && steps[at + 1]?.verb === 'gather' && logTarget(steps[at + 1]!) === block ? at + 2 : at + 1;
  return [...steps.slice(0, at), ...steps.slice(at, end).map(anyLog)];
}

/** A log step for any log. No effects: `has_item:log` names no item the executor could count; the capability's acceptance reads the group. */
function anyLog(step: GroundAction): GroundAction {
  const args = step.verb === 'explore' ? { ...step.args, target: { block: 'log' } } : { ...step.args, block: 'log' };
  return { ...step, args, preconds: step.preconds.filter((p) => p.kind !== 'near_block' || !isLog(p.block)), effects: [] };
}

const isLog = (block: unknown): boolean => typeof block === 'string' && block.endsWith('_log') && !block.startsWith('stripped_');
const logTarget = (step: GroundAction): unknown => (step.verb === 'explore' ? (step.args.target as { block?: unknown } | undefined)?.block : step.verb === 'gather' ? step.args.block : undefined);
