import { stepFailure, type Capability, type Intent, type Plan, type StepFailure } from '@sinew/executor-contracts';

/** What a running plan carries down to its steps. */
export interface PlanContext {
  readonly plan: Plan;
  readonly intent?: Intent;
  /** Aborts on the caller's cancellation and on the plan's time budget. */
  readonly signal?: AbortSignal;
  /** Set when `timeBudgetMs` ran out: the plan then ends `timeout`. */
  readonly budget?: { readonly ms: number; expired: boolean };
  /** Set for steps run by `preempt()`: they already hold the slot, and only a preemption of a higher tier interrupts them. */
  readonly preemptReason?: string;
  /** A preemption's: `by` is set when one of a higher tier took the body (its steps end `preempted`, never resumed). */
  readonly outranked?: { readonly by: string | undefined };
}

/** Whether the executor may still act: closed by `close()`, or its body gone for good. */
export interface ExecutorLiveness {
  readonly closed: boolean;
  /** The body's disconnect reason, once it went away (final). */
  readonly disconnected: string | undefined;
}

/** Why the plan (or the whole executor) must stop now, if it must: one answer for every check point. */
export function stopFailure(liveness: ExecutorLiveness, planCtx?: PlanContext): StepFailure | undefined {
  if (liveness.closed) return stepFailure('aborted', 'the executor was closed');
  if (liveness.disconnected !== undefined) return stepFailure('body_disconnected', `the body disconnected: ${liveness.disconnected}`);
  if (planCtx?.outranked?.by !== undefined && planCtx.signal?.aborted) return stepFailure('preempted', `outranked by a higher-tier preemption (${planCtx.outranked.by}): not resumed`, { retryable: false });
  if (planCtx?.budget?.expired) return stepFailure('timeout', `the plan ran past its time budget of ${planCtx.budget.ms} ms`, { retryable: false });
  if (planCtx?.signal?.aborted) return stepFailure('aborted', 'the plan was cancelled');
  return undefined;
}

const capRefs = new WeakMap<object, { readonly name: string; readonly version: string }>();
/** The last capability asked and its answer (steps in a row are mostly of one capability: no WeakMap lookup). */
let lastRefOf: object | undefined;
let lastRef: { name: string; version: string } | undefined;

/** `{ name, version }` of a capability, one frozen object per capability. */
export function capRef(capability: Capability<never>): { name: string; version: string } {
  if (lastRefOf === capability) return lastRef!;
  let ref = capRefs.get(capability);
  if (!ref) {
    ref = Object.freeze({ name: capability.name, version: capability.version });
    capRefs.set(capability, ref);
  }
  lastRefOf = capability;
  return (lastRef = ref as { name: string; version: string });
}

const capLabels = new WeakMap<object, string>();
let lastLabelOf: object | undefined;
let lastLabel = '';

/** `name@version` of a capability, built once per capability. */
export function capLabel(capability: Capability<never>): string {
  if (lastLabelOf === capability) return lastLabel;
  let label = capLabels.get(capability);
  if (label === undefined) {
    label = `${capability.name}@${capability.version}`;
    capLabels.set(capability, label);
  }
  lastLabelOf = capability;
  return (lastLabel = label);
}
