import { formatPredicate, parsePredicate, type CapabilityRegistry, type PlanStep, type RepairRequest, type RepairResponse } from '@sinew/executor-contracts';
import { goapSubgoals } from '../goap/subgoals.js';
import type { PlannerWorld } from '../contract.js';
import type { RecipeBook } from './recipes.js';
import type { WorldSources } from './sources.js';

/** Options of the Minecraft precondition repair. */
export interface MinecraftRepairOptions {
  /** Depth bound: a repair plans at most twice as many steps (default 12: iron_ingot ← raw_iron ← stone_pickaxe ← cobblestone ← wooden_pickaxe ← stick ← planks ← logs is 8). */
  readonly maxDepth?: number;
  readonly book?: RecipeBook;
  /** What the world holds to take items from (default `PLACED_WORLD`). */
  readonly world?: WorldSources;
  /** The body's verbs: mine, hunt and shear are used only when listed (default `ITEM_VERBS`). */
  readonly verbs?: readonly string[];
  /**
   * The capabilities whose declared preconditions and effects the repair plans over (the goal-oriented planner:
   * `createStandardRegistry()` plus your own); required — the recipe regression once written here is gone.
   */
  readonly registry: CapabilityRegistry<unknown>;
}

/** A repair that could not be built, with the chain that failed. */
export interface RepairGap {
  readonly code: 'depth_exceeded' | 'unobtainable' | 'unknown_predicate';
  readonly reason: string;
}

/** Subgoal steps that satisfy a missing predicate, or the gap that cannot be filled. */
export type SubgoalResult = { readonly ok: true; readonly steps: readonly Omit<PlanStep, 'stepId'>[] } | { readonly ok: false; readonly gap: RepairGap };

type Draft = Omit<PlanStep, 'stepId'>;

/**
 * Precondition repair (FM-02): the subgoal steps that make every missing predicate hold, planned by the
 * goal-oriented planner from `options.registry`'s declared preconditions and effects, with the recipe book and the
 * world's sources as its domain. With no wood in view nor held, the first log step takes any log and the steps end
 * there (the domain's `commit`).
 *
 * @example
 * subgoalsFor(['has_item:stick:2'], world, { registry }) // → gather oak_log, craft oak_planks, craft stick
 */
export function subgoalsFor(missing: readonly string[], world: PlannerWorld, options: MinecraftRepairOptions): SubgoalResult {
  return goapSubgoals(missing, world, requireRegistry('subgoalsFor', options), options);
}

/** The registry, or a thrown error naming the caller: a JavaScript caller that left it out learns at once, not at the first repair. */
export function requireRegistry(caller: string, options: MinecraftRepairOptions | undefined): CapabilityRegistry<unknown> {
  const registry = options?.registry;
  if (registry && typeof registry.verbs === 'function' && typeof registry.get === 'function') return registry;
  throw new TypeError(`${caller}: options.registry is required (a CapabilityRegistry, e.g. createStandardRegistry() from @sinew/capabilities), received ${registry === undefined ? 'undefined' : typeof registry}`);
}

/**
 * The planner-side answer to the executor's repair hook for Minecraft:
 * - on `precond_missing`, subgoal steps that satisfy the missing predicates, run before the failed step is retried;
 * - on `effects_unmet` where every unmet effect is where the bot stands (`near_block`, `within_reach`), a walk
 *   back that replaces the step: its work is done (its own acceptance passed) and the bot was moved away before
 *   the plan's effect was observed (a preempting flee, a knock-back). Redoing the work would spend items twice.
 */
export function minecraftRepair(options: MinecraftRepairOptions): (request: RepairRequest, world: PlannerWorld) => RepairResponse | undefined {
  requireRegistry('minecraftRepair', options);
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
    // A refusal with its cause: "no repair" alone left a failed plan unexplained.
    if (!result.ok) return { steps: [], reason: `no subgoal for ${failure.missing.join(', ')}: ${result.gap.code}: ${result.gap.reason}` };
    if (!result.steps.length) return { steps: [], reason: `${failure.missing.join(', ')} already hold in the observed world: nothing to repair` };
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

function describe(step: Draft): string {
  const args = step.args as Record<string, unknown>;
  const what = args.item ?? args.block ?? '';
  return `${step.type}(${String(what)}${args.count !== undefined ? ` ×${String(args.count)}` : ''})`;
}
