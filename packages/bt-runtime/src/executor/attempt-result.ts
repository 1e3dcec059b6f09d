import { describeError, MAX_TIMER_MS, RunnerResultSchema, runnerStepFailure, stepFailure, type Blackboard, type Capability, type PlanStep, type Predicate, type StepFailure, type StepInfo } from '@sinew/executor-contracts';
import type { ActuatorSource } from '../body/instrument.js';
import { z } from 'zod';
import type { ProvenanceRecord, TraceEntry } from '../provenance/provenance.js';
import { stopFailure } from './plan-context.js';
import type { ExecutorPolicy } from './policy.js';
import type { StepCall } from './runtime.js';
import { safeRead } from './safe.js';
import type { PredicateEvaluator, StepRef } from './types.js';

/** Why an attempt's signal was aborted; `signal.reason` is one of these. */
export class StepAbortError extends Error {
  override readonly name = 'StepAbortError';
  constructor(
    readonly code: 'ttfa_exceeded' | 'stuck' | 'timeout' | 'preempted' | 'aborted' | 'body_disconnected',
    message: string,
  ) {
    super(message);
  }
}

export type TripCode = StepAbortError['code'];

/** How an attempt ended (its TTFA and the phase it ended in are read from the attempt). */
export type AttemptResult =
  | { readonly kind: 'ok'; readonly observables?: Record<string, unknown>; readonly acceptance?: ProvenanceRecord['acceptance'] }
  | { readonly kind: 'failed'; readonly failure: StepFailure; readonly acceptance?: ProvenanceRecord['acceptance'] }
  | { readonly kind: 'preempted' }
  | { readonly kind: 'aborted'; readonly failure: StepFailure };

/**
 * Who is told how an attempt ended. `ownJob`: it ended in a job of the attempt's own (its runner or an observe
 * settled), so the receiver may go on at once; otherwise it ended inside someone else's call (a watchdog, a trip,
 * the start), and the receiver goes on a microtask later, as a promise's reaction would.
 */
export interface AttemptReceiver {
  attemptEnded(result: AttemptResult, ownJob: boolean): void;
}

export interface AttemptLimits {
  readonly ttfaMs: number;
  readonly stuckMs: number;
  readonly timeoutMs: number;
  readonly graceMs: number;
  readonly traceLimit: number;
}

/** What the attempts of one step share: the actuator trace and the blackboard (created on first use). */
export interface StepScope {
  /** NO_TRACE until the first entry. */
  entries: TraceEntry[];
  dropped: number;
  /** The newest entry not kept (past the limit): what a watchdog's reason names as the step's last activity. */
  latest?: TraceEntry;
  readonly startedAt: number;
  blackboard?: Blackboard;
}

/** The trace of a step before its first entry (shared, frozen: the first entry replaces it). */
export const NO_TRACE: TraceEntry[] = Object.freeze([]) as unknown as TraceEntry[];

/** Adds an entry to the step's trace (past `limit` entries, counts it as dropped). */
export function traceActivity(scope: StepScope, limit: number, now: number, kind: TraceEntry['kind'], name: string, detail: string | undefined): void {
  const entries = scope.entries;
  const entry: TraceEntry = detail === undefined ? { atMs: now - scope.startedAt, kind, name } : { atMs: now - scope.startedAt, kind, name, detail };
  if (entries.length >= limit) {
    scope.dropped += 1;
    scope.latest = entry;
    return;
  }
  // The first entry gets an array of its own size (a push onto an empty array reserves 17 slots): most steps trace one command.
  if (entries.length === 0) scope.entries = [entry];
  else entries.push(entry);
}

/** Everything one attempt needs. */
export interface AttemptOptions<Body extends ActuatorSource> extends StepCall<Body> {
  readonly ref: StepRef;
  readonly info: StepInfo;
  readonly scope: StepScope;
  readonly limits: AttemptLimits;
  /** The step's declared effects, checked after acceptance. */
  readonly effects: { readonly evaluator: PredicateEvaluator<Body>; readonly list: readonly Predicate[]; readonly baseline: unknown } | undefined;
  /** A resume after a preemption: the interrupted attempt's `pre`, kept (no new observe) so what it did before counts. */
  readonly resumedPre?: ObservedPre | undefined;
  /** With `resumedPre`, the guard a resume failed: check acceptance against the kept `pre` and nothing else (its effect may be in place already). */
  readonly acceptOnly?: StepFailure | undefined;
}

/** An attempt's `pre` observation, boxed (observe may return undefined). */
export interface ObservedPre {
  readonly value: unknown;
}

/** What an acceptance that passed records; with the plain success verdict and the empty `pre`, shared: no object per attempt. */
export const ACCEPTED = { ok: true } as const;
export const SUCCEEDED: AttemptResult = Object.freeze({ kind: 'ok', acceptance: ACCEPTED });
export const NO_PRE: ObservedPre = Object.freeze({ value: undefined });

/** The verdict of a trip: preempted, the plan's stop reason (cancelled, closed, disconnected), or the watchdog's failure. */
export function trippedVerdict(o: AttemptOptions<ActuatorSource>, code: TripCode): AttemptResult {
  if (code === 'preempted') return { kind: 'preempted' };
  if (code === 'aborted' || code === 'body_disconnected') return { kind: 'aborted', failure: stopFailure(o.rt, o.planCtx) ?? stepFailure('aborted', 'the plan was cancelled') };
  return { kind: 'failed', failure: watchdogFailure(code, o.limits, o.scope) };
}

