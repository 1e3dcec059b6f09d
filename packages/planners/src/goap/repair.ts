// Repair from declarations: the predicates a step's guard reported missing, planned like any goal.
import { formatPredicate, parsePredicate, PredicateSchema, type CapabilityRegistry, type PlanStep, type Predicate, type RepairRequest, type RepairResponse } from '@sinew/executor-contracts';
import type { PlannerWorld, PlanResult } from '../contract.js';
import type { PredicateEvaluator } from './conditions.js';

/** The predicates a failed step needs: the guard's `missing`, else its capability's declared preconds for its args that do not hold. */
export function missingPredicates(request: RepairRequest, registry: CapabilityRegistry<unknown>, world: PlannerWorld, holds: PredicateEvaluator): Predicate[] {
  const reported = (request.failure.missing ?? []).flatMap((text) => {
    const parsed = parsePredicate(text);
    return parsed.ok ? [parsed.predicate] : [];
  });
  if (reported.length > 0) return reported;
  const capability = registry.get(request.step.type, request.step.capabilityVersion);
  const parsed = capability?.inputSchema.safeParse(request.step.args);
  if (!capability || !parsed?.success) return [];
  return capability
    .preconds(parsed.data as never)
    .flatMap((template) => {
      const concrete = PredicateSchema.safeParse(template);
      return concrete.success ? [concrete.data] : [];
    })
    .filter((predicate) => !holds(predicate, world));
}

/**
 * The executor's repair for a `precond_missing` step, any capability's (a user's own included): the
 * missing predicates planned from the registry's declarations, run before the step is retried.
 */
export function repairFromDeclarations(
  request: RepairRequest,
  world: PlannerWorld,
  context: { readonly registry: CapabilityRegistry<unknown>; readonly holds: PredicateEvaluator; readonly planGoal: (goal: readonly Predicate[], world: PlannerWorld, intentId: string) => PlanResult },
): RepairResponse | undefined {
  if (request.failure.code !== 'precond_missing') return undefined;
  const missing = missingPredicates(request, context.registry, world, context.holds);
  if (missing.length === 0) return undefined;
  const planned = context.planGoal(missing, world, request.plan.intentId);
  if (!planned.ok) return { steps: [], reason: `goap: no plan for ${missing.map(formatPredicate).join(', ')}: ${planned.failure.code}: ${planned.failure.reason}` };
  if (planned.plan.steps.length === 0) return { steps: [], reason: `goap: ${missing.map(formatPredicate).join(', ')} already hold in the observed world: nothing to repair` };
  const prefix = `${request.step.stepId}-r${request.repairsSoFar + 1}`;
  const steps: PlanStep[] = planned.plan.steps.map((step, index) => ({ ...step, stepId: `${prefix}-${index + 1}` }));
  return { steps, reason: `goap: ${steps.length} step(s) from declarations for ${missing.map(formatPredicate).join(', ')} before ${request.step.type}` };
}
