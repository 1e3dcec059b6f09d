import { Counter, Gauge, Histogram, Registry } from 'prom-client';

const STEP_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120];
const TTFA_SECONDS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 3, 5];

/** The executor's Prometheus metrics (`sinew_*`, base units, bounded labels — never ids). */
export interface ExecutorMetrics {
  readonly registry: Registry;
  /** Dispatch → first actuator command, seconds. Labels: capability. */
  readonly ttfa: Histogram<'capability'>;
  /** Step wall time, seconds. Labels: capability, outcome. */
  readonly stepDuration: Histogram<'capability' | 'outcome'>;
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
}

/** Creates the executor metrics in `registry` (default: a fresh Registry, never the global one). */
export function createMetrics(options: { registry?: Registry } = {}): ExecutorMetrics {
  const registry = options.registry ?? new Registry();
  const registers = [registry];
  return {
    registry,
    ttfa: new Histogram({ name: 'sinew_step_ttfa_seconds', help: 'Time from step dispatch to the first actuator command', labelNames: ['capability'], buckets: TTFA_SECONDS, registers }),
    stepDuration: new Histogram({ name: 'sinew_step_duration_seconds', help: 'Wall time of a step, all attempts', labelNames: ['capability', 'outcome'], buckets: STEP_SECONDS, registers }),
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
