import type { Capability, Logger, PlanStep } from '@sinew/executor-contracts';
import type { ActuatorSource } from '../body/instrument.js';
import type { Clock } from '../clock/clock.js';
import type { ExecutorMetrics } from '../metrics/metrics.js';
import type { DeltaSeries } from '../metrics/series.js';
import type { EventHub } from './events.js';
import type { PlanContext } from './plan-context.js';
import type { ExecutorPolicy } from './policy.js';
import type { StepPredicates } from './predicates.js';
import type { ActuatorPulse, PulseReceiver } from './pulse.js';
import type { StepReporter } from './report.js';
import type { StepSlot } from './slot.js';
import type { WatchdogTimer } from './watchdog.js';
import type { ActiveStepState, PredicateEvaluator, StepRef } from './types.js';

/** What a step run and each of its attempts share: the executor, the plan, the capability and its parsed args. */
export interface StepCall<Body extends ActuatorSource> {
  readonly rt: Runtime<Body>;
  readonly planCtx: PlanContext;
  readonly capability: Capability<Body>;
  readonly args: unknown;
}

/** What a step's run is given once its checks passed. */
export interface StepRunOptions<Body extends ActuatorSource> extends StepCall<Body> {
  readonly step: PlanStep;
  readonly key: string;
  readonly startedAt: number;
  readonly predicates: StepPredicates;
}

/** The step that holds the body, as the executor sees it: what `state()` shows and how it is interrupted. */
export interface ActiveStep<Body> {
  readonly ref: StepRef;
  readonly capability: Capability<Body>;
  /** The step's `priority`: a waiting step of higher rank takes over at a safe point. */
  readonly rank: number;
  readonly attempt: number;
  readonly sinceMs: number;
  shownPhase(): ActiveStepState['phase'];
  /** A preemption or a higher-priority step is waiting: stop at the next safe point. */
  yieldAtSafePoint(): void;
  /** Stops whatever the step is doing now (its attempt, or its backoff wait). */
  interrupt(code: 'preempted' | 'aborted' | 'body_disconnected'): void;
}

/** The state the executor shares with the step it runs: one object; the actuator pulse goes through `pulse`. */
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
  readonly pulse: ActuatorPulse;
  readonly report: StepReporter;
  readonly predicates: PredicateEvaluator<Body> | undefined;
  /** The step holding the body (I1). */
  active: ActiveStep<Body> | undefined;
  closed: boolean;
  /** The body's disconnect reason, once it went away (final). */
  disconnected: string | undefined;
  /** Reason of the latest preemption (reported with `step.preempted`). */
  preemptReason: string | undefined;
  /** Until when (executor clock) a self-preservation preemption holds the body: plain `caution` steps wait… */
  cautionHeldUntil: number;
  /** …and every plan step (`PreemptOptions.holds: 'all'`). */
  heldUntil: number;
}

/** The step holds the body: `state()` shows it, the active-steps gauge counts it. */
export function activate<Body extends ActuatorSource>(rt: Runtime<Body>, step: ActiveStep<Body>): void {
  rt.active = step;
  rt.activeSteps.add(1);
}

/** The step no longer holds the body (counted once), and the pulse stops reaching its attempt. */
export function deactivate<Body extends ActuatorSource>(rt: Runtime<Body>, step: ActiveStep<Body>, attempt: PulseReceiver | undefined): void {
  releasePulse(rt, attempt);
  if (rt.active !== step) return;
  rt.active = undefined;
  rt.activeSteps.add(-1);
}

/** The pulse stops reaching an attempt once the step is done with it. */
export function releasePulse(rt: Runtime<ActuatorSource>, attempt: PulseReceiver | undefined): void {
  if (attempt && rt.pulse.target === attempt) rt.pulse.target = undefined;
}
