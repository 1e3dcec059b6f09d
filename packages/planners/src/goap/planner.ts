// The goal-oriented planner: plans from the registry's declared preconditions and effects.
import { formatPredicate, parseConfig, parsePredicate, type Capability, type CapabilityRegistry, type Intent, type Predicate, type RepairRequest, type RepairResponse } from '@sinew/executor-contracts';
import { z } from 'zod';
import { planFailure, PlannerWorldSchema, type Planner, type PlannerWorld, type PlanResult } from '../contract.js';
import { actionSchemas, durationCost, type GoapDomain, type GroundAction } from './actions.js';
import { conditionsOf, defaultEvaluator, type PredicateEvaluator } from './conditions.js';
import { repairFromDeclarations } from './repair.js';
import { search, type SearchResult } from './search.js';

/** Search bounds; a bad value is refused when the planner is built. */
export const GoapLimitsSchema = z.strictObject({
  maxNodes: z.number().int().positive().max(1_000_000).default(5_000),
  maxMs: z.number().positive().max(600_000).default(250),
  maxSteps: z.number().int().positive().max(200).default(24),
});
export type GoapLimits = z.input<typeof GoapLimitsSchema>;

/** What `createGoapPlanner` searches over, its bounds, and the knowledge and costs it uses. */
export interface GoapPlannerOptions {
  /** The capabilities whose declarations the planner searches; read when the planner is built. */
  readonly registry: CapabilityRegistry<unknown>;
  /** Bounds of one search: nodes, milliseconds on `clock`, plan length (validated when the planner is built). */
  readonly limits: GoapLimits;
  /** Whether a predicate holds in the world (default: inventory, blocks in focus, held item). */
  readonly evaluator?: PredicateEvaluator;
  /** Time for the search bound (default `Date.now`). */
  readonly clock?: {
    /** Milliseconds, monotonic enough to bound a search. */
    now(): number;
  };
  /** Knowledge the declarations lack (recipes); see `minecraftGoapDomain` in `@sinew/planners/minecraft`. */
  readonly domain?: GoapDomain;
  /** A step's cost (default: its capability's `expectedDurationMs` in seconds, else 1). */
  readonly cost?: (capability: Capability, args: Record<string, unknown>) => number;
  /** Planner name in results and routes (default `goap`). */
  readonly name?: string;
}

/** The planner, plus the search it ran last (nodes, ms) for benches and logs. */
export interface GoapPlanner extends Planner<PlannerWorld> {
  /** Plans a goal given as predicates (cut short where the domain's `commit` says); `plan(intent)` reads them from `intent.goal`. */
  planGoal(goal: readonly Predicate[], world: PlannerWorld, intentId?: string): PlanResult;
  /** A `precond_missing` step's missing predicates (else its declared preconds), planned from declarations. */
  repair(request: RepairRequest, world: PlannerWorld): RepairResponse | undefined;
  /** The last search's size (nodes expanded, ms), undefined before the first. */
  lastSearch(): { readonly nodes: number; readonly ms: number } | undefined;
}

/**
 * A goal's predicates from an intent's goal text: every comma- or space-separated word a predicate
 * (`has_item:torch:4 near_block:crafting_table`), else the reason it is not one.
 */
export function goalPredicates(goal: string): { ok: true; predicates: Predicate[] } | { ok: false; reason: string } {
  const words = goal.split(/[\s,]+/).filter(Boolean);
  const predicates: Predicate[] = [];
  for (const word of words) {
    const parsed = parsePredicate(word);
    if (!parsed.ok) return { ok: false, reason: parsed.reason };
    predicates.push(parsed.predicate);
  }
  return predicates.length ? { ok: true, predicates } : { ok: false, reason: 'the goal names no predicate' };
}

/**
 * A planner that finds the cheapest sequence of registry steps whose declared effects achieve a goal stated
 * as predicates, binding args from the goal (`has_item:torch:4` → `craft_item { item: 'torch', count: 4 }`).
 *
 * @example
 * const goap = createGoapPlanner({ registry, limits: { maxNodes: 2_000, maxMs: 100 } });
 * goap.planGoal([pred.hasItem('torch', 4)], world);
 */
