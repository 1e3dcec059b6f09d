import { describeError, type Capability, type Logger, type StepOutcome } from '@sinew/executor-contracts';
import type { Clock } from '../clock/clock.js';
import type { ExecutorMetrics } from '../metrics/metrics.js';
import { counterSeries, histogramSeries, type DeltaSeries, type HistogramSeries } from '../metrics/series.js';
import type { ProvenanceRecord, ProvenanceSink } from '../provenance/provenance.js';
import type { EventHub } from './events.js';
import type { HealthTracker, VersionHealth } from './health.js';
import { capLabel } from './plan-context.js';
import { buildOutcome, type Mutable, type StepEnd } from './step.js';

/** The series a finished step is counted in. */
interface StepSeries {
  readonly capability: string;
  readonly steps: DeltaSeries;
  readonly duration: HistogramSeries;
  readonly health: VersionHealth;
}

/** Stands for "no capability" (the verb did not resolve) as a cache key. */
const UNRESOLVED = {};

/** The one place a finished step is written: its outcome, metrics, health, provenance and event. */
export class StepReporter {
  /** Per capability, per outcome label (and code): its series. */
  readonly #series = new WeakMap<object, Map<string, StepSeries>>();
  readonly #ttfa = new WeakMap<object, HistogramSeries>();
  // The last capability's TTFA series and success series (steps in a row are mostly one capability's successes: no lookups).
  #lastTtfaOf: Capability<never> | undefined;
  #lastTtfa: HistogramSeries | undefined;
  #lastSucceededOf: unknown = UNRESOLVED; // never a capability, nor undefined (an unresolved verb's)
  #lastSucceeded: StepSeries | undefined;
  constructor(
    private readonly deps: {
      readonly clock: Clock;
      readonly metrics: ExecutorMetrics;
      readonly health: HealthTracker;
      readonly sinks: readonly ProvenanceSink[];
      readonly events: EventHub;
      readonly log: Logger;
    },
  ) {}

  /** Builds the step's outcome and records it everywhere. */
  end(end: StepEnd): StepOutcome {
    const outcome = buildOutcome(end, this.deps.clock.now());
    this.#count(end, outcome);
    if (this.deps.sinks.length > 0) this.#provenance(end, outcome);
    if (outcome.status === 'succeeded') this.deps.events.emit('step.succeeded', outcome);
    else if (outcome.status === 'failed') this.deps.events.emit('step.failed', outcome);
    return outcome;
  }

  #count(end: StepEnd, outcome: StepOutcome): void {
    const label = end.duplicate ? 'duplicate' : outcome.status;
    const series = this.#seriesOf(end.capability, label, end.duplicate ? 'duplicate' : outcome.failure?.code ?? 'none');
    series.steps.inc();
    series.duration.observe(Math.max(0, outcome.endedAt - outcome.startedAt) / 1000);
    // More than one attempt means at least one local retry (an interrupted attempt is not counted).
    if (!end.duplicate && outcome.attempts > 1) this.deps.metrics.stepsRetried.inc({ capability: series.capability, outcome: outcome.status });
    series.health.record(outcome);
  }

  /** The TTFA series of a capability (made once per capability, not per step). */
  ttfa(cap: Capability<never>): HistogramSeries {
    if (this.#lastTtfaOf === cap) return this.#lastTtfa!;
    let series = this.#ttfa.get(cap);
    if (!series) {
      const { name: capability, version } = cap;
      this.#ttfa.set(cap, (series = histogramSeries(this.deps.metrics.ttfa, `${capability}\0${version}`, { capability, version })));
    }
    this.#lastTtfaOf = cap;
    return (this.#lastTtfa = series);
  }

  /** The step series of a capability's outcome and code, made once (no per-step label objects or lookups). */
  #seriesOf(cap: Capability<never> | undefined, outcome: string, code: string): StepSeries {
    if (outcome === 'succeeded' && this.#lastSucceededOf === cap) return this.#lastSucceeded!;
    let byOutcome = this.#series.get(cap ?? UNRESOLVED);
    if (!byOutcome) this.#series.set(cap ?? UNRESOLVED, (byOutcome = new Map()));
    const key = outcome === 'succeeded' ? outcome : `${outcome}:${code}`;
    let series = byOutcome.get(key);
    if (!series) {
      const capability = cap?.name ?? 'unknown';
      const version = cap?.version ?? 'none';
      const { steps, stepDuration } = this.deps.metrics;
      series = {
        capability,
        health: this.deps.health.of(capability, version),
        steps: counterSeries(steps, `${capability}\0${version}\0${outcome}\0${code}`, { capability, version, outcome, code }),
        duration: histogramSeries(stepDuration, `${capability}\0${version}\0${outcome}`, { capability, version, outcome }),
      };
      byOutcome.set(key, series);
    }
    if (outcome === 'succeeded') {
      this.#lastSucceededOf = cap;
      this.#lastSucceeded = series;
    }
    return series;
  }

  #provenance(end: StepEnd, outcome: StepOutcome): void {
    const record = provenanceRecord(end, outcome);
    for (const sink of this.deps.sinks) {
      try {
        sink.write(record);
      } catch (error) {
        this.deps.log.error('provenance sink write failed', { error: describeError(error) });
      }
    }
  }

  /** Awaits every sink's flush (a plan's records are durable when its outcome is returned). */
  async flush(): Promise<void> {
    await Promise.all(this.deps.sinks.map((sink) => this.#guarded('flush', () => sink.flush?.())));
  }

  /** Closes every sink. */
  async close(): Promise<void> {
    await Promise.all(this.deps.sinks.map((sink) => this.#guarded('close', () => sink.close?.())));
  }

  async #guarded(what: string, call: () => Promise<void> | undefined): Promise<void> {
    try {
      await call();
    } catch (error) {
      this.deps.log.error(`provenance sink ${what} failed`, { error: describeError(error) });
    }
  }
}

/** A finished step's provenance record. The trace and failure lists belong to the finished step and are not touched again: no copies. */
function provenanceRecord(end: StepEnd, outcome: StepOutcome): ProvenanceRecord {
  const { planCtx, verb, capability, args, key, acceptance } = end;
  const { attempts, planId, stepId } = outcome;
  const intentId = planCtx.plan.intentId;
  const preemptions = end.preemptions ?? 0;
  const trace = end.trace ?? [];
  const traceDropped = end.traceDropped ?? 0;
  const failures = end.failures ?? (end.failure ? [end.failure] : []);
  const { preemptReason, intent } = planCtx;
  const { configHash } = planCtx.plan;
  // A run step's common record in one literal, in the general path's key order (fields added later would go to a separate property store).
  if (capability && args !== undefined && key && acceptance && preemptReason === undefined && intent?.provenanceRef === undefined && configHash === undefined) {
    return { intentId, planId, stepId, verb, attempts, preemptions, trace, traceDropped, failures, outcome, capability: capLabel(capability), args, idempotencyKey: key, acceptance };
  }
  const record: Mutable<ProvenanceRecord> = { intentId, planId, stepId, verb, attempts, preemptions, trace, traceDropped, failures, outcome };
  if (capability) record.capability = capLabel(capability);
  if (args !== undefined) record.args = args;
  if (key) record.idempotencyKey = key;
  if (acceptance) record.acceptance = acceptance;
  if (preemptReason !== undefined) record.preemptReason = preemptReason;
  if (intent?.provenanceRef !== undefined) record.provenanceRef = intent.provenanceRef;
  if (configHash !== undefined) record.configHash = configHash;
  return record;
}
