import { stepFailure, type Capability, type Intent, type Logger, type Plan, type StepFailure } from '@sinew/executor-contracts';
import type { ActuatorSource } from '../body/instrument.js';
import type { Clock } from '../clock/clock.js';
import type { ExecutorMetrics } from '../metrics/metrics.js';
import type { DeltaSeries } from '../metrics/series.js';
import type { EventHub } from './events.js';
import type { ExecutorPolicy } from './policy.js';
import type { StepReporter } from './report.js';
import type { StepSlot } from './slot.js';
import type { WatchdogTimer } from './watchdog.js';
import type { StepRun } from './step-run.js';
import type { PredicateEvaluator } from './types.js';

/** What a running plan carries down to its steps. */
export interface PlanContext {
  readonly plan: Plan;
  readonly intent?: Intent;
  /** Aborts on the caller's cancellation and on the plan's time budget. */
  readonly signal?: AbortSignal;
  /** Set when `timeBudgetMs` ran out: the plan then ends `timeout`. */
  readonly budget?: { readonly ms: number; expired: boolean };
  /** Set for steps run by `preempt()`: they already hold the slot and are never interrupted. */
  readonly preemptReason?: string;
}

/** What a step run and each of its attempts share: the executor, the plan, the capability and its parsed args. */
export interface StepCall<Body extends ActuatorSource> {
  readonly rt: Runtime<Body>;
  readonly planCtx: PlanContext;
  readonly capability: Capability<Body>;
  readonly args: unknown;
}

/** The state the executor shares with the step it runs (one object, no callbacks between them). */
export interface Runtime<Body extends ActuatorSource> {
  readonly body: Body;
  readonly clock: Clock;
  readonly policy: ExecutorPolicy;
  readonly metrics: ExecutorMetrics;
  /** `metrics.activeSteps` as a hot-path series (a step moves it twice). */
  readonly activeSteps: DeltaSeries;
  readonly log: Logger;
  readonly events: EventHub;
  readonly slot: StepSlot;
  /** The attempts' shared watchdog timer. */
  readonly watchdog: WatchdogTimer;
  readonly report: StepReporter;
  readonly predicates: PredicateEvaluator<Body> | undefined;
  /** The step holding the body (I1), with its running attempt. */
  active: StepRun<Body> | undefined;
  closed: boolean;
  /** The body's disconnect reason, once it went away (final). */
  disconnected: string | undefined;
  /** Reason of the latest preemption (reported with `step.preempted`). */
  preemptReason: string | undefined;
}

/** Why the plan (or the whole executor) must stop now, if it must: one answer for every check point. */
export function stopFailure(rt: Runtime<ActuatorSource>, planCtx?: PlanContext): StepFailure | undefined {
  if (rt.closed) return stepFailure('aborted', 'the executor was closed');
  if (rt.disconnected !== undefined) return stepFailure('body_disconnected', `the body disconnected: ${rt.disconnected}`);
  if (planCtx?.budget?.expired) return stepFailure('timeout', `the plan ran past its time budget of ${planCtx.budget.ms} ms`, { retryable: false });
  if (planCtx?.signal?.aborted) return stepFailure('aborted', 'the plan was cancelled');
  return undefined;
}

const capRefs = new WeakMap<object, { readonly name: string; readonly version: string }>();

/** `{ name, version }` of a capability, one frozen object per capability. */
export function capRef(capability: Capability<never>): { name: string; version: string } {
  let ref = capRefs.get(capability);
  if (!ref) {
    ref = Object.freeze({ name: capability.name, version: capability.version });
    capRefs.set(capability, ref);
  }
  return ref as { name: string; version: string };
}

const capLabels = new WeakMap<object, string>();

/** `name@version` of a capability, built once per capability. */
export function capLabel(capability: Capability<never>): string {
  let label = capLabels.get(capability);
  if (label === undefined) {
    label = `${capability.name}@${capability.version}`;
    capLabels.set(capability, label);
  }
  return label;
}