/** The attempt's deadlines: per-verb policy overrides, else the policy, with I2's timeout from expectedDurationMs. */
export function attemptLimits(policy: ExecutorPolicy, capability: Capability<never>, step: PlanStep): AttemptLimits {
  // A step without its own duration has its capability's limits: the last pair's are reused (steps in a row are mostly one capability's).
  if (step.expectedDurationMs !== undefined) return limitsOf(policy, capability, step);
  if (lastLimits.policy !== policy || lastLimits.capability !== capability) lastLimits = { policy, capability, limits: limitsOf(policy, capability, step) };
  return lastLimits.limits;
}

let lastLimits: { readonly policy: ExecutorPolicy | undefined; readonly capability: Capability<never> | undefined; readonly limits: AttemptLimits } = { policy: undefined, capability: undefined, limits: undefined! };

function limitsOf(policy: ExecutorPolicy, capability: Capability<never>, step: PlanStep): AttemptLimits {
  const overrides = policy.capabilities[capability.name];
  const expected = step.expectedDurationMs ?? capability.expectedDurationMs;
  const timeoutMs = overrides?.timeoutMs ?? (expected !== undefined ? expected * policy.timeoutMultiplier : policy.defaultTimeoutMs);
  return {
    ttfaMs: overrides?.ttfaMs ?? policy.ttfaMs,
    stuckMs: overrides?.stuckMs ?? policy.stuckMs,
    // A step may declare any duration; a timer holds at most MAX_TIMER_MS.
    timeoutMs: Math.min(timeoutMs, MAX_TIMER_MS),
    graceMs: policy.abortGraceMs,
    traceLimit: policy.traceLimit,
  };
}

/** A watchdog's failure: the limit that ran out and, from the step's trace, the last thing the step did (where it stopped). */
export function watchdogFailure(code: 'ttfa_exceeded' | 'stuck' | 'timeout', limits: AttemptLimits, scope?: StepScope): StepFailure {
  const last = scope === undefined ? '' : lastActivity(scope);
  switch (code) {
    case 'ttfa_exceeded':
      return stepFailure(code, `no actuator command within ${limits.ttfaMs} ms of dispatch${last}`);
    case 'stuck':
      return stepFailure(code, `no actuator command, node transition or progress for ${limits.stuckMs} ms${last}`);
    case 'timeout':
      return stepFailure(code, `attempt ran past its ${limits.timeoutMs} ms deadline${last}`);
  }
}

/**
 * The step's last activity, as a reason's tail: what it was and when (ms since the step started). Past a full trace it
 * is the newest entry not kept (a long step fills its trace early: its last kept entry says nothing of where it stopped).
 */
function lastActivity(scope: StepScope): string {
  const { entries, dropped } = scope;
  // `latest` is set only past a full trace (when `dropped` counts).
  const entry = scope.latest ?? entries[entries.length - 1];
  if (entry === undefined) return '; nothing traced since the step started';
  const what = `${entry.kind} "${clip(entry.name)}"${entry.detail === undefined ? '' : ` (${clip(entry.detail)})`} at ${entry.atMs} ms into the step`;
  return dropped > 0 ? `; the last activity was ${what} (the trace kept its first ${entries.length} entries, not the ${dropped} after)` : `; the last activity was ${what}`;
}

/** A trace name or detail as a reason quotes it: a progress note is the runner's own string, of any length. */
function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** A rejection as a runner_error: a safe description and the node path a behavior tree attached. */
export function thrownFailure(capability: string, error: unknown): StepFailure {
  const nodePath = safeRead(error, 'nodePath');
  return stepFailure('runner_error', `${capability} runner threw: ${describeError(error)}`, typeof nodePath === 'string' ? { nodePath } : {});
}

type Interpreted = { readonly ok: true; readonly observables?: Record<string, unknown> } | { readonly ok: false; readonly failure: StepFailure };

/** A runner's result with nothing in it (shared). */
const RAN: Interpreted = Object.freeze({ ok: true });

/** The runner's resolved value as ok or a coded failure; a value that throws when read is a runner_error. */
export function interpretRunnerResult(capability: string, value: unknown): Interpreted {
  // The common case (a runner that returns nothing) skips the schema.
  if (value === undefined) return RAN;
  try {
    return interpretParsed(capability, value);
  } catch (error) {
    return { ok: false, failure: stepFailure('runner_error', `${capability} runner returned a result that cannot be read: ${describeError(error)}`) };
  }
}

function interpretParsed(capability: string, value: unknown): Interpreted {
  const parsed = RunnerResultSchema.safeParse(value);
  if (!parsed.success) {
    return { ok: false, failure: stepFailure('runner_error', `${capability} runner returned a malformed result:\n${z.prettifyError(parsed.error)}`) };
  }
  const result = parsed.data;
  if (result === undefined) return { ok: true };
  if (result.ok) return result.observables ? { ok: true, observables: result.observables } : { ok: true };
  return { ok: false, failure: runnerStepFailure(result) };
}
