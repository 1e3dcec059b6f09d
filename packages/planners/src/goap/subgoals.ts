// `subgoalsFor` from declarations: the missing predicates of a repair planned by the goal-oriented planner over a
// registry, with the Minecraft domain (recipes, the world's sources); its result in the repair's own vocabulary.
import { formatPredicate, parsePredicate, type CapabilityRegistry, type Predicate } from '@sinew/executor-contracts';
import type { PlannerWorld } from '../contract.js';
import { recipeBook } from '../minecraft/recipes.js';
import type { MinecraftRepairOptions, RepairGap, SubgoalResult } from '../minecraft/repair.js';
import { minecraftGoapDomain } from './minecraft.js';
import { createGoapPlanner, type GoapPlanner } from './planner.js';

/** Nodes of one repair search (the bench's largest goal expands 54); the node bound decides, the time bound only stops a runaway. */
const MAX_NODES = 20_000;
const MAX_MS = 10_000;

const planners = new WeakMap<CapabilityRegistry<unknown>, Map<string, GoapPlanner>>();

/** One planner per registry and repair options (building one reads every capability's schema). */
function plannerFor(registry: CapabilityRegistry<unknown>, options: MinecraftRepairOptions): GoapPlanner {
  const book = options.book ?? recipeBook();
  const maxSteps = Math.min(200, 2 * (options.maxDepth ?? 12));
  const key = JSON.stringify([book.version, options.world ?? null, options.verbs ?? null, maxSteps]);
  const byOptions = planners.get(registry) ?? new Map<string, GoapPlanner>();
  planners.set(registry, byOptions);
  const known = byOptions.get(key);
  if (known) return known;
  const domain = minecraftGoapDomain(book, { ...(options.world ? { world: options.world } : {}), ...(options.verbs ? { verbs: options.verbs } : {}) });
  const planner = createGoapPlanner({ registry, domain, limits: { maxNodes: MAX_NODES, maxMs: MAX_MS, maxSteps }, name: 'repair' });
  byOptions.set(key, planner);
  return planner;
}

/** Why a predicate is no goal the repair can plan (an item class, a target the failed step picks itself), or undefined. */
function unplannable(predicate: Predicate): string | undefined {
  const text = formatPredicate(predicate);
  if (predicate.kind === 'has_item' && typeof predicate.item !== 'string') return `no subgoal for the item class in ${text}: name an item`;
  return text.includes('<') ? `no subgoal for ${text}` : undefined;
}

const gap = (code: RepairGap['code'], reason: string): SubgoalResult => ({ ok: false, gap: { code, reason } });

/**
 * The subgoal steps that make every missing predicate hold, planned from `registry`'s declarations (maxDepth bounds
 * the plan at twice as many steps); a gap names the predicate nothing produces, or the bound.
 */
export function goapSubgoals(missing: readonly string[], world: PlannerWorld, registry: CapabilityRegistry<unknown>, options: MinecraftRepairOptions): SubgoalResult {
  const goal: Predicate[] = [];
  for (const text of missing) {
    const parsed = parsePredicate(text);
    if (!parsed.ok) return gap('unknown_predicate', parsed.reason);
    const why = unplannable(parsed.predicate);
    if (why) return gap('unobtainable', why);
    goal.push(parsed.predicate);
  }
  const planned = plannerFor(registry, options).planGoal(goal, world, 'repair');
  if (!planned.ok) return gap(planned.failure.code === 'depth_exceeded' ? 'depth_exceeded' : 'unobtainable', planned.failure.reason);
  return { ok: true, steps: planned.plan.steps.map(({ stepId: _stepId, ...draft }) => draft) };
}