export function createGoapPlanner(options: GoapPlannerOptions): GoapPlanner {
  const limits = parseConfig('createGoapPlanner.limits', GoapLimitsSchema, options.limits);
  const name = options.name ?? 'goap';
  const schemas = actionSchemas(options.registry);
  const clock = options.clock ?? { now: () => Date.now() };
  const cost = options.cost ?? durationCost;
  let planCounter = 0;
  let last: { nodes: number; ms: number } | undefined;

  function planGoal(goal: readonly Predicate[], input: PlannerWorld, intentId = 'goal'): PlanResult {
    const world = PlannerWorldSchema.safeParse(input);
    if (!world.success) return planFailure(name, 'invalid_world', z.prettifyError(world.error));
    const gap = options.domain?.noSource?.(goal, world.data);
    if (gap !== undefined) {
      last = { nodes: 0, ms: 0 };
      return planFailure(name, 'no_source', gap);
    }
    const result = search(conditionsOf(goal, world.data), world.data, {
      schemas,
      holds: options.evaluator ?? defaultEvaluator,
      ...(options.domain ? { domain: options.domain } : {}),
      cost,
      now: () => clock.now(),
      limits,
    });
    last = { nodes: result.nodes, ms: result.ms };
    if (!result.ok) return failureOf(name, goal, result);
    planCounter += 1;
    const steps = options.domain?.commit?.(result.steps, world.data) ?? result.steps;
    return { ok: true, planner: name, plan: { planId: `${name}-${intentId}-${planCounter}`, intentId, planner: name, steps: steps.map(toStep) } };
  }

  return {
    name,
    verbs: () => schemas.map((schema) => schema.capability.name),
    planGoal,
    plan(intent: Intent, world: PlannerWorld): PlanResult {
      const goal = goalPredicates(intent.goal);
      if (!goal.ok) return planFailure(name, 'unsupported_goal', `goal "${intent.goal.slice(0, 80)}" is not stated as predicates: ${goal.reason}`);
      return planGoal(goal.predicates, world, intent.id);
    },
    repair(request: RepairRequest, world: PlannerWorld): RepairResponse | undefined {
      const parsed = PlannerWorldSchema.safeParse(world);
      if (!parsed.success) return { steps: [], reason: `${name}: the observed world is not a PlannerWorld: ${z.prettifyError(parsed.error)}` };
      return repairFromDeclarations(request, parsed.data, { registry: options.registry, holds: options.evaluator ?? defaultEvaluator, planGoal });
    },
    lastSearch: () => last,
  };
}

/** A plan step from a ground action: its declarations as wire strings, its cost for ranking. */
export function toStep(action: GroundAction, index: number) {
  return {
    stepId: `s${index + 1}`,
    type: action.verb,
    args: action.args,
    preconds: action.preconds.filter(checkable).map(formatPredicate),
    effects: action.effects.filter(checkable).map(formatPredicate),
    cost: action.cost,
    ...(action.expectedDurationMs !== undefined ? { expectedDurationMs: action.expectedDurationMs } : {}),
  };
}

/** A predicate the executor can check: no unobserved target (`block:<position>=…`; the capability picks it and its acceptance checks it). */
function checkable(predicate: Predicate): boolean {
  return !formatPredicate(predicate).includes('<');
}

/** A search that found nothing, as a coded failure naming the predicate no capability produces (or the bound hit). */
function failureOf(name: string, goal: readonly Predicate[], result: Extract<SearchResult, { ok: false }>): PlanResult {
  const size = `${result.nodes} nodes, ${result.ms} ms`;
  const wanted = goal.map(formatPredicate).join(', ');
  if (result.bound) return planFailure(name, 'depth_exceeded', `search bound (${result.bound}) reached after ${size} planning ${wanted}`, result.details);
  const missing = result.unproducible[0];
  const reason = missing ? `no capability produces ${missing} from this world (needed for ${wanted}; ${size})` : `no plan for ${wanted} (${size})`;
  return planFailure(name, 'no_method', reason, result.details);
}
