import { formatPredicate, parsePredicate, pred, type CapabilityRegistry, type Predicate, type PlanStep, type RepairRequest, type RepairResponse, type Vec3 } from '@sinew/executor-contracts';
import { WALK_BACK_DISTANCE } from '../goap/minecraft.js';
import { goapSubgoals } from '../goap/subgoals.js';
import type { PlannerWorld } from '../contract.js';
import { preferredWood, rankRecipes, recipeBook, type RecipeBook } from './recipes.js';
import { applySmelt, fuelHeld } from './operators.js';
import { SMELT_FUEL } from './smelting.js';
import { itemSources, sourceContext, type WorldSources } from './sources.js';
import { add, applyCraft, blockNear, count, heldTool, ingredientOrder, nearestSeen, placeSpot } from './state.js';

/** Options of the Minecraft precondition repair. */
export interface MinecraftRepairOptions {
  /** Regression depth bound (default 12: iron_ingot ← raw_iron ← stone_pickaxe ← cobblestone ← wooden_pickaxe ← stick ← planks ← logs is 8). */
  readonly maxDepth?: number;
  readonly book?: RecipeBook;
  /** What the world holds to take items from (default `PLACED_WORLD`). */
  readonly world?: WorldSources;
  /** The body's verbs: mine, hunt and shear are used only when listed (default `ITEM_VERBS`). */
  readonly verbs?: readonly string[];
  /**
   * The capabilities whose declared preconditions and effects the repair plans over (the goal-oriented planner:
   * `createStandardRegistry()` plus your own). Without one, the recipe regression written here plans instead.
   */
  readonly registry?: CapabilityRegistry<unknown>;
}

/** A repair that could not be built, with the chain that failed. */
export interface RepairGap {
  readonly code: 'depth_exceeded' | 'cycle' | 'unobtainable' | 'unknown_predicate';
  readonly reason: string;
}

/** Subgoal steps that satisfy a missing predicate, or the gap that cannot be filled. */
export type SubgoalResult = { readonly ok: true; readonly steps: readonly Omit<PlanStep, 'stepId'>[] } | { readonly ok: false; readonly gap: RepairGap };

type Draft = Omit<PlanStep, 'stepId'>;
/** Blocks the repair builds and places when one is missing, the way a player would. */
type Station = 'crafting_table' | 'furnace';
const distance = (a: Vec3, b: Vec3): number => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);

/**
 * Precondition repair (FM-02): the subgoal steps that make every missing predicate hold. Given `options.registry`,
 * the goal-oriented planner plans them from the capabilities' declared preconditions and effects (with the recipe
 * book and the world's sources as its domain); without one, the recipe regression below (bounded depth, cycles
 * refused) plans them. Either way, with no wood in view nor held, the first log step takes any log.
 *
 * @example
 * subgoalsFor(['has_item:stick:2'], world, { registry }) // → gather oak_log, craft oak_planks, craft stick
 */
export function subgoalsFor(missing: readonly string[], world: PlannerWorld, options: MinecraftRepairOptions = {}): SubgoalResult {
  const result = options.registry ? goapSubgoals(missing, world, options.registry, options) : recipeRegression(missing, world, options);
  return result.ok ? { ok: true, steps: anyLogFirst(result.steps, world) } : result;
}

/**
 * With no wood in view nor held, the family that grows here is unknown until a log is in hand: the first log step
 * (explore, gather) takes any log (`log`, a block group both accept) and the repair ends there; the failed step's
 * retry asks again, and the next repair plans planks of the log now held.
 */
function anyLogFirst(steps: readonly Draft[], world: PlannerWorld): readonly Draft[] {
  if (Object.entries(world.inventory).some(([name, n]) => n > 0 && /_(log|planks)$/.test(name)) || Object.values(world.blocks).some(isLog)) return steps;
  const at = steps.findIndex((step) => isLog(logTarget(step)));
  if (at < 0) return steps;
  const step = steps[at]!;
  const args = step.type === 'explore' ? { ...step.args, target: { block: 'log' } } : { ...step.args, block: 'log' };
  // No effects: `has_item:log` names no item the executor could count; the capability's acceptance reads the group.
  return [...steps.slice(0, at), { type: step.type, args, ...(step.expectedDurationMs !== undefined ? { expectedDurationMs: step.expectedDurationMs } : {}) }];
}

const isLog = (block: unknown): boolean => typeof block === 'string' && block.endsWith('_log') && !block.startsWith('stripped_');
const logTarget = (step: Draft): unknown => (step.type === 'explore' ? (step.args.target as { block?: unknown } | undefined)?.block : step.type === 'gather' ? step.args.block : undefined);

