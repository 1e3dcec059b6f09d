// The collaborative route: a model proposes, the declarations dispose. Every step of a proposal is checked
// against its capability's declared preconditions on the world as the steps before it leave it; a gap is
// planned by the goal-oriented planner, or the proposal is refused with the predicate named.
import { blockKey, formatPredicate, type Capability, type CapabilityRegistry, type Intent, type PlanStep, type Predicate } from '@sinew/executor-contracts';
import { planFailure, PlannerWorldSchema, type Planner, type PlannerWorld, type PlanResult } from '../contract.js';
import { durationCost, groundStep, type GoapDomain, type GroundAction } from './actions.js';
import { defaultEvaluator, held, type PredicateEvaluator } from './conditions.js';
import type { GoapPlanner } from './planner.js';

/** The collaborative route: the proposer, the goal-oriented planner that checks and repairs its plans, and what they plan over. */
export interface CollaborativePlannerOptions {
  /** The proposer (usually the LLM planner). */
  readonly proposer: Planner<PlannerWorld>;
  /** Plans the gaps; built over the same registry. */
  readonly goap: GoapPlanner;
  readonly registry: CapabilityRegistry<unknown>;
  readonly domain?: GoapDomain;
  readonly evaluator?: PredicateEvaluator;
  /** Planner name (default `collaborative`). */
  readonly name?: string;
}

/**
 * A planner whose plans are a model's proposal checked against the declarations: a step whose declared
 * preconditions cannot hold gets the steps that make them hold, or the plan is refused naming the predicate.
 *
 * @example
 * createCollaborativePlanner({ proposer: llm, goap, registry, domain: minecraftGoapDomain(recipeBook()) })
 */
export function createCollaborativePlanner(options: CollaborativePlannerOptions): Planner<PlannerWorld> {
  const name = options.name ?? 'collaborative';
  const holds = options.evaluator ?? defaultEvaluator;
  return {
    name,
    verbs: () => [...new Set([...options.proposer.verbs(), ...options.goap.verbs()])].sort(),
    async plan(intent: Intent, input: PlannerWorld): Promise<PlanResult> {
      const world = PlannerWorldSchema.safeParse(input);
      if (!world.success) return planFailure(name, 'invalid_world', 'the world is not a PlannerWorld');
      const proposed = await options.proposer.plan(intent, input);
      if (!proposed.ok) return proposed;
      const checked = checkProposal(proposed.plan.steps, world.data, { ...options, holds });
      if (!checked.ok) return planFailure(name, 'llm_output_rejected', checked.reason, checked.details);
      return { ok: true, planner: name, plan: { ...proposed.plan, planner: name, steps: checked.steps } };
    },
  };
}

type Checked = { readonly ok: true; readonly steps: PlanStep[]; readonly repaired: number } | { readonly ok: false; readonly reason: string; readonly details: string[] };

/** Walks a proposal on a simulated world: each step's unmet declared preconditions are planned in before it, or refused. */
export function checkProposal(
  steps: readonly PlanStep[],
  start: PlannerWorld,
  options: Pick<CollaborativePlannerOptions, 'goap' | 'registry' | 'domain'> & { readonly holds: PredicateEvaluator },
): Checked {
  let world = structuredClone(start);
  const out: PlanStep[] = [];
  let repaired = 0;
  const ground = (capability: Capability, args: Record<string, unknown>) => groundStep(capability, args, world, { ...(options.domain ? { domain: options.domain } : {}), cost: durationCost });
  for (const step of steps) {
    const capability = options.registry.get(step.type, step.capabilityVersion);
    if (!capability) return { ok: false, reason: `step ${step.stepId}: no capability provides "${step.type}"`, details: [] };
    const action = ground(capability, step.args);
    if (typeof action === 'string') return { ok: false, reason: `step ${step.stepId} ${step.type}: ${action}`, details: [] };
    const unmet = action.preconds.filter((p) => !options.holds(p, world) && !(p.kind === 'has_item' && typeof p.item === 'string' && held(world, p.item) >= p.count));
    if (unmet.length > 0) {
      const gap = options.goap.planGoal(unmet, world, step.stepId);
      const wanted = unmet.map(formatPredicate).join(', ');
      if (!gap.ok) return { ok: false, reason: `step ${step.stepId} ${step.type}: declared precondition ${wanted} cannot hold: ${gap.failure.reason}`, details: [...(gap.failure.details ?? [])] };
      for (const [index, extra] of gap.plan.steps.entries()) {
        out.push({ ...extra, stepId: `${step.stepId}-pre${index + 1}` });
        world = simulate(world, ground(options.registry.get(extra.type)!, extra.args));
      }
      repaired += 1;
    }
    out.push(step);
    world = simulate(world, action);
  }
  return { ok: true, steps: out, repaired };
}

/** The world after a step as its declarations say: items gained and consumed, blocks placed by the body. */
function simulate(world: PlannerWorld, action: GroundAction | string): PlannerWorld {
  if (typeof action === 'string') return world;
  const next = structuredClone(world);
  const add = (item: string, n: number) => (next.inventory[item] = Math.max(0, (next.inventory[item] ?? 0) + n));
  for (const p of action.preconds) if (p.kind === 'has_item' && typeof p.item === 'string' && !action.keeps.includes(p.item)) add(p.item, -p.count);
  for (const effect of action.effects) apply(next, effect, add);
  return next;
}

function apply(world: PlannerWorld, effect: Predicate, add: (item: string, n: number) => void): void {
  if (effect.kind === 'has_item' && typeof effect.item === 'string') {
    if (effect.mode === 'gain') add(effect.item, effect.count);
    else world.inventory[effect.item] = Math.max(world.inventory[effect.item] ?? 0, effect.count);
  } else if (effect.kind === 'block_at') {
    // An unbound position is where the body stands: the block is near it.
    const key = 'x' in effect.position ? blockKey(effect.position) : `${blockKey(world.position)}`;
    world.blocks[key] = effect.block;
  } else if (effect.kind === 'equipped' && effect.destination === 'hand') {
    world.heldItem = effect.item;
  }
}
