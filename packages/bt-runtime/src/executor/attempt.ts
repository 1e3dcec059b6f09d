import { describeError, checkAcceptance, stepFailure } from '@sinew/executor-contracts';
import type { ActuatorSource } from '../body/instrument.js';
import type { TimerHandle } from '../clock/clock.js';
import type { TraceEntry } from '../provenance/provenance.js';
import { guardedController } from './abort-listeners.js';
import { reportFirstAction, reportTransition } from './attempt-activity.js';
import { AttemptContext, type AttemptHandle } from './attempt-context.js';
import { interpretRunnerResult, StepAbortError, thrownFailure, traceActivity, trippedVerdict, type AttemptOptions, type AttemptReceiver, type AttemptResult, type ObservedPre, type TripCode, ACCEPTED, NO_PRE, SUCCEEDED } from './attempt-result.js';
import type { PulseReceiver } from './pulse.js';
import { isThenable } from './safe.js';
import { effectsFailure } from './predicates.js';
import { Phase, transition, type AttemptPhase } from './step.js';

/**
 * One attempt at a step with its watchdogs, in the step's phases observing → running → (grace | accepting) → ended. A single
 * timer serves TTFA, stuck and timeout (re-armed lazily), so an actuator command costs no timer work. Tells its receiver its end
 * exactly once; never waits forever; is the lease of its own body view (`ctx.body`), which refuses commands once the attempt is over.
 */
export class Attempt<Body extends ActuatorSource> implements AttemptHandle, PulseReceiver {
  #phase: AttemptPhase = Phase.observing;
  #endedIn: Exclude<AttemptPhase, typeof Phase.ended> = Phase.observing;
  /** The verdict of the watchdog, cancellation or preemption that aborted the runner, as of the trip (read in `grace`). */
  #verdict: AttemptResult | undefined;
  #controller: AbortController | undefined; // made when the runner first reads `ctx.signal` (most never do); its listeners guarded
  #abortReason: StepAbortError | undefined;
  /** True while a job of the attempt's own runs (its runner or an observe settled): its end is told at once, not inside a caller's call. */
  #inOwnJob = false;
  // Set when the runner starts; nothing reads them before (one clock read less per attempt).
  #dispatchAt = 0;
  /** When the attempt was first seen running on the clock (its async observe began, or its runner started): the step's `sinceMs`. */
  startedAt: number | undefined;
  #firstActionAt: number | undefined;
  #lastActivity = 0;
  #ttfaAt = 0;
  #timeoutAt = 0;
  /** Whether this attempt holds a deadline on the executor's watchdog timer. */
  #armed = false;
  #graceTimer: TimerHandle | undefined;
  /** The `pre` the runner started from (unset until it started): a resume after a preemption continues from it. */
  pre: ObservedPre | undefined;
  #observables: Record<string, unknown> | undefined;
  // Bound on first use, not as per-instance arrow fields (one closure fewer per attempt when unused).
  #onTimer: (() => void) | undefined;
  #onPlanAbort: (() => void) | undefined;

  constructor(
    private readonly o: AttemptOptions<Body>,
    private readonly receiver: AttemptReceiver,
  ) {}

  get phase(): AttemptPhase {
    return this.#phase;
  }

  /** The live phase the attempt ended in (the step's next phase is an edge from there); `observing` until it ends. */
  get endedIn(): Exclude<AttemptPhase, typeof Phase.ended> {
    return this.#endedIn;
  }

  get expired(): boolean {
    return this.#phase === Phase.ended;
  }

  /** A command through this attempt's view after it ended: refused by the view, counted here. */
  stale(): void {
    this.o.rt.metrics.staleActuations.inc({ capability: this.o.capability.name });
  }

  /** Milliseconds from dispatch to the first actuator command, if there was one. */
  ttfa(): number | undefined {
    return this.#firstActionAt === undefined ? undefined : this.#firstActionAt - this.#dispatchAt;
  }