/** The recipe regression written by hand: the repair of a caller with no registry (the HTN until it is given one). */
function recipeRegression(missing: readonly string[], world: PlannerWorld, options: MinecraftRepairOptions): SubgoalResult {
  const first = regress(missing, world, options, new Map());
  if (!first.ok) return first;
  // Second pass: gather each raw item's total demand in one trip instead of one trip per recipe.
  const totals = new Map<string, number>();
  for (const step of first.steps) {
    if (step.type !== 'gather') continue;
    const { block, count: n } = step.args as { block: string; count: number };
    totals.set(block, (totals.get(block) ?? 0) + n);
  }
  const second = regress(missing, world, options, totals);
  return second.ok && second.steps.length <= first.steps.length ? second : first;
}

function regress(
  missing: readonly string[],
  world: PlannerWorld,
  options: MinecraftRepairOptions,
  gatherTotals: ReadonlyMap<string, number>,
): SubgoalResult {
  const gathered = new Map<string, number>();
  const book = options.book ?? recipeBook();
  const context = sourceContext(options);
  const sourced = (name: string) => context.sourced(book, name);
  const maxDepth = options.maxDepth ?? 12;
  const state: PlannerWorld = structuredClone(world);
  const wood = preferredWood(world);
  const steps: Draft[] = [];
  let gap: RepairGap | undefined;
  const fail = (code: RepairGap['code'], reason: string): false => {
    gap ??= { code, reason };
    return false;
  };

  /** A crafting table or furnace within reach: one already near, else one held or crafted, placed next to the bot. */
  const achieveStation = (block: Station, depth: number, chain: readonly string[]): boolean => {
    if (blockNear(state, block)) return true;
    // One stands farther off in view and none is held: walk back to it rather than build another — always when
    // none can be made from what is held, and within WALK_BACK_DISTANCE even when one could (a second table
    // spends the planks the pickaxe needs; a bot pushed off by a fight comes back to its table).
    const seen = nearestSeen(state, block);
    if (seen && count(state, block) < 1 && (distance(state.position, seen) <= WALK_BACK_DISTANCE || !craftableNow(block))) {
      steps.push({ type: 'navigate', args: { block, range: 2 }, effects: [formatPredicate(pred.nearBlock(block))] });
      state.position = { ...seen };
      return true;
    }
    if (count(state, block) < 1 && !achieveItem(block, 1, depth + 1, chain)) return false;
    steps.push({ type: 'place_block', args: { item: block }, effects: [formatPredicate(pred.nearBlock(block))] });
    add(state, block, -1);
    state.blocks[placeSpot(state)] = block;
    return true;
  };

  const craftableNow = (item: string): boolean =>
    rankRecipes(book, item, state.inventory, wood, sourced).some((option) => Object.entries(option.ingredients).every(([name, n]) => count(state, name) >= n));

  /** Smelts `deficit` more of an item: its input, fuel (coal unless enough is held), a furnace, then smelt_item. */
  const achieveSmelt = (item: string, input: string, deficit: number, depth: number, path: readonly string[]): boolean => {
    if (!achieveItem(input, deficit, depth + 1, path)) return false;
    if (!fuelHeld(state, deficit) && !achieveItem(SMELT_FUEL, Math.ceil(deficit / 8), depth + 1, path)) return false;
    if (!achieveStation('furnace', depth, path)) return false;
    const args = { item, input, count: deficit };
    if (!applySmelt(book, state, args)) return fail('unobtainable', `could not smelt ${deficit} ${item} from ${input} (${path.join(' ← ')})`);
    steps.push({ type: 'smelt_item', args, effects: [formatPredicate(pred.gained(item, deficit))] });
    return true;
  };

  const achieveItem = (item: string, need: number, depth: number, chain: readonly string[]): boolean => {
    if (count(state, item) >= need) return true;
    if (chain.includes(item)) return fail('cycle', `cycle: ${[...chain, item].join(' ← ')}`);
    if (depth > maxDepth) return fail('depth_exceeded', `depth ${maxDepth} exceeded at ${[...chain, item].join(' ← ')}`);
    const deficit = need - count(state, item);
    const path = [...chain, item];
    const sources = itemSources(book, item, context);
    const source = sources.find((s) => s.verb === 'gather' || s.verb === 'mine');
    if (source && 'block' in source) {
      if (source.tools.length && !heldTool(state, source)) {
        if (!achieveItem(source.tools[0]!, 1, depth + 1, path)) return false;
      }
      const tool = heldTool(state, source);
      if (tool && state.heldItem !== tool) {
        steps.push({ type: 'equip', args: { item: tool, destination: 'hand' } });
        state.heldItem = tool;
      }
      const amount = Math.max(deficit, (gatherTotals.get(source.block) ?? 0) - (gathered.get(source.block) ?? 0));
      gathered.set(source.block, (gathered.get(source.block) ?? 0) + amount);
      const args = source.verb === 'mine' ? { target: { ore: source.block }, count: amount } : { block: source.block, count: amount };
      steps.push({ type: source.verb, args, effects: [formatPredicate(pred.hasItem(item, count(state, item) + amount))] });
      add(state, item, amount);
      return true;
    }
    const animal = sources.find((s) => s.verb === 'hunt');
    if (animal && 'mob' in animal) {
      if (context.verbs.has('explore')) steps.push({ type: 'explore', args: { target: { mob: animal.mob } } });
      steps.push({ type: 'hunt', args: { animal: animal.mob, count: deficit }, effects: [formatPredicate(pred.gained(item, deficit))] });
      for (const drop of book.mobLoot(animal.mob)) add(state, drop, deficit);
      return true;
    }
    // Smelting before crafting: what a furnace makes has no honest crafting recipe (ingots only from blocks or nuggets).
    const smelt = sources.find((s) => s.verb === 'smelt_item');
    if (smelt && 'input' in smelt) return achieveSmelt(item, smelt.input, deficit, depth, path);
    const options = rankRecipes(book, item, state.inventory, wood, sourced);
    if (!options.length) return fail('unobtainable', `no recipe or gather source for ${item} (${path.join(' ← ')})`);
    for (const option of options) {
      const mark = { steps: steps.length, state: structuredClone(state) };
      const crafts = Math.ceil(deficit / option.resultCount);
      // The table first: crafting it would otherwise eat planks meant for this recipe.
      if (option.needsTable && !achieveStation('crafting_table', depth, path)) {
        steps.length = mark.steps;
        Object.assign(state, mark.state);
        continue;
      }
      // Re-check after each pass: making one ingredient may consume another (sticks eat planks).
      let satisfied = false;
      for (let pass = 0; pass < 3 && !satisfied; pass += 1) {
        let ok = true;
        for (const ingredient of ingredientOrder(book, option)) {
          if (!achieveItem(ingredient, option.ingredients[ingredient]! * crafts, depth + 1, path)) {
            ok = false;
            break;
          }
        }
        if (!ok) break;
        satisfied = Object.entries(option.ingredients).every(([name, n]) => count(state, name) >= n * crafts);
      }
      if (satisfied && applyCraft(state, option, crafts)) {
        steps.push({ type: 'craft_item', args: { item, count: deficit }, effects: [formatPredicate(pred.hasItem(item, need))] });
        return true;
      }
      steps.length = mark.steps;
      Object.assign(state, mark.state);
    }
    return fail('unobtainable', `no recipe for ${item} could be satisfied (${path.join(' ← ')})`);
  };

  const achieve = (goal: Goal): boolean => {
    switch (goal.kind) {
      case 'item':
        return achieveItem(goal.item, goal.need, 0, []);
      case 'block':
        if (goal.block === 'crafting_table' || goal.block === 'furnace') return achieveStation(goal.block, 0, []);
        if (blockNear(state, goal.block)) return true;
        steps.push({ type: 'navigate', args: { block: goal.block, range: 3 } });
        state.blocks[placeSpot(state)] = goal.block;
        return true;
      case 'reach': {
        const { x, y, z } = goal.position;
        if (Math.hypot(x - state.position.x, y - state.position.y, z - state.position.z) <= 3) return true;
        steps.push({ type: 'navigate', args: { position: goal.position, range: 3 } });
        state.position = { ...goal.position };
        return true;
      }
    }
  };

  const goals: Goal[] = [];
  for (const text of missing) {
    const result = parsePredicate(text);
    if (!result.ok) return { ok: false, gap: { code: 'unknown_predicate', reason: result.reason } };
    const goal = goalOf(result.predicate, state);
    if (typeof goal === 'string') return { ok: false, gap: { code: 'unobtainable', reason: goal } };
    goals.push(goal);
  }
  // Tables first (crafting one eats planks), then items, then reach (walk last, right before the retry).
  const rank = { block: 0, item: 1, reach: 2 } as const;
  goals.sort((a, b) => rank[a.kind] - rank[b.kind]);
  // Making one missing item may consume another (sticks eat planks): repeat until all hold, bounded.
  for (let pass = 0; pass < 3; pass += 1) {
    for (const goal of goals) {
      if (!achieve(goal)) return { ok: false, gap: gap ?? { code: 'unobtainable', reason: `cannot satisfy ${formatPredicate(goal.predicate)}` } };
    }
    if (goals.every((g) => g.kind !== 'item' || count(state, g.item) >= g.need)) return { ok: true, steps };
  }
  return { ok: false, gap: { code: 'unobtainable', reason: `could not hold ${missing.join(', ')} at once` } };
}

