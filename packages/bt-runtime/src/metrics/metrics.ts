import { ERROR_CODES, type Capability, type CapabilityRegistry, type ErrorCode } from '@sinew/executor-contracts';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

const STEP_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120];
const PLAN_STEPS = [1, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 50];
const TTFA_SECONDS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 3, 5];

/** The executor's Prometheus metrics (`sinew_*`, base units, bounded labels — never ids). */
export interface ExecutorMetrics {
  readonly registry: Registry;
  /** Dispatch → first actuator command, seconds. Labels: capability, version. */
  readonly ttfa: Histogram<'capability' | 'version'>;
  /** Step wall time, seconds. Labels: capability, version, outcome. */
  readonly stepDuration: Histogram<'capability' | 'version' | 'outcome'>;
  /** Finished steps. Labels: capability, version, outcome, code (`none` when it succeeded). */
  readonly steps: Counter<'capability' | 'version' | 'outcome' | 'code'>;
  /** Local retries. Labels: capability, code. */
  readonly retries: Counter<'capability' | 'code'>;
  /** Repairs asked of the repair hook. Labels: reason (the failure code), result (`steps` | `none` | `error` | `timeout`). */
  readonly repairs: Counter<'reason' | 'result'>;
  /** Stuck watchdog trips (A4, FM-03). Labels: capability. */
  readonly stuck: Counter<'capability'>;
  /** Watchdog trips of every kind. Labels: capability, code (ttfa_exceeded | stuck | timeout). */
  readonly watchdogTrips: Counter<'capability' | 'code'>;
  /** Preemptions. Labels: reason (normalised, at most 32 distinct values). */
  readonly preemptions: Counter<'reason'>;
  /** Idempotent hits (FM-05). Labels: capability, kind (`completed` | `in_flight`). */
  readonly duplicates: Counter<'capability' | 'kind'>;
  /** Runners that ignored an abort past the grace period. Labels: capability. */
  readonly abandonedRunners: Counter<'capability'>;
  /** Results that arrived after their attempt was over and were dropped. Labels: capability. */
  readonly lateResults: Counter<'capability'>;
  /** Actuator commands seen from the body. Labels: command. */
  readonly actuatorCommands: Counter<'command'>;
  /** Commands refused because they came through the body view of an attempt that was already over. Labels: capability. */
  readonly staleActuations: Counter<'capability'>;
  /** Times the body disconnected (kicked, server closed, connection error). */
  readonly bodyDisconnects: Counter;
  /** Steps currently active (0 or 1 per executor: I1). */
  readonly activeSteps: Gauge;
  /** Finished plans. Labels: status. */
  readonly plans: Counter<'status'>;
  /** Plans that needed at least one repair, by how they ended (repair rate = this / plans). Labels: status. */
  readonly plansRepaired: Counter<'status'>;
  /** Steps a completed plan ran (repairs included) — steps to success. Labels: goal (the intent's, bounded; `unspecified` without one). */
  readonly stepsToSuccess: Histogram<'goal'>;
  /** Steps that needed at least one local retry, by how they ended (retry success = succeeded / all). Labels: capability, outcome. */
  readonly stepsRetried: Counter<'capability' | 'outcome'>;
  /** Canary decisions. Labels: capability, version (the canary's), decision (promoted | demoted | fallback: a canary step that failed before acting, re-run on the stable version). */
  readonly canaryDecisions: Counter<'capability' | 'version' | 'decision'>;
  /** Shadow canaries: whether the canary's guard agreed with what the stable version did. Labels: capability, version (the canary's), verdict (agree | disagree). */
  readonly canaryShadow: Counter<'capability' | 'version' | 'verdict'>;
  /** Journal records that did not land (disk full, file-size limit, short write, I/O error). Labels: record (plan_start | step | plan_end | compaction). */
  readonly journalWriteFailures: Counter<'record'>;
  /** Behavior-tree node transitions (FM-03's heartbeat). Labels: capability, state (ready | running | succeeded | failed | aborted | other). */
  readonly btTransitions: Counter<'capability' | 'state'>;
}

