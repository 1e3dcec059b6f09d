import { context, ROOT_CONTEXT, SpanStatusCode, trace, TraceFlags, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { StepFailure } from '@sinew/executor-contracts';
import type { ProvenanceRecord, ProvenanceSink } from '../provenance/provenance.js';

/** Options of {@link createOtelProvenance}. */
export interface OtelProvenanceOptions {
  /** The tracer spans go to; defaults to `provider.getTracer(...)`, else the global API tracer. */
  readonly tracer?: Tracer;
  /** Flushed on the sink's `flush`/`close` (e.g. an SDK `BasicTracerProvider`); not shut down. */
  readonly provider?: { getTracer(name: string, version?: string): Tracer; forceFlush?(): Promise<void> };
  /** Intent spans kept open across plans (same `intentId`); the oldest is ended past this (default 16). */
  readonly maxOpenIntents?: number;
  /**
   * The W3C `traceparent` a plan's spans join (a fleet worker's `traceParent`, carried in the queued job), so every
   * process that runs part of one plan adds to one trace; undefined: the active context, as without it.
   */
  readonly traceParent?: (ids: { readonly intentId: string; readonly planId: string }) => string | undefined;
}

interface OpenSpan {
  readonly span: Span;
  readonly ctx: Context;
  endedAt: number;
}

const TRACER_NAME = '@sinew/bt-runtime';

/**
 * A provenance sink exporting spans intent → plan → step → attempt. Plan spans end on `flush` (the
 * executor flushes at plan end); intent spans stay open for later plans of the same intent and end on
 * `close` or when more than `maxOpenIntents` are open. Timestamps are the records' clock times.
 */
export function createOtelProvenance(options: OtelProvenanceOptions = {}): ProvenanceSink {
  const maxOpenIntents = options.maxOpenIntents ?? 16;
  if (!(Number.isInteger(maxOpenIntents) && maxOpenIntents > 0)) throw new RangeError(`createOtelProvenance: maxOpenIntents must be a positive integer, got ${maxOpenIntents}`);
  const tracer = options.tracer ?? options.provider?.getTracer(TRACER_NAME) ?? trace.getTracer(TRACER_NAME);
  const intents = new Map<string, OpenSpan>();
  const plans = new Map<string, OpenSpan>();
  const open = (name: string, parent: Context, startTime: number, attributes: Attributes): OpenSpan => {
    const span = tracer.startSpan(name, { startTime, attributes }, parent);
    return { span, ctx: trace.setSpan(parent, span), endedAt: startTime };
  };
  const intentFor = (record: ProvenanceRecord): OpenSpan => {
    const remote = parseTraceParent(options.traceParent?.(record));
    // A plan joining a remote trace gets its own intent span in that trace.
    const key = remote ? `${record.intentId}\u0000${trace.getSpanContext(remote)!.traceId}` : record.intentId;
    let intent = intents.get(key);
    if (!intent) {
      intent = open(`intent ${record.intentId}`, remote ?? context.active(), record.outcome.startedAt, { 'sinew.intent.id': record.intentId });
      intents.set(key, intent);
      // Map order is insertion order: the first key is the oldest open intent.
      if (intents.size > maxOpenIntents) endOldestIntent(intents);
    }
    return intent;
  };
  const endPlans = (): void => {
    for (const plan of plans.values()) plan.span.end(plan.endedAt);
    plans.clear();
  };
  return {
    write(record) {
      const intent = intentFor(record);
      const key = `${record.intentId}\u0000${record.planId}`;
      let plan = plans.get(key);
      if (!plan) {
        plan = open(`plan ${record.planId}`, intent.ctx, record.outcome.startedAt, { 'sinew.intent.id': record.intentId, 'sinew.plan.id': record.planId });
        plans.set(key, plan);
      }
      writeStep(tracer, plan.ctx, record);
      plan.endedAt = Math.max(plan.endedAt, record.outcome.endedAt);
      intent.endedAt = Math.max(intent.endedAt, record.outcome.endedAt);
    },
    async flush() {
      endPlans();
      await options.provider?.forceFlush?.();
    },
    async close() {
      endPlans();
      for (const intent of intents.values()) intent.span.end(intent.endedAt);
      intents.clear();
      await options.provider?.forceFlush?.();
    },
  };
}

const TRACE_PARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A W3C traceparent (version 00) as a remote parent context; undefined when absent or malformed. */
function parseTraceParent(header: string | undefined): Context | undefined {
  const match = header === undefined ? null : TRACE_PARENT.exec(header);
  if (!match || /^0+$/.test(match[1]!) || /^0+$/.test(match[2]!)) return undefined;
  const traceFlags = Number.parseInt(match[3]!, 16) & TraceFlags.SAMPLED;
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: match[1]!, spanId: match[2]!, traceFlags, isRemote: true });
}