/**
 * The planner-side answer to the executor's repair hook for Minecraft:
 * - on `precond_missing`, subgoal steps that satisfy the missing predicates, run before the failed step is retried;
 * - on `effects_unmet` where every unmet effect is where the bot stands (`near_block`, `within_reach`), a walk
 *   back that replaces the step: its work is done (its own acceptance passed) and the bot was moved away before
 *   the plan's effect was observed (a preempting flee, a knock-back). Redoing the work would spend items twice.
 */
export function minecraftRepair(options: MinecraftRepairOptions = {}): (request: RepairRequest, world: PlannerWorld) => RepairResponse | undefined {
  return (request, world) => {
    const { failure, step } = request;
    const number = (drafts: readonly Draft[]) => drafts.map((draft, index) => ({ ...draft, stepId: `${step.stepId}.r${request.repairsSoFar + 1}.${index + 1}` }));
    const walk = failure.code === 'effects_unmet' ? walkBack(failure.unmet ?? []) : undefined;
    if (walk) return { steps: number(walk), replace: true, reason: `${step.type} done but ${failure.unmet!.join(', ')} not observed → ${walk.map(describe).join(', ')} instead of redoing it` };
    if (failure.code !== 'precond_missing') {
      const search = searchFirst(step, options.verbs);
      return search && { steps: number(search), reason: `${step.type} ended ${failure.code} (none it could reach) → ${search.map(describe).join(', ')}, then gather again` };
    }
    if (!failure.missing?.length) return undefined;
    const result = subgoalsFor(failure.missing, world, options);
    if (!result.ok || !result.steps.length) return undefined;
    return {
      steps: number(result.steps),
      reason: `${step.type} missing ${failure.missing.join(', ')} → ${result.steps.map(describe).join(', ')}`,
    };
  };
}