/** Creates the executor metrics in `registry` (default: a fresh Registry, never the global one). */
export function createExecutorMetrics(options: { registry?: Registry } = {}): ExecutorMetrics {
  const registry = options.registry ?? new Registry();
  const registers = [registry];
  return {
    registry,
    ttfa: new Histogram({ name: 'sinew_step_ttfa_seconds', help: 'Time from step dispatch to the first actuator command', labelNames: ['capability', 'version'], buckets: TTFA_SECONDS, registers }),
    stepDuration: new Histogram({ name: 'sinew_step_duration_seconds', help: 'Wall time of a step, all attempts', labelNames: ['capability', 'version', 'outcome'], buckets: STEP_SECONDS, registers }),
    steps: new Counter({ name: 'sinew_steps_total', help: 'Steps finished, by outcome and error code', labelNames: ['capability', 'version', 'outcome', 'code'], registers }),
    retries: new Counter({ name: 'sinew_step_retries_total', help: 'Local retries of a retryable failure', labelNames: ['capability', 'code'], registers }),
    repairs: new Counter({ name: 'sinew_plan_repairs_total', help: 'Repairs requested from the repair hook', labelNames: ['reason', 'result'], registers }),
    stuck: new Counter({ name: 'sinew_step_stuck_total', help: 'Stuck watchdog trips', labelNames: ['capability'], registers }),
    watchdogTrips: new Counter({ name: 'sinew_watchdog_trips_total', help: 'Watchdog trips by code', labelNames: ['capability', 'code'], registers }),
    preemptions: new Counter({ name: 'sinew_preemptions_total', help: 'Safety preemptions', labelNames: ['reason'], registers }),
    duplicates: new Counter({ name: 'sinew_step_duplicates_total', help: 'Steps answered from the idempotency store', labelNames: ['capability', 'kind'], registers }),
    abandonedRunners: new Counter({ name: 'sinew_runners_abandoned_total', help: 'Runners that ignored abort past the grace period', labelNames: ['capability'], registers }),
    lateResults: new Counter({ name: 'sinew_late_results_dropped_total', help: 'Runner results that arrived after their attempt ended', labelNames: ['capability'], registers }),
    actuatorCommands: new Counter({ name: 'sinew_actuator_commands_total', help: 'Actuator commands issued by the body', labelNames: ['command'], registers }),
    staleActuations: new Counter({ name: 'sinew_stale_actuations_total', help: 'Commands refused: issued through the body view of an attempt already over', labelNames: ['capability'], registers }),
    bodyDisconnects: new Counter({ name: 'sinew_body_disconnects_total', help: 'Times the body disconnected', registers }),
    activeSteps: new Gauge({ name: 'sinew_active_steps', help: 'Steps currently active', registers }),
    plans: new Counter({ name: 'sinew_plans_total', help: 'Plans finished, by status', labelNames: ['status'], registers }),
    plansRepaired: new Counter({ name: 'sinew_plans_repaired_total', help: 'Plans that needed at least one repair, by status', labelNames: ['status'], registers }),
    journalWriteFailures: new Counter({ name: 'sinew_journal_write_failures_total', help: 'Journal records that did not land', labelNames: ['record'], registers }),
    stepsToSuccess: new Histogram({ name: 'sinew_plan_steps_to_success', help: 'Steps a completed plan ran, repairs included', labelNames: ['goal'], buckets: PLAN_STEPS, registers }),
    stepsRetried: new Counter({ name: 'sinew_steps_retried_total', help: 'Steps that needed at least one local retry, by outcome', labelNames: ['capability', 'outcome'], registers }),
    canaryDecisions: new Counter({ name: 'sinew_canary_decisions_total', help: 'Canary decisions: promoted, demoted, fallback to the stable version', labelNames: ['capability', 'version', 'decision'], registers }),
    canaryShadow: new Counter({ name: 'sinew_canary_shadow_total', help: 'Shadow canary verdicts beside the stable version: agree or disagree', labelNames: ['capability', 'version', 'verdict'], registers }),
    btTransitions: new Counter({ name: 'sinew_bt_node_transitions_total', help: 'Behavior-tree node transitions', labelNames: ['capability', 'state'], registers }),
  };
}

const SAFE_LABEL = /^[A-Za-z0-9_.:-]{1,64}$/;

/** A bounded label value: identifier-like text kept as is, free text normalised, at most `cap` distinct values. */
export function labelValue(text: string, seen: Set<string>, cap = 32): string {
  const token = SAFE_LABEL.test(text)
    ? text
    : text.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40) || 'unspecified';
  if (seen.has(token)) return token;
  if (seen.size >= cap) return 'other';
  seen.add(token);
  return token;
}

const CODES = Object.keys(ERROR_CODES) as ErrorCode[];
const RETRYABLE = CODES.filter((code) => ERROR_CODES[code].retryable);
/** Failures the repair hook is asked about (see the executor's isRepairable). */
const REPAIRABLE: readonly ErrorCode[] = ['precond_missing', 'ttfa_exceeded', 'stuck', 'timeout', 'effects_unmet', 'runner_error'];
const WATCHDOG_CODES = ['ttfa_exceeded', 'stuck', 'timeout'] as const;
const PLAN_STATUSES = ['completed', 'failed', 'aborted'] as const;
/** The `state` label of sinew_bt_node_transitions_total; anything else a runner reports is `other`. */
export const BT_STATES = ['ready', 'running', 'succeeded', 'failed', 'aborted', 'other'] as const;

/** The bounded `state` label of a node transition. */
export function btState(state: string | undefined): (typeof BT_STATES)[number] {
  return (BT_STATES as readonly string[]).includes(state ?? '') ? (state as (typeof BT_STATES)[number]) : 'other';
}

