import { describeError, stepFailure, type Capability, type SafetyLevel, type StepFailure, type StepOutcome } from '@sinew/executor-contracts';
import type { ActuatorSource } from '../body/instrument.js';
import type { ProvenanceRecord } from '../provenance/provenance.js';
import type { Attempt } from './attempt.js';
import { handedOver, handOver, newAttempt, type AttemptOf, type SettleOutcome } from './attempt-start.js';
import type { InFlight } from './idempotency.js';
import { NO_TRACE, type AttemptResult, type ObservedPre, type StepScope } from './attempt-result.js';
import { stopFailure } from './plan-context.js';
import { backoffMs, stepBackoff, type Wake } from './policy.js';
import type { takeBaseline } from './predicates.js';
import { activate, deactivate, releasePulse, type ActiveStep, type StepRunOptions } from './runtime.js';
import { effectiveSafetyLevel, heldWaitMs, stepRank } from './safety-level.js';
import { guardFailure } from './step-checks.js';
import { Phase, shownPhase, transition, NO_FAILURES, type StepPhase } from './step.js';
import type { ActiveStepState, StepRef } from './types.js';

/** What an attempt's result means for the loop: the step's outcome, or go round again. */
type Next = StepOutcome | undefined;

/** One step's machine after its checks (phases, edges: step.ts): slot, guard → attempt → retry after backoff, yielding to preemptions and resuming, until it ends. */
export class StepRun<Body extends ActuatorSource> implements ActiveStep<Body>, AttemptOf {
  readonly ref: StepRef;
  readonly capability: Capability<Body>;
  readonly fastPath: boolean;
  readonly rank: number;
  readonly #level: SafetyLevel;
  attempt = 0;
  #sinceMs: number;
  #phase: StepPhase = Phase.queued;
  /** The running attempt, when there is one (its own phase is the step's then). */
  #running: Attempt<Body> | undefined;
  /** The trace and blackboard its attempts share. */
  readonly scope: StepScope;
  /** Every failure of every attempt (made at the first one: most steps have none). */
  #failures: StepFailure[] | undefined;
  readonly #maxRetries: number;
  #retries = 0;
  #resumes = 0;
  #holding = false;
  #ttfaMs: number | undefined;
  #acceptance: ProvenanceRecord['acceptance'];
  /** The evaluator's baseline, taken before the first attempt (gains count from it), and a preempted attempt's `pre`, which its resume continues from. */
  baseline: ReturnType<typeof takeBaseline> | undefined;
  resumedPre: ObservedPre | undefined;
  /** A resume's failed guard: its effect may have happened before the preemption, so its attempt only checks acceptance against `resumedPre`. */
  acceptOnly: StepFailure | undefined;
  /** Cuts the backoff wait short, when the step is waiting between attempts. */
  #wake: ((how: Wake) => void) | undefined;
  /** Where the running attempt's end goes: run()'s promise (its first attempt), or the loop that awaits it. */
  #settleRun: SettleOutcome | undefined;
  #attemptDone: ((result: AttemptResult) => void) | undefined;

  /** `flight`: the step's idempotency key, settled as the step ends (a canary trial settles it after its verdict instead). */
  constructor(private readonly o: StepRunOptions<Body>, private readonly flight?: InFlight) {
    this.ref = { planId: o.planCtx.plan.planId, stepId: o.step.stepId, verb: o.step.type };
    this.capability = o.capability;
    this.fastPath = o.planCtx.preemptReason !== undefined;
    this.rank = stepRank(o.step, o.planCtx.intent);
    this.#level = effectiveSafetyLevel(o.step, o.capability as Capability<never>);
    this.#sinceMs = o.startedAt;
    this.scope = { entries: NO_TRACE, dropped: 0, startedAt: o.startedAt };
    this.#maxRetries = Math.min(o.rt.policy.maxLocalRetries, o.capability.retry?.maxLocalRetries ?? Number.POSITIVE_INFINITY);
  }

  /** Since when the step is where `state()` shows it: its running attempt's start (read by the attempt as it dispatches: no clock read of its own), else the latest attempt's, else the step's. */
  get sinceMs(): number {
    return this.#running?.startedAt ?? this.#sinceMs;
  }