/**
 * A gather that found none of its block it could reach (its own search is four short walks): a body with `explore`
 * searches further for the block first (a spiral that remembers the ground it saw), then the gather runs again.
 */
function searchFirst(step: PlanStep, verbs: readonly string[] | undefined): Draft[] | undefined {
  const block = (step.args as { block?: unknown }).block;
  if (step.type !== 'gather' || typeof block !== 'string' || !verbs?.includes('explore')) return undefined;
  return [{ type: 'explore', args: { target: { block } } }];
}

/**
 * The walk that makes positional effects hold again, or undefined when any unmet effect is not positional.
 * A block is walked to by name (navigate searches for it), so it need not be in the planner's snapshot.
 */
function walkBack(unmet: readonly string[]): Draft[] | undefined {
  if (!unmet.length) return undefined;
  const steps: Draft[] = [];
  for (const text of unmet) {
    const parsed = parsePredicate(text);
    if (!parsed.ok) return undefined;
    const predicate = parsed.predicate;
    if (predicate.kind === 'near_block') {
      steps.push({ type: 'navigate', args: { block: predicate.block, range: 2 }, effects: [formatPredicate(predicate)] });
    } else if (predicate.kind === 'within_reach' && !('placeholder' in predicate.position)) {
      steps.push({ type: 'navigate', args: { position: predicate.position, range: 3 }, effects: [formatPredicate(predicate)] });
    } else return undefined;
  }
  return steps;
}

/** What regression can work towards; every other predicate kind has no subgoal. */
type Goal =
  | { readonly kind: 'item'; readonly item: string; readonly need: number; readonly predicate: Predicate }
  | { readonly kind: 'block'; readonly block: string; readonly predicate: Predicate }
  | { readonly kind: 'reach'; readonly position: { x: number; y: number; z: number }; readonly predicate: Predicate };

/** The goal of a predicate (a gain counts from the world before the repair), or why there is none. */
function goalOf(predicate: Predicate, world: PlannerWorld): Goal | string {
  const text = formatPredicate(predicate);
  if (predicate.kind === 'has_item') {
    if (typeof predicate.item !== 'string') return `no subgoal for the item class in ${text}: name an item`;
    const need = predicate.mode === 'gain' ? count(world, predicate.item) + predicate.count : predicate.count;
    return { kind: 'item', item: predicate.item, need, predicate };
  }
  if (predicate.kind === 'near_block') return { kind: 'block', block: predicate.block, predicate };
  if (predicate.kind === 'within_reach' && !('placeholder' in predicate.position)) return { kind: 'reach', position: predicate.position, predicate };
  return `no subgoal for ${text}`;
}

function describe(step: Draft): string {
  const args = step.args as Record<string, unknown>;
  const what = args.item ?? args.block ?? '';
  return `${step.type}(${String(what)}${args.count !== undefined ? ` ×${String(args.count)}` : ''})`;
}