function endOldestIntent(intents: Map<string, OpenSpan>): void {
  const [oldestId, oldest] = intents.entries().next().value as [string, OpenSpan];
  oldest.span.end(oldest.endedAt);
  intents.delete(oldestId);
}

/** The step span, its trace entries as events, and one child span per attempt. */
function writeStep(tracer: Tracer, parent: Context, record: ProvenanceRecord): void {
  const { outcome } = record;
  const step = tracer.startSpan(`step ${record.verb}`, { startTime: outcome.startedAt, attributes: stepAttributes(record) }, parent);
  for (const entry of record.trace) {
    step.addEvent(`${entry.kind} ${entry.name}`, entry.detail === undefined ? {} : { 'sinew.detail': entry.detail }, outcome.startedAt + entry.atMs);
  }
  const stepCtx = trace.setSpan(parent, step);
  for (let n = 1; n <= outcome.attempts; n += 1) {
    const last = n === outcome.attempts;
    // Earlier attempts all failed; the last one ended with the step's status and failure.
    const failure = last ? outcome.failure : record.failures[n - 1];
    const status = last ? outcome.status : 'failed';
    // The record holds no per-attempt times, so each attempt span carries the step's interval.
    const attempt = tracer.startSpan(`attempt ${n}`, { startTime: outcome.startedAt, attributes: { 'sinew.attempt': n, 'sinew.status': status, ...failureAttributes(failure) } }, stepCtx);
    setStatus(attempt, status, failure);
    attempt.end(outcome.endedAt);
  }
  setStatus(step, outcome.status, outcome.failure);
  step.end(outcome.endedAt);
}

function stepAttributes(record: ProvenanceRecord): Attributes {
  const { outcome } = record;
  const attributes: Attributes = {
    'sinew.intent.id': record.intentId,
    'sinew.plan.id': record.planId,
    'sinew.step.id': record.stepId,
    'sinew.verb': record.verb,
    'sinew.status': outcome.status,
    'sinew.attempts': outcome.attempts,
    'sinew.preemptions': record.preemptions,
    'sinew.duration_ms': Math.max(0, outcome.endedAt - outcome.startedAt),
    ...failureAttributes(outcome.failure),
  };
  if (record.capability !== undefined) attributes['sinew.capability'] = record.capability;
  if (outcome.ttfaMs !== undefined) attributes['sinew.ttfa_ms'] = outcome.ttfaMs;
  if (record.idempotencyKey !== undefined) attributes['sinew.idempotency_key'] = record.idempotencyKey;
  if (record.preemptReason !== undefined) attributes['sinew.preempt_reason'] = record.preemptReason;
  if (record.traceDropped > 0) attributes['sinew.trace_dropped'] = record.traceDropped;
  return attributes;
}

function failureAttributes(failure: StepFailure | undefined): Attributes {
  return failure ? { 'sinew.error.code': failure.code, 'sinew.error.retryable': failure.retryable } : {};
}

function setStatus(span: Span, status: string, failure: StepFailure | undefined): void {
  if (status === 'succeeded') span.setStatus({ code: SpanStatusCode.OK });
  else if (failure) span.setStatus({ code: SpanStatusCode.ERROR, message: `${failure.code}: ${failure.reason}` });
  // A preempted step without a failure is neither OK nor an error: its status stays unset.
}
