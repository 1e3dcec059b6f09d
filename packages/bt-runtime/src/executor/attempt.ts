import {
  createBlackboard,
  describeError,
  checkAcceptance,
  isRetryable,
  RunnerResultSchema,
  stepFailure,
  type Blackboard,
  type Capability,
  type ErrorCode,
  type Logger,
  type Predicate,
  type StepFailure,
  type StepInfo,
} from '@sinew/executor-contracts';
import { z } from 'zod';
import { leasedView, type ActuatorLease, type ActuatorSource } from '../body/instrument.js';
import { sleepOn, type Clock, type TimerHandle } from '../clock/clock.js';
import { btState } from '../metrics/metrics.js';
import type { ProvenanceRecord, TraceEntry } from '../provenance/provenance.js';
import { stopFailure, type PlanContext, type Runtime, type StepCall } from './runtime.js';
import { isThenable, safeRead } from './safe.js';
import { unmetPredicates } from './predicates.js';
import type { ExecutorRunContext, PredicateEvaluator, StepRef } from './types.js';

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

export type AttemptResult =
  | { readonly kind: 'ok'; readonly observables?: Record<string, unknown>; readonly ttfaMs?: number; readonly acceptance?: ProvenanceRecord['acceptance'] }
  | { readonly kind: 'failed'; readonly failure: StepFailure; readonly ttfaMs?: number; readonly acceptance?: ProvenanceRecord['acceptance'] }
  | { readonly kind: 'preempted'; readonly ttfaMs?: number }
  | { readonly kind: 'aborted'; readonly failure: StepFailure; readonly ttfaMs?: number };

export interface AttemptLimits {
  readonly ttfaMs: number;
  readonly stuckMs: number;
  readonly timeoutMs: number;
  readonly graceMs: number;
  readonly traceLimit: number;
}

/** What the attempts of one step share: the actuator trace and the blackboard (created on first use). */
export interface StepScope {
  readonly entries: TraceEntry[];
  dropped: number;
  readonly startedAt: number;
  blackboard?: Blackboard;
}

/** Everything one attempt needs. */
export interface AttemptOptions<Body extends ActuatorSource> extends StepCall<Body> {
  readonly ref: StepRef;
  readonly info: StepInfo;
  readonly scope: StepScope;
  readonly limits: AttemptLimits;
  /** The step's declared effects, checked after acceptance. */
  readonly effects?: { readonly evaluator: PredicateEvaluator<Body>; readonly list: readonly Predicate[]; readonly baseline: unknown };
}

/**
 * One attempt at a step with its watchdogs. A single timer serves TTFA, stuck and timeout (re-armed
 * lazily), so an actuator command costs no timer work. Resolves exactly once; never waits forever;
 * is the lease of its own body view (`ctx.body`), which refuses commands once the attempt is over.
 */
export class Attempt<Body extends ActuatorSource> implements ActuatorLease {
  over = false;
  // Created when the runner first reads `ctx.signal`: most short runners never do.
  #controller: AbortController | undefined;
  #abortReason: StepAbortError | undefined;
  readonly result: Promise<AttemptResult>;
  #resolve!: (result: AttemptResult) => void;
  #tripped: TripCode | 'finishing' | undefined;
  /** While an async observe() runs, only the timeout watches it (a hanging observe must not hang the step). */
  #observing = false;
  #runnerStarted = false;
  // Both set when the runner starts; nothing reads them before (one clock read less per attempt).
  #dispatchAt = 0;
  #firstActionAt: number | undefined;
  #lastActivity = 0;
  #ttfaAt = 0;
  #timeoutAt = 0;
  /** Whether this attempt holds a deadline on the executor's watchdog timer. */
  #armed = false;
  #graceTimer: TimerHandle | undefined;
  #pre: unknown;
  #observables: Record<string, unknown> | undefined;
  // Bound on first use, not as per-instance arrow fields (one closure fewer per attempt when unused).
  #onTimer: (() => void) | undefined;
  #onPlanAbort: (() => void) | undefined;

