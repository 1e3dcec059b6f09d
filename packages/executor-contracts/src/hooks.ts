import type { Plan, PlanStep, StepFailure, StepOutcome } from './schemas.js';

/**
 * What the executor hands a repair hook when a step has exhausted its local retries (I3) or failed
 * with `precond_missing` (FM-02).
 */
export interface RepairRequest {
  readonly plan: Plan;
  readonly step: PlanStep;
  readonly failure: StepFailure;
  /** How many repairs this plan has already had. */
  readonly repairsSoFar: number;
}

/**
 * The executor's repair hook: return replacement steps to run before retrying the failed step (or
 * instead of it, with `replace: true`), or undefined to let the plan fail with the step's code.
 */
export interface RepairHook {
  /** Steps that fix the failure (or replace the step), or undefined to let the plan fail. */
  repair(request: RepairRequest): Promise<RepairResponse | undefined> | RepairResponse | undefined;
}

/** A repair: steps to run before the failed step is retried, or instead of it with `replace: true`. */
export interface RepairResponse {
  readonly steps: readonly PlanStep[];
  /** true: the steps replace the failed step; false (default): they run first, then the step is retried. */
  readonly replace?: boolean;
  readonly reason: string;
}

/** The executor's preemption entry point, as modules (the belief reflex) see it. */
export interface Preemptor {
  /** Runs these steps ahead of the active one (which is interrupted at a safe point and resumed); `holdMs` keeps `caution` steps waiting that long after. */
  preempt(steps: readonly PlanStep[], options: { readonly reason: string; readonly holdMs?: number }): Promise<readonly StepOutcome[]>;
}
