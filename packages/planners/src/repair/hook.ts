import { describeError, type RepairHook, type RepairRequest, type RepairResponse } from '@sinew/executor-contracts';
import type { Planner } from '../contract.js';
import { setBounded } from '../memory/bounded.js';

// Loop guards for the most recently repaired plans only; older plans are long finished.
const MAX_TRACKED_PLANS = 256;

/** Options of `createPlannerRepairHook`. */
export interface RepairHookOptions {
  /** Repairs allowed per plan (default 6). */
  readonly maxRepairs?: number;
  /** Repairs allowed for the same step with the same missing predicates — more is a loop (default 2). */
  readonly maxSameFailure?: number;
  /** Every repair decision, with its reason. */
  readonly onRepair?: (event: { readonly planId: string; readonly stepId: string; readonly repaired: boolean; readonly reason: string }) => void;
}

/**
 * Adapts a planner (or the router) to the executor's `RepairHook`: on a failed step it observes the
 * world and asks the planner's `repair`; bounded per plan and per repeated failure so a repair that
 * does not fix its precondition cannot loop.
 *
 * @example
 * createExecutor({ registry, body: bot, repair: createPlannerRepairHook(router, () => observeWorld(bot)) })
 */
export function createPlannerRepairHook<World>(
  planner: Pick<Planner<World>, 'name' | 'repair'>,
  world: () => World | Promise<World>,
  options: RepairHookOptions = {},
): RepairHook {
  const maxRepairs = options.maxRepairs ?? 6;
  const maxSame = options.maxSameFailure ?? 2;
  const seen = new Map<string, Map<string, number>>();
  return {
    async repair(request: RepairRequest): Promise<RepairResponse | undefined> {
      const { plan, step, failure } = request;
      const report = (repaired: boolean, reason: string) => options.onRepair?.({ planId: plan.planId, stepId: step.stepId, repaired, reason });
      if (!planner.repair) return report(false, `${planner.name} cannot repair`), undefined;
      if (request.repairsSoFar >= maxRepairs) return report(false, `repair budget ${maxRepairs} spent`), undefined;
      const failures = seen.get(plan.planId) ?? new Map<string, number>();
      setBounded(seen, plan.planId, failures, MAX_TRACKED_PLANS);
      const key = `${step.stepId}|${failure.code}|${[...(failure.missing ?? [])].sort().join(',')}`;
      const times = failures.get(key) ?? 0;
      if (times >= maxSame) return report(false, `same failure repaired ${times}× already (${failure.reason}): not looping`), undefined;
      failures.set(key, times + 1);
      let response: RepairResponse | undefined;
      try {
        response = await planner.repair(request, await world());
      } catch (error) {
        // Observing or repairing failed (body gone, planner bug): reported here, rethrown so the executor counts a repair error.
        report(false, `repair threw: ${describeError(error)}`);
        throw error;
      }
      const repaired = hasSteps(response);
      const refused = `${planner.name} had no repair for ${failure.code}: ${failure.reason}${typeof response?.reason === 'string' ? ` (${response.reason})` : ''}`;
      report(repaired, repaired ? response!.reason : refused);
      return response;
    },
  };
}

/** Whether a planner's repair answer has steps to run (a JavaScript planner may answer a shape without `steps`). */
export function hasSteps(response: RepairResponse | undefined): boolean {
  return Array.isArray(response?.steps) && response.steps.length > 0;
}