  constructor(private readonly o: AttemptOptions<Body>) {
    this.result = new Promise((resolve) => (this.#resolve = resolve));
  }

  get expired(): boolean {
    return this.over;
  }

  /** A command through this attempt's view after it ended: refused by the view, counted here. */
  stale(): void {
    this.o.rt.metrics.staleActuations.inc({ capability: this.o.capability.name });
  }

  /** Milliseconds from dispatch to the first actuator command, if there was one. */
  ttfa(): number | undefined {
    return this.#firstActionAt === undefined ? undefined : this.#firstActionAt - this.#dispatchAt;
  }

  /** Runs observe → runner → observe → acceptance under the watchdogs; resolves once, whatever user code does. */
  start(): Promise<AttemptResult> {
    try {
      const signal = this.o.planCtx.signal;
      if (signal) {
        if (signal.aborted) this.trip('aborted');
        else signal.addEventListener('abort', (this.#onPlanAbort = this.trip.bind(this, 'aborted')), { once: true });
      }
      if (!this.over) this.#observe('pre', this.#startRunner);
    } catch (error) {
      this.#settleError(error);
    }
    return this.result;
  }

  /** Arms the watchdogs and starts the runner; its settlement is read by #runnerSettled. */
  #startRunner(pre: unknown): void {
    this.#pre = pre;
    const now = this.o.rt.clock.now();
    this.#dispatchAt = this.#lastActivity = now;
    this.#ttfaAt = now + this.o.limits.ttfaMs;
    this.#timeoutAt = now + this.o.limits.timeoutMs;
    this.#arm(now);
    this.#runnerStarted = true;
    let runner: Promise<unknown>;
    try {
      runner = Promise.resolve(this.o.capability.run(new AttemptContext(this, this.o), this.o.args));
    } catch (error) {
      runner = Promise.reject(error);
    }
    runner.then(
      (value) => this.#guarded(this.#runnerSettled, value, undefined, false),
      (error: unknown) => this.#guarded(this.#runnerSettled, undefined, error, true),
    );
  }

  /** Runs a step of the attempt; an executor bug in it still ends the attempt with a code (A2), never a dropped rejection. */
  #guarded<A extends unknown[]>(step: (this: Attempt<Body>, ...args: A) => void, ...args: A): void {
    try {
      step.apply(this, args);
    } catch (error) {
      this.#settleError(error);
    }
  }

  /** An executor bug still ends the attempt with a code (A2). */
  #settleError(error: unknown): void {
    this.#settle({ kind: 'failed', failure: stepFailure('runner_error', `executor error: ${describeError(error)}`) });
  }

  /** An actuator command, BT node transition or progress note: resets the stuck watchdog. */
  onActivity(kind: TraceEntry['kind'], name: string, detail?: string): void {
    if (this.over || !this.#runnerStarted) return;
    const now = this.o.rt.clock.now();
    this.#lastActivity = now;
    const trace = this.o.scope;
    if (trace.entries.length >= this.o.limits.traceLimit) trace.dropped += 1;
    else trace.entries.push(detail === undefined ? { atMs: now - trace.startedAt, kind, name } : { atMs: now - trace.startedAt, kind, name, detail });
    if (kind === 'command' && this.#firstActionAt === undefined && this.#tripped === undefined) {
      this.#firstActionAt = now;
      const ttfaMs = now - this.#dispatchAt;
      const { rt, ref, info } = this.o;
      rt.report.ttfa(this.o.capability).observe(ttfaMs / 1000);
      if (rt.events.has('step.first_action')) rt.events.emit('step.first_action', { ...ref, command: name, ttfaMs, attempt: info.attempt });
    } else if (kind === 'transition') {
      this.o.rt.metrics.btTransitions.inc({ capability: this.o.capability.name, state: btState(detail) });
      if (this.o.rt.events.has('bt.transition')) this.o.rt.events.emit('bt.transition', { ...this.o.ref, attempt: this.o.info.attempt, nodePath: name, state: detail ?? '' });
    }
  }

  /** Aborts the runner with `code`; if it ignores the abort past the grace period it is abandoned. */
  trip(code: TripCode): void {
    if (this.over) return;
    const { rt, capability, info, limits } = this.o;
    // The body is gone or the executor closed: this verdict ends the attempt now, even one already in its grace period.
    const final = code === 'body_disconnected' || (code === 'aborted' && rt.closed);
    // Once the runner is done only a timeout (of the post-observe), a cancellation or a disconnect still counts.
    const finishing = this.#tripped === 'finishing';
    if (this.#tripped !== undefined && !final && !(finishing && code !== 'preempted')) return;
    this.#tripped = code;
    this.#clearTimer();
    if (code === 'ttfa_exceeded' || code === 'stuck' || code === 'timeout') rt.metrics.watchdogTrips.inc({ capability: capability.name, code });
    this.#abortReason = new StepAbortError(code, `step ${info.stepId} aborted: ${code}`);
    this.#controller?.abort(this.#abortReason);
    // Nothing the runner does after a final verdict may count (its view refuses it).
    if (!this.#runnerStarted || finishing || final) {
      this.#settle(this.#trippedResult(code));
      return;
    }
    this.#graceTimer = rt.clock.setTimeout(() => {
      if (this.over) return;
      // The runner ignored the abort: abandon it; whatever it returns later is dropped and counted.
      rt.metrics.abandonedRunners.inc({ capability: capability.name });
      rt.log.warn('runner ignored abort; abandoned', { stepId: info.stepId, capability: capability.name, code });
      this.#settle(this.#trippedResult(code));
    }, limits.graceMs);
  }

  /** The attempt's AbortSignal (aborted with a StepAbortError carrying the code). */
  signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#abortReason) this.#controller.abort(this.#abortReason);
    }
    return this.#controller.signal;
  }

  /** Calls observe() and hands its value to `next` (at once when synchronous; async ones run under the attempt timeout); a throw is a runner_error. */
  #observe(when: 'pre' | 'post', next: (this: Attempt<Body>, value: unknown) => void): void {
    let observed: unknown;
    try {
      observed = this.o.capability.observe({ body: this.o.rt.body }, this.o.args);
    } catch (error) {
      return this.#observeFailed(when, error);
    }
    if (!isThenable(observed)) return next.call(this, observed);
    this.#bounded(observed).then(
      (value) => {
        if (!this.over) this.#guarded(next, value);
      },
      (error: unknown) => this.#observeFailed(when, error),
    );
  }

  #observeFailed(when: 'pre' | 'post', error: unknown): void {
    if (!this.over) this.#settle({ kind: 'failed', failure: stepFailure('runner_error', `observe (${when}) of ${this.o.capability.name} threw: ${describeError(error)}`), ...this.#withTtfa() });
  }

  /** Awaits an async observe() under the attempt timeout. */
  async #bounded<T>(observed: PromiseLike<T>): Promise<T> {
    const now = this.o.rt.clock.now();
    this.#observing = true;
    this.#timeoutAt = now + this.o.limits.timeoutMs;
    this.#arm(now);
    try {
      return await observed;
    } finally {
      this.#observing = false;
      this.#clearTimer();
    }
  }

  #arm(now: number): void {
    const onTimer = (this.#onTimer ??= this.#check.bind(this));
    this.#armed = true;
    if (this.#observing) return this.o.rt.watchdog.set(onTimer, this.#timeoutAt, now);
    const stuckAt = this.#lastActivity + this.o.limits.stuckMs;
    let next = stuckAt < this.#timeoutAt ? stuckAt : this.#timeoutAt;
    if (this.#firstActionAt === undefined && this.#ttfaAt < next) next = this.#ttfaAt;
    this.o.rt.watchdog.set(onTimer, next, now);
  }

  #check(): void {
    this.#armed = false;
    if (this.over || (this.#tripped !== undefined && !this.#observing)) return;
    const now = this.o.rt.clock.now();
    if (this.#observing) {
      if (now >= this.#timeoutAt) this.trip('timeout');
      else this.#arm(now);
    } else if (this.#firstActionAt === undefined && now >= this.#ttfaAt) this.trip('ttfa_exceeded');
    else if (now >= this.#timeoutAt) this.trip('timeout');
    else if (now - this.#lastActivity >= this.o.limits.stuckMs) this.trip('stuck');
    else this.#arm(now);
  }

  #clearTimer(): void {
    if (this.#armed) {
      this.o.rt.watchdog.clear(this.#onTimer!);
      this.#armed = false;
    }
  }

  #withTtfa(): { ttfaMs?: number } {
    const ttfa = this.ttfa();
    return ttfa === undefined ? {} : { ttfaMs: ttfa };
  }

  #trippedResult(code: TripCode): AttemptResult {
    if (code === 'preempted') return { kind: 'preempted', ...this.#withTtfa() };
    if (code === 'aborted' || code === 'body_disconnected') {
      const failure = stopFailure(this.o.rt, this.o.planCtx) ?? stepFailure('aborted', 'the plan was cancelled');
      return { kind: 'aborted', failure, ...this.#withTtfa() };
    }
    return { kind: 'failed', failure: watchdogFailure(code, this.o.limits), ...this.#withTtfa() };
  }

  #settle(value: AttemptResult): void {
    if (this.over) return;
    this.over = true;
    this.#clearTimer();
    if (this.#graceTimer !== undefined) this.o.rt.clock.clearTimeout(this.#graceTimer);
    if (this.#onPlanAbort) this.o.planCtx.signal?.removeEventListener('abort', this.#onPlanAbort);
    this.#resolve(value);
  }

  /** The step's declared effects (V4 beyond the capability's own acceptance). */
  #effectsFailure(): StepFailure | undefined {
    const effects = this.o.effects;
    if (!effects) return undefined;
    const result = unmetPredicates(effects.evaluator, effects.list, this.o.rt.body, effects.baseline);
    if ('error' in result) return stepFailure('effects_unmet', `the predicate evaluator threw on the effects: ${result.error}`, { unmet: [] });
    return result.unmet.length > 0 ? stepFailure('effects_unmet', `declared effects not observed: ${result.unmet.join(', ')}`, { unmet: result.unmet }) : undefined;
  }

  #runnerSettled(value: unknown, error: unknown, threw: boolean): void {
    const { capability, rt, info } = this.o;
    if (this.over) {
      rt.metrics.lateResults.inc({ capability: capability.name });
      rt.log.warn('late runner result dropped', { capability: capability.name, stepId: info.stepId });
      return;
    }
    const code = this.#tripped;
    if (code !== undefined && code !== 'finishing') {
      // The watchdog's verdict stands, whatever the runner says after being aborted.
      this.#settle(this.#trippedResult(code));
      return;
    }
    // The runner is done acting: no watchdog or preemption may override its result now.
    this.#tripped = 'finishing';
    this.#clearTimer();
    const interpreted = threw ? { ok: false as const, failure: thrownFailure(capability.name, error) } : interpretRunnerResult(capability.name, value);
    if (!interpreted.ok) return this.#settle({ kind: 'failed', failure: interpreted.failure, ...this.#withTtfa() });
    this.#observables = interpreted.observables;
    this.#observe('post', this.#accept);
  }

  /** V4: the capability's acceptance, then the step's declared effects. */
  #accept(post: unknown): void {
    const observables = this.#observables;
    // checkAcceptance never throws, whatever acceptance returns (contracts).
    const unmet = checkAcceptance(this.o.capability, this.#pre, post, this.o.args) ?? this.#effectsFailure();
    if (unmet) return this.#settle({ kind: 'failed', failure: unmet, acceptance: { ok: false, unmet: unmet.unmet ?? [] }, ...this.#withTtfa() });
    // Assigned, not spread: this runs once per successful attempt.
    const ok: { kind: 'ok'; acceptance: typeof ACCEPTED; observables?: Record<string, unknown>; ttfaMs?: number } = { kind: 'ok', acceptance: ACCEPTED };
    if (observables) ok.observables = observables;
    const ttfa = this.ttfa();
    if (ttfa !== undefined) ok.ttfaMs = ttfa;
    this.#settle(ok);
  }
}

const ACCEPTED = { ok: true } as const;

/** The RunContext of one attempt (methods on the prototype: no closures per attempt). */
class AttemptContext<Body extends ActuatorSource> implements ExecutorRunContext<Body> {
  readonly log: Logger;
  readonly clock: Clock;
  readonly step: StepInfo;
  #body: Body | undefined;
  constructor(
    private readonly attempt: Attempt<Body>,
    private readonly o: AttemptOptions<Body>,
  ) {
    this.log = o.rt.log;
    this.clock = o.rt.clock;
    this.step = o.info;
  }
  /** This attempt's view of the body, made on first use: its commands count for this attempt only. */
  get body(): Body {
    return (this.#body ??= leasedView(this.o.rt.body, this.attempt));
  }
  get signal(): AbortSignal {
    return this.attempt.signal();
  }
  get blackboard(): Blackboard {
    return (this.o.scope.blackboard ??= createBlackboard());
  }
  progress(note?: string): void {
    this.attempt.onActivity('progress', typeof note === 'string' ? note : 'progress');
  }
  transition(nodePath: string, state: string): void {
    this.attempt.onActivity('transition', String(nodePath), String(state));
  }
  now(): number {
    return this.clock.now();
  }
  sleep(ms: number): Promise<void> {
    return sleepOn(this.clock, ms, this.signal);
  }
}

function watchdogFailure(code: 'ttfa_exceeded' | 'stuck' | 'timeout', limits: AttemptLimits): StepFailure {
  switch (code) {
    case 'ttfa_exceeded':
      return stepFailure(code, `no actuator command within ${limits.ttfaMs} ms of dispatch`);
    case 'stuck':
      return stepFailure(code, `no actuator command, node transition or progress for ${limits.stuckMs} ms`);
    case 'timeout':
      return stepFailure(code, `attempt ran past its ${limits.timeoutMs} ms deadline`);
  }
}

/** A rejection as a runner_error: a safe description and the node path a behavior tree attached. */
function thrownFailure(capability: string, error: unknown): StepFailure {
  const nodePath = safeRead(error, 'nodePath');
  return stepFailure('runner_error', `${capability} runner threw: ${describeError(error)}`, typeof nodePath === 'string' ? { nodePath } : {});
}

type Interpreted = { ok: true; observables?: Record<string, unknown> } | { ok: false; failure: StepFailure };

/** The runner's resolved value as ok or a coded failure; a value that throws when read is a runner_error. */
function interpretRunnerResult(capability: string, value: unknown): Interpreted {
  // The common case (a runner that returns nothing) skips the schema.
  if (value === undefined) return { ok: true };
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
  const code: ErrorCode = result.code ?? 'runner_error';
  return {
    ok: false,
    failure: stepFailure(code, result.reason, {
      retryable: result.retryable ?? isRetryable(code),
      ...(result.missing ? { missing: [...result.missing] } : {}),
      ...(result.nodePath ? { nodePath: result.nodePath } : {}),
    }),
  };
}
