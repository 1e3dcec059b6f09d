import type { CapabilityRegistry, IntentInput, Logger, Predicate, PredicateKind, PlanStepInput, PreemptOptions, RepairHook, RunContext, StepFailure, StepOutcome } from '@sinew/executor-contracts';
import type { ActuatorSource } from '../body/instrument.js';
import type { Clock } from '../clock/clock.js';
import type { JournalStore } from '../journal/records.js';
import type { ExecutorMetrics } from '../metrics/metrics.js';
import type { ProvenanceSink } from '../provenance/provenance.js';
import type { CapabilityHealth, SlaFigures } from './health.js';
import type { ExecutorPolicy, ExecutorPolicyInput } from './policy.js';

/** The RunContext the executor hands runners: the contract plus the executor's clock (behavior trees use it). */
export interface ExecutorRunContext<Body> extends RunContext<Body> {
  readonly clock: Clock;
}

/**
 * Checks a step's `preconds` (before each attempt: unmet → precond_missing) and `effects` (after
 * acceptance: unmet → effects_unmet) on the body. Steps naming kinds outside `kinds` are refused
 * with invalid_args. See `minecraftPredicates` in @sinew/capabilities.
 */
export interface PredicateEvaluator<Body> {
  /** The predicate kinds `holds` can check. */
  readonly kinds: readonly PredicateKind[];
  /** Whether `predicate` holds on `body` now; `baseline` is what `baseline(body)` returned before the step's first attempt. */
  holds(predicate: Predicate, body: Body, baseline: unknown): boolean;
  /** What gains (`has_item:x:+n`, `y:+n`, `food:rose`) are measured against. */
  baseline?(body: Body): unknown;
}

/** Options of `createExecutor`: registry, body, policy, telemetry, hooks and the journal. */
export interface ExecutorOptions<Body extends ActuatorSource> {
  readonly registry: CapabilityRegistry<Body>;
  /** The instrumented body (see `instrumentMethods`); its actuator commands feed TTFA and stuck detection. */
  readonly body: Body;
  readonly clock?: Clock;
  /** Validated when the executor is built; a bad policy throws a PolicyError. */
  readonly policy?: ExecutorPolicyInput;
  /** Default: `createExecutorMetrics()` on a fresh Registry. */
  readonly metrics?: ExecutorMetrics;
  readonly provenance?: ProvenanceSink | readonly ProvenanceSink[];
  readonly repair?: RepairHook;
  readonly logger?: Logger;
  /** Checks step preconds/effects. Default: the body's own `predicates`; with neither, a step declaring any is refused (invalid_args). */
  readonly predicates?: PredicateEvaluator<Body>;
  /** The plan journal (see `createJsonlJournal`): read back at construction (finished steps answer `duplicate`), appended as plans and steps end. */
  readonly journal?: JournalStore;
}

/** How a plan ended. */
export type PlanStatus = 'completed' | 'failed' | 'aborted';

/** How a plan ended: every step it ran, in order (repair steps included), and the failure that stopped it. */
export interface PlanOutcome {
  readonly planId: string;
  readonly intentId: string;
  readonly status: PlanStatus;
  readonly steps: readonly StepOutcome[];
  readonly failure?: StepFailure;
  /** The step whose failure ended the plan. */
  readonly failedStepId?: string;
  readonly repairs: number;
  readonly startedAt: number;
  readonly endedAt: number;
}

/** Names a step: its plan, id and verb. */
export interface StepRef {
  readonly planId: string;
  readonly stepId: string;
  readonly verb: string;
}