/** Histogram series already primed, per metrics object: `zero()` resets a series, so a second executor sharing the metrics must not call it again. */
const primedSeries = new WeakMap<object, Set<string>>();

/** Creates a histogram series at 0 unless it was already created (never resets one that holds observations). */
export function zeroOnce<L extends string>(histogram: Histogram<L>, labels: Record<L, string>): void {
  let primed = primedSeries.get(histogram);
  if (!primed) primedSeries.set(histogram, (primed = new Set()));
  const key = JSON.stringify(labels);
  if (primed.has(key)) return;
  primed.add(key);
  histogram.zero(labels);
}

/** The `outcome` label of sinew_steps_total: a StepOutcome status, or `duplicate` when the idempotency store answered. */
export const STEP_OUTCOMES = ['succeeded', 'failed', 'preempted', 'duplicate'] as const;

/**
 * Sets every series of the executor-wide label sets to 0, so a first event is a change Prometheus can
 * see (`rate`/`increase` never see a series that appears with its first event already counted).
 */
export function primeExecutorMetrics(metrics: ExecutorMetrics): void {
  for (const status of PLAN_STATUSES) for (const counter of [metrics.plans, metrics.plansRepaired]) counter.inc({ status }, 0);
  zeroOnce(metrics.stepsToSuccess, { goal: 'unspecified' });
  for (const record of JOURNAL_RECORDS) metrics.journalWriteFailures.inc({ record }, 0);
  for (const reason of REPAIRABLE) for (const result of ['steps', 'none', 'error', 'timeout']) metrics.repairs.inc({ reason, result }, 0);
  // Steps that fail before a capability is resolved (V1/V2).
  for (const code of ['unknown_verb', 'invalid_args']) metrics.steps.inc({ capability: 'unknown', version: 'none', outcome: 'failed', code }, 0);
  zeroOnce(metrics.stepDuration, { capability: 'unknown', version: 'none', outcome: 'failed' });
}

/**
 * Every known series at 0 from the start: the executor-wide ones, the body's actuator `commands` (already
 * label values) and each capability of `registry`, including those registered later (returns that unsubscribe).
 */
export function primeMetrics<Body>(metrics: ExecutorMetrics, registry: CapabilityRegistry<Body>, commands: readonly string[]): (() => void) | undefined {
  primeExecutorMetrics(metrics);
  for (const command of commands) metrics.actuatorCommands.inc({ command }, 0);
  const prime = (capability: Capability<Body>) => primeCapabilityMetrics(metrics, capability, registry.canary?.(capability.name)?.capability === capability);
  for (const capability of registry.capabilities()) prime(capability);
  return typeof registry.onRegister === 'function' ? registry.onRegister(prime) : undefined;
}

/** The `record` label of sinew_journal_write_failures_total. */
export const JOURNAL_RECORDS = ['plan_start', 'step', 'plan_end', 'compaction'] as const;

/** The `decision` label of sinew_canary_decisions_total. */
export const CANARY_DECISIONS = ['promoted', 'demoted', 'fallback'] as const;

/** Sets every series of one capability (steps by outcome × code, durations, TTFA, watchdogs, retries…) to 0. */
export function primeCapabilityMetrics(metrics: ExecutorMetrics, capability: { readonly name: string; readonly version: string }, canary = false): void {
  const { name, version } = capability;
  const step = (outcome: string, code: string) => metrics.steps.inc({ capability: name, version, outcome, code }, 0);
  step('succeeded', 'none');
  step('duplicate', 'duplicate');
  step('preempted', 'preempted');
  for (const code of CODES) step('failed', code);
  for (const outcome of STEP_OUTCOMES) zeroOnce(metrics.stepDuration, { capability: name, version, outcome });
  zeroOnce(metrics.ttfa, { capability: name, version });
  for (const outcome of ['succeeded', 'failed', 'preempted']) metrics.stepsRetried.inc({ capability: name, outcome }, 0);
  for (const state of BT_STATES) metrics.btTransitions.inc({ capability: name, state }, 0);
  for (const code of RETRYABLE) metrics.retries.inc({ capability: name, code }, 0);
  for (const code of WATCHDOG_CODES) metrics.watchdogTrips.inc({ capability: name, code }, 0);
  for (const kind of ['completed', 'in_flight']) metrics.duplicates.inc({ capability: name, kind }, 0);
  if (canary) {
    for (const decision of CANARY_DECISIONS) metrics.canaryDecisions.inc({ capability: name, version, decision }, 0);
    for (const verdict of ['agree', 'disagree']) metrics.canaryShadow.inc({ capability: name, version, verdict }, 0);
  }
  for (const counter of [metrics.stuck, metrics.abandonedRunners, metrics.lateResults, metrics.staleActuations]) counter.inc({ capability: name }, 0);
}