  /** The step's phase: the running attempt's while there is one. */
  get phase(): StepPhase {
    return this.#running?.phase ?? this.#phase;
  }

  shownPhase(): ActiveStepState['phase'] {
    return shownPhase(this.phase, this.attempt);
  }

  /** Runs the step to its end; never throws. The common case (a free slot, nothing to stop, yield to or hold for) has no async frame (attemptEnded). */
  run(): Promise<StepOutcome> {
    const { rt, planCtx } = this.o;
    if (this.fastPath || planCtx.signal?.aborted || stopFailure(rt, planCtx) || heldWaitMs(this.#level, rt) > 0 || !rt.slot.tryAcquire()) return this.#loop();
    this.#holding = true;
    this.#to(Phase.admitted);
    activate(rt, this);
    try {
      const guard = this.#guard();
      if (guard) return Promise.resolve(this.#done(this.#fail(guard)));
      const ran = new Promise<StepOutcome>(handOver);
      this.#settleRun = handedOver;
      this.#attemptOnce();
      return ran;
    } catch (error) {
      this.#settleRun = undefined;
      return Promise.resolve(this.#done(this.#bug(error)));
    }
  }

  /** The attempt ended: the loop awaiting it goes on, or run() after its first attempt: at once in the attempt's own job (no promise hop), else a microtask later as a promise's reaction would (concurrent plans interleave at hops). */
  attemptEnded(result: AttemptResult, ownJob: boolean): void {
    const settleRun = this.#settleRun;
    if (settleRun === undefined) return this.#attemptDone?.(result);
    this.#settleRun = undefined;
    if (ownJob) settleRun(this.#afterFirst(result));
    else queueMicrotask(() => settleRun(this.#afterFirst(result)));
  }

  /** The first attempt's end outside the loop: the step's end, or the loop takes over (a retry's backoff, a resume). */
  #afterFirst(result: AttemptResult): StepOutcome | Promise<StepOutcome> {
    try {
      const next = this.#afterAttempt(result);
      return next === undefined || next instanceof Promise ? this.#loop(next ?? 'resume') : this.#done(next);
    } catch (error) {
      return this.#done(this.#bug(error));
    }
  }

  /** The step's loop from its start, or (`after`) from the end of an attempt begun by `run`. */
  async #loop(after?: Promise<Next> | 'resume'): Promise<StepOutcome> {
    const { rt, planCtx } = this.o;
    if (after === undefined && !this.fastPath) {
      // queued → admitted: a free slot is taken at once (no promise hop); a cancelled plan never takes it.
      this.#holding = !planCtx.signal?.aborted && rt.slot.tryAcquire();
      if (!this.#holding) this.#holding = await this.#queue();
      if (!this.#holding) return this.#fail(stopFailure(rt, planCtx) ?? stepFailure('aborted', 'the plan was cancelled before the step started'));
    }
    if (after === undefined) this.#to(Phase.admitted);
    if (after === undefined) activate(this.o.rt, this);
    try {
      const resumed = after instanceof Promise ? await after : undefined;
      if (resumed) return resumed;
      for (;;) {
        const stop = stopFailure(rt, planCtx);
        if (stop) return this.#fail(stop);
        if (this.#mustYield()) {
          const ended = await this.#yieldAndResume();
          if (ended) return ended;
          continue;
        }
        // A plain caution step (or with holds: 'all', any plan step) is not dispatched while a self-preservation preemption holds the body.
        const held = this.fastPath ? 0 : heldWaitMs(this.#level, rt);
        if (held > 0 && (await this.#sleep(held)) === 'preempted') this.#to(Phase.interrupted);
        if (held > 0) continue;
        const guard = (this.acceptOnly = this.#guard());
        if (guard && !this.resumedPre) return this.#fail(guard);
        const next = this.#afterAttempt(await new Promise<AttemptResult>((resolve) => ((this.#attemptDone = resolve), this.#attemptOnce())));
        const ended = next instanceof Promise ? await next : next;
        if (ended) return ended;
      }
    } catch (error) {
      return this.#bug(error);
    } finally {
      this.#done(undefined);
    }
  }

  /** The step left its loop: the body is no longer its own. */
  #done<T>(outcome: T): T {
    deactivate(this.o.rt, this, this.#running);
    if (this.#holding) this.o.rt.slot.release();
    return outcome;
  }

  /** Unreachable by design; kept so a bug still ends the step with a code (A2). */
  #bug(error: unknown): StepOutcome {
    return this.#fail(stepFailure('runner_error', `executor error: ${describeError(error)}`));
  }

  /** Waits for the slot behind the steps ahead; a higher rank asks the active step to yield at its next safe point. */
  #queue(): Promise<boolean> {
    const { rt, planCtx } = this.o;
    const granted = rt.slot.acquire({ rank: this.rank, ...(planCtx.signal ? { signal: planCtx.signal } : {}) });
    if (rt.active && this.rank > rt.active.rank) rt.active.yieldAtSafePoint();
    return granted;
  }

  /** At a safe point (admitted, backoff, interrupted): whether the step gives the body away now (a preemption queued while it was between attempts takes it). */
  #mustYield(): boolean {
    if (this.#phase !== Phase.interrupted && !this.fastPath && this.o.rt.slot.takeover(this.rank)) this.#to(Phase.interrupted);
    return this.#phase === Phase.interrupted;
  }

  /** V3: the guard, then the step's declared preconds, re-run before every attempt (a resumed step re-guards); runGuard never throws (contracts). */
  #guard(): StepFailure | undefined {
    this.#to(Phase.guarding);
    return guardFailure(this.o, this.#level, this);
  }

  /** The one place the step's own phase changes (an attempt moves through its phases itself, by the same edges). */
  #to(next: StepPhase): void {
    this.#phase = transition(this.#phase, next);
  }

  /** A preemption or a higher-priority step is waiting: stop at the next safe point. */
  yieldAtSafePoint(): void {
    // An atomic step finishes its attempt, but its retry backoff is not atomic work: wake it now.
    if (!this.fastPath && (!this.capability.atomic || this.#phase === Phase.backoff)) this.interrupt('preempted');
  }

  /** Interrupts whatever the step is doing now: its attempt (at a safe point), or its backoff wait. */
  interrupt(code: 'preempted' | 'aborted' | 'body_disconnected'): void {
    if (this.#running) this.#running.trip(code);
    else this.#wake?.(code === 'preempted' ? 'preempted' : 'aborted');
  }

  /** guarding → observing: one attempt with its watchdogs (see Attempt), the target of the actuator pulse while it runs; it is the running one before it starts. */
  #attemptOnce(): void {
    this.attempt += 1;
    this.#to(Phase.observing);
    (this.#running = newAttempt(this.o, this)).start();
  }

  /** Reads an attempt's result: the step's end, or a retry after backoff, or a resume after preemption. */
  #afterAttempt(result: AttemptResult): Next | Promise<Next> {
    const attempt = this.#running!;
    releasePulse(this.o.rt, attempt);
    this.#running = undefined;
    this.#sinceMs = attempt.startedAt ?? this.#sinceMs;
    this.#phase = attempt.endedIn; // the step takes over from the phase its attempt ended in
    this.#ttfaMs = attempt.ttfa() ?? this.#ttfaMs;
    if ('acceptance' in result && result.acceptance) this.#acceptance = result.acceptance;
    if (result.kind === 'ok') return this.#end('succeeded', undefined, result.observables);
    if (result.kind === 'aborted') return this.#fail(result.failure);
    // An interrupted attempt is not a failed one: it does not use up a retry, and its resume keeps its `pre`.
    this.resumedPre = result.kind === 'preempted' ? (attempt.pre ?? this.resumedPre) : undefined;
    if (result.kind === 'preempted') {
      this.attempt -= 1;
      this.#to(Phase.interrupted);
      return undefined;
    }
    // A resume's effect not in place: the step fails on its guard as before, the check's failure kept beside it.
    if (this.acceptOnly) (this.#failures ??= []).push(result.failure);
    return this.acceptOnly ? this.#fail(this.acceptOnly) : this.#retryOrFail(result.failure);
  }

  /** A failed attempt: the step fails, or waits out its backoff and goes round again (A3). */
  #retryOrFail(failure: StepFailure): Next | Promise<Next> {
    const { rt, capability } = this.o;
    // Stuck from the watchdog (A4) or from a behavior tree's node limit (FM-03) alike.
    if (failure.code === 'stuck') rt.metrics.stuck.inc({ capability: capability.name });
    if (!failure.retryable || this.#retries >= this.#maxRetries) return this.#fail(failure);
    (this.#failures ??= []).push(failure);
    this.#retries += 1;
    const wait = backoffMs(rt.policy, this.#retries, capability.retry?.backoff);
    rt.metrics.retries.inc({ capability: capability.name, code: failure.code });
    rt.events.emit('step.retry', { ...this.ref, attempt: this.attempt + 1, failure, backoffMs: wait });
    this.#to(Phase.backoff);
    return this.#sleep(wait).then((woke) => {
      if (woke === 'preempted') this.#to(Phase.interrupted);
      return undefined;
    });
  }

  /** interrupted → admitted: gives the body to the waiting preemption (bounded by maxResumes) or higher-priority step (not counted) and takes it back after. */
  async #yieldAndResume(): Promise<Next> {
    const { rt, planCtx } = this.o;
    const byPriority = rt.slot.takeover(this.rank) === 'priority';
    if (!byPriority) this.#resumes += 1;
    const reason = byPriority ? 'a higher-priority step was waiting' : rt.preemptReason ?? 'a preemption was waiting';
    if (this.#resumes > rt.policy.maxResumes) {
      const outcome = this.#end('preempted', stepFailure('preempted', `interrupted ${this.#resumes} times (maxResumes ${rt.policy.maxResumes})`));
      rt.events.emit('step.preempted', { ...this.ref, reason, resumes: this.#resumes, outcome });
      return outcome;
    }
    rt.events.emit('step.preempted', { ...this.ref, reason, resumes: this.#resumes });
    deactivate(this.o.rt, this, this.#running);
    rt.slot.release();
    const signal = planCtx.signal ? { signal: planCtx.signal } : {};
    this.#holding = await rt.slot.acquire(byPriority ? { rank: this.rank, ahead: true, ...signal } : { priority: true, ...signal });
    if (!this.#holding) return this.#fail(stopFailure(rt, planCtx) ?? stepFailure('aborted', 'the plan was cancelled while preempted'));
    activate(this.o.rt, this);
    // The next safe point re-checks close/disconnect/cancel before the next attempt: a resume never outlives close().
    rt.events.emit('step.resumed', { ...this.ref, resumes: this.#resumes });
    this.#to(Phase.admitted);
    return undefined;
  }

  /** Backoff that a preemption, cancellation, close or disconnect cuts short. */
  #sleep(ms: number): Promise<Wake> {
    // A preemption that arrived as the attempt ended must not wait out the backoff (atomic steps yield here too).
    return stepBackoff(this.o, !this.fastPath && this.o.rt.slot.takeover(this.rank) !== undefined, ms, (wake) => (this.#wake = wake));
  }

  #fail(failure: StepFailure): StepOutcome {
    return this.#end('failed', failure);
  }

  /** ended: the step's outcome, with every failure of every attempt in provenance (built by step.ts's buildOutcome; its StepEnd has every field). */
  #end(status: StepOutcome['status'], failure?: StepFailure, observables?: Record<string, unknown>): StepOutcome {
    const { rt, planCtx, capability, key, args, startedAt } = this.o;
    // A bug caught after the step ended still ends it once (run()'s last resort).
    if (this.#phase !== Phase.ended) this.#to(Phase.ended);
    if (failure) (this.#failures ??= []).push(failure);
    const { entries, dropped } = this.scope;
    const traced = entries.length > 0 || dropped > 0;
    const outcome = rt.report.end({ planCtx, stepId: this.ref.stepId, verb: this.ref.verb, capability, status, failure, attempts: this.attempt, startedAt, ttfaMs: this.#ttfaMs, observables, key, args, trace: traced ? entries : undefined, traceDropped: traced ? dropped : undefined, failures: this.#failures ?? NO_FAILURES, preemptions: this.#resumes, acceptance: this.#acceptance, duplicate: undefined });
    this.flight?.end(outcome);
    return outcome;
  }
}
