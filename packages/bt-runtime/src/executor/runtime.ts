import type { Capability, Logger } from '@sinew/executor-contracts';
import type { ActuatorSource } from '../body/instrument.js';
import type { Clock } from '../clock/clock.js';
import type { ExecutorMetrics } from '../metrics/metrics.js';
import type { DeltaSeries } from '../metrics/series.js';
import type { EventHub } from './events.js';
import type { PlanContext } from './plan-context.js';
import type { ExecutorPolicy } from './policy.js';
import type { ActuatorPulse } from './pulse.js';
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
  /** Until when (executor clock) a self-preservation preemption holds the body: plain `caution` steps wait. */
  cautionHeldUntil: number;
}