  /** Runs observe → runner → observe → acceptance under the watchdogs; tells the receiver its end once, whatever user code does (a guard that cancelled, closed or lost the body ends it at once). */
  start(): void {
    try {
      const { planCtx: { signal }, rt } = this.o;
      if (signal?.aborted || rt.closed || rt.disconnected !== undefined) this.trip('aborted');
      else signal?.addEventListener('abort', (this.#onPlanAbort = this.trip.bind(this, 'aborted')), { once: true });
      const kept = this.o.resumedPre;
      if (this.#phase === Phase.ended) return;
      if (kept === undefined) this.#observe(this.#startRunner);
      else if (this.o.acceptOnly) this.#acceptKept(kept);
      else this.#startRunner(kept.value);
    } catch (error) {
      this.#settleError(error);
    }
  }

  /** The pulse: a command from the raw body or from this attempt's own view counts; a stale view's does not. */
  pulse(command: string, issuer: unknown, detail: string | undefined): void {
    if (issuer === undefined || issuer === this) this.onActivity('command', command, detail);
  }

  /** Arms the watchdogs and starts the runner; its settlement is read by #runnerSettled. */
  #startRunner(pre: unknown): void {
    this.pre = this.o.resumedPre ?? (pre === undefined ? NO_PRE : { value: pre });
    const now = this.o.rt.clock.now();
    this.startedAt ??= now;
    this.#dispatchAt = this.#lastActivity = now;
    this.#ttfaAt = now + this.o.limits.ttfaMs;
    this.#timeoutAt = now + this.o.limits.timeoutMs;
    this.#phase = transition(this.#phase, Phase.running);
    this.#arm(now);
    const { capability, rt, info, scope, args } = this.o;
    let runner: Promise<unknown>;
    try {
      runner = Promise.resolve(capability.run(new AttemptContext(this, rt.body, scope, info, rt.log, rt.clock), args));
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
    this.#inOwnJob = true;
    try {
      step.apply(this, args);
    } catch (error) {
      this.#settleError(error);
    } finally {
      this.#inOwnJob = false;
    }
  }

  /** An executor bug still ends the attempt with a code (A2). */
  #settleError(error: unknown): void {
    this.#settle({ kind: 'failed', failure: stepFailure('runner_error', `executor error: ${describeError(error)}`) });
  }

  /** An actuator command, BT node transition or progress note: resets the stuck watchdog. */
  onActivity(kind: TraceEntry['kind'], name: string, detail?: string): void {
    const phase = this.#phase;
    if (phase === Phase.observing || phase === Phase.ended) return;
    const now = this.o.rt.clock.now();
    this.#lastActivity = now;
    traceActivity(this.o.scope, this.o.limits.traceLimit, now, kind, name, detail);
    if (kind === 'command' && this.#firstActionAt === undefined && phase === Phase.running) {
      this.#firstActionAt = now;
      reportFirstAction(this.o, name, now - this.#dispatchAt, now);
    } else if (kind === 'transition') reportTransition(this.o, name, detail);
  }

  /** Aborts the runner with `code` under a verdict built now (a watchdog's reason names the activity before the trip, not the halt it causes); past the grace period it is abandoned. */
  trip(code: TripCode): void {
    const phase = this.#phase;
    if (phase === Phase.ended) return;
    const { rt, capability, info } = this.o;
    // The body is gone or the executor closed: this verdict ends the attempt now, even one already in its grace period.
    const final = code === 'body_disconnected' || (code === 'aborted' && rt.closed);
    // A verdict already stands in grace; once the runner is done (accepting) only a timeout, a cancellation or a disconnect still counts.
    if (!final && (phase === Phase.grace || (phase === Phase.accepting && code === 'preempted'))) return;
    const verdict = (this.#verdict = trippedVerdict(this.o, code));
    this.#clearTimer();
    if (code === 'ttfa_exceeded' || code === 'stuck' || code === 'timeout') rt.metrics.watchdogTrips.inc({ capability: capability.name, code });
    this.#abortReason = new StepAbortError(code, `step ${info.stepId} aborted: ${code}`);
    this.#controller?.abort(this.#abortReason);
    // Nothing the runner does after a final verdict may count (its view refuses it).
    if (phase !== Phase.running || final) return this.#settle(verdict);
    this.#phase = transition(phase, Phase.grace);
    this.#graceTimer = rt.clock.setTimeout(() => this.#abandon(code), this.o.limits.graceMs);
  }

  /** The runner ignored the abort past the grace period: abandoned; whatever it returns later is dropped and counted. */
  #abandon(code: TripCode): void {
    if (this.#phase === Phase.ended) return;
    const { rt, capability, info } = this.o;
    rt.metrics.abandonedRunners.inc({ capability: capability.name });
    rt.log.warn('runner ignored abort; abandoned', { stepId: info.stepId, capability: capability.name, code });
    this.#settle(this.#verdict!);
  }

  /** The attempt's AbortSignal (aborted with a StepAbortError carrying the code). */
  signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = guardedController(this.o);
      if (this.#abortReason) this.#controller.abort(this.#abortReason);
    }
    return this.#controller.signal;
  }

  /** Calls observe() and hands its value to `next` (at once when synchronous; async ones run under the attempt timeout); a throw is a runner_error. */
  #observe(next: (this: Attempt<Body>, value: unknown) => void): void {
    let observed: unknown;
    try {
      observed = this.o.capability.observe({ body: this.o.rt.body }, this.o.args);
    } catch (error) {
      return this.#observeFailed(error);
    }
    if (!isThenable(observed)) return next.call(this, observed);
    this.#bounded(observed).then(
      (value) => {
        if (this.#phase !== Phase.ended) this.#guarded(next, value);
      },
      (error: unknown) => this.#observeFailed(error),
    );
  }

  #observeFailed(error: unknown): void {
    if (this.#phase === Phase.ended) return;
    const when = this.#phase === Phase.observing ? 'pre' : 'post';
    this.#settle({ kind: 'failed', failure: stepFailure('runner_error', `observe (${when}) of ${this.o.capability.name} threw: ${describeError(error)}`) });
  }

  /** Awaits an async observe() under the attempt timeout (in `observing` and `accepting` only the timeout watches). */
  async #bounded<T>(observed: PromiseLike<T>): Promise<T> {
    const now = this.o.rt.clock.now();
    this.startedAt ??= now;
    this.#timeoutAt = now + this.o.limits.timeoutMs;
    this.#arm(now);
    try {
      return await observed;
    } finally {
      this.#clearTimer();
    }
  }

  #arm(now: number): void {
    const onTimer = (this.#onTimer ??= this.#check.bind(this));
    this.#armed = true;
    if (this.#phase !== Phase.running) return this.o.rt.watchdog.set(onTimer, this.#timeoutAt, now);
    const stuckAt = this.#lastActivity + this.o.limits.stuckMs;
    let next = stuckAt < this.#timeoutAt ? stuckAt : this.#timeoutAt;
    if (this.#firstActionAt === undefined && this.#ttfaAt < next) next = this.#ttfaAt;
    this.o.rt.watchdog.set(onTimer, next, now);
  }

  #check(): void {
    this.#armed = false;
    const phase = this.#phase;
    if (phase === Phase.ended || phase === Phase.grace) return;
    const now = this.o.rt.clock.now();
    if (phase !== Phase.running) {
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

  /** The one way an attempt ends: its verdict (the phase it ended in is kept for the step's next edge). */
  #settle(verdict: AttemptResult): void {
    const endedIn = this.#phase;
    if (endedIn === Phase.ended) return;
    this.#endedIn = endedIn;
    this.#phase = transition(endedIn, Phase.ended);
    this.#clearTimer();
    if (this.#graceTimer !== undefined) this.o.rt.clock.clearTimeout(this.#graceTimer);
    if (this.#onPlanAbort) this.o.planCtx.signal?.removeEventListener('abort', this.#onPlanAbort);
    this.receiver.attemptEnded(verdict, this.#inOwnJob);
  }

  #runnerSettled(value: unknown, error: unknown, threw: boolean): void {
    const { capability, rt, info } = this.o;
    if (this.#phase === Phase.ended) {
      rt.metrics.lateResults.inc({ capability: capability.name });
      rt.log.warn('late runner result dropped', { capability: capability.name, stepId: info.stepId });
      return;
    }
    // The watchdog's verdict stands, whatever the runner says after being aborted.
    if (this.#phase === Phase.grace) return this.#settle(this.#verdict!);
    // The runner is done acting: no watchdog or preemption may override its result now.
    this.#phase = transition(this.#phase, Phase.accepting);
    this.#clearTimer();
    const interpreted = threw ? { ok: false as const, failure: thrownFailure(capability.name, error) } : interpretRunnerResult(capability.name, value);
    if (!interpreted.ok) return this.#settle({ kind: 'failed', failure: interpreted.failure });
    this.#observables = interpreted.observables;
    this.#observe(this.#accept);
  }

  /** A resumed step whose guard no longer holds: only acceptance against the kept `pre` (its effect may be in place already), the runner not run again. */
  #acceptKept(kept: ObservedPre): void {
    this.pre = kept;
    this.#phase = transition(this.#phase, Phase.accepting);
    this.#observe(this.#accept);
  }

  /** V4: the capability's acceptance, then the step's declared effects. */
  #accept(post: unknown): void {
    const unmet = checkAcceptance(this.o.capability, this.pre?.value, post, this.o.args) ?? effectsFailure(this.o.effects, this.o.rt.body); // checkAcceptance never throws (contracts)
    if (unmet) return this.#settle({ kind: 'failed', failure: unmet, acceptance: { ok: false, unmet: unmet.unmet ?? [] } });
    const guard = this.o.acceptOnly;
    if (guard) traceActivity(this.o.scope, this.o.limits.traceLimit, this.o.rt.clock.now(), 'progress', 'accepted_on_resume', `acceptance held on resume without running (guard: ${guard.reason})`);
    const observables = this.#observables;
    this.#settle(observables ? { kind: 'ok', acceptance: ACCEPTED, observables } : SUCCEEDED);
  }
}