/** Typed executor events. */
export interface ExecutorEvents {
  'plan.started': { readonly planId: string; readonly intentId: string; readonly steps: number };
  'step.dispatched': StepRef & { readonly capability: string; readonly attempt: number };
  /** `at`: when the command was issued, on the executor's clock (`ttfaMs` after the runner started). */
  'step.first_action': StepRef & { readonly command: string; readonly ttfaMs: number; readonly attempt: number; readonly at: number };
  'step.retry': StepRef & { readonly attempt: number; readonly failure: StepFailure; readonly backoffMs: number };
  'step.succeeded': StepOutcome;
  'step.failed': StepOutcome;
  /** The step was interrupted by a preemption; `outcome` is set when it will not resume (bound reached). */
  'step.preempted': StepRef & { readonly reason: string; readonly resumes: number; readonly outcome?: StepOutcome };
  'step.resumed': StepRef & { readonly resumes: number };
  /** A runner reported a behavior-tree node transition (`ctx.transition`); built only when someone listens. */
  'bt.transition': StepRef & { readonly attempt: number; readonly nodePath: string; readonly state: string };
  /** A canary was promoted or demoted on its SLA against the stable version, or one of its steps fell back to the stable one. */
  'canary.decision': {
    readonly capability: string;
    readonly version: string;
    readonly stable: string;
    readonly decision: 'promoted' | 'demoted' | 'fallback';
    readonly reason: string;
    readonly canarySla?: SlaFigures;
    readonly stableSla?: SlaFigures;
  };
  /** A shadow canary's guard verdict beside what the stable version did with the same step. */
  'canary.shadow': { readonly capability: string; readonly version: string; readonly stable: string; readonly stepId: string; readonly verdict: 'agree' | 'disagree'; readonly reason: string };
  /** A journal record did not land (`record`: which kind); the running plan fails `journal_unavailable` (a failed compaction loses nothing and fails nothing). */
  'journal.write_failed': { readonly record: string; readonly errno: string; readonly message: string };
  'plan.completed': PlanOutcome;
  'plan.failed': PlanOutcome;
}

/** The name of an executor event (`step.failed`, `plan.completed`, …). */
export type ExecutorEventName = keyof ExecutorEvents;

/** The step holding the active-step slot: capability, attempt, phase and since when. */
export interface ActiveStepState extends StepRef {
  readonly capability: string;
  readonly attempt: number;
  readonly phase: 'starting' | 'running' | 'backoff' | 'interrupted';
  readonly sinceMs: number;
  readonly atomic: boolean;
}

/** What `executor.state()` reports. */
export interface ExecutorState {
  readonly status: 'idle' | 'running' | 'closed';
  readonly activeStep?: ActiveStepState;
  /** Steps waiting for the active-step slot. */
  readonly waiting: number;
  readonly plansRunning: number;
  readonly preempting: boolean;
}

/** What `executor.health()` reports: the state and each capability's SLA. */
export interface HealthReport {
  readonly executor: ExecutorState;
  readonly capabilities: readonly CapabilityHealth[];
}

/** Options of `executor.run(plan, options)`. */
export interface RunOptions {
  /** Cancels the plan: the active step is aborted with code `aborted`, the plan ends `aborted`. */
  readonly signal?: AbortSignal;
  /**
   * The intent the plan serves (validated with IntentSchema; its id must be the plan's intentId):
   * `safety.allowed: false` refuses the plan (`guard_failed`), `timeBudgetMs` is the plan's deadline
   * on the executor clock (the plan ends `failed` with `timeout`).
   */
  readonly intent?: IntentInput;
}

/** The Enhanced Reactive Executor for one body. */
export interface Executor<Body> {
  /** Runs a plan (validated with PlanSchema; bad input yields a failed outcome, never a throw). */
  run(plan: unknown, options?: RunOptions): Promise<PlanOutcome>;
  /** Runs again the latest plan the journal saw start and never end (finished steps answered from it); undefined when there is none. */
  resume(options?: Omit<RunOptions, 'intent'>): Promise<PlanOutcome | undefined>;
  /**
   * Safety preemption: aborts the active step at a safe point, runs `steps`, then the step re-guards and resumes.
   * A running preemption's step is interrupted only by one of a higher `tier` (see `PreemptOptions`).
   */
  preempt(steps: readonly PlanStepInput[], options: PreemptOptions): Promise<StepOutcome[]>;
  /** Subscribes to an executor event; returns the unsubscribe. */
  on<E extends ExecutorEventName>(event: E, listener: (payload: ExecutorEvents[E]) => void): () => void;
  /** The executor's state now (active step, waiting steps, running plans). */
  state(): ExecutorState;
  /** The state plus the per-capability SLA (what `/api/cognitive/health` serves). */
  health(): HealthReport;
  readonly metrics: ExecutorMetrics;
  readonly policy: ExecutorPolicy;
  readonly registry: CapabilityRegistry<Body>;
  /** The clock its watchdogs, outcome timestamps and event times read (`systemClock` unless `clock` was given). */
  readonly clock: Clock;
  /** Aborts the active step, refuses new plans, flushes and closes provenance sinks. */
  close(): Promise<void>;
}
