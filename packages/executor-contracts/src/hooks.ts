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

/**
 * A repair: steps to run before the failed step is retried, or instead of it with `replace: true`. Empty `steps` is a
 * refusal: no repair, and `reason` says why (a planner's gap, a world it could not read), so the caller can report it.
 */
export interface RepairResponse {
  readonly steps: readonly PlanStep[];
  /** true: the steps replace the failed step; false (default): they run first, then the step is retried. */
  readonly replace?: boolean;
  readonly reason: string;
}

/** Options of `preempt`. */
export interface PreemptOptions {
  /** Why (a bounded metric label: verb and class, never a distance). */
  readonly reason: string;
  /** Plain `caution` steps are not dispatched for this long after (a self-preservation mode's hold). */
  readonly holdMs?: number;
  /**
   * What `holdMs` holds: `caution` (default) plain caution steps; `all` every plan step, which waits (a running one
   * finishes, an interrupted one resumes after): a hurt body sheltering out of a hostile's reach, where any plan step
   * might walk it back down. With no steps to run, `preempt([], { holdMs, holds })` only holds (a mode renewing it).
   */
  readonly holds?: 'caution' | 'all';
  /**
   * Default 0. A preemption's steps run to their end whatever preempts after them, except that one of a higher tier
   * interrupts the running step at its safe point (an atomic step finishes first): that step and the rest of its
   * preemption end `preempted`, never resumed — self-preservation (flee, low health) outranks a defense fight.
   * A tier that is not a non-negative integer counts as 0.
   */
  readonly tier?: number;
}

/** The executor's preemption entry point, as modules (the belief reflex) see it. */
export interface Preemptor {
  /** Runs these steps ahead of the active one (which is interrupted at a safe point and resumed); see `PreemptOptions`. */
  preempt(steps: readonly PlanStep[], options: PreemptOptions): Promise<readonly StepOutcome[]>;
}
