import {
  checkAcceptance,
  describeError,
  ErrorCodeSchema,
  isRetryable,
  stepFailure,
  type Capability,
  type ErrorCode,
  type Logger,
  type StepFailure,
  type StepInfo,
} from '@sinew/executor-contracts';
import { z } from 'zod';
import type { Clock, TimerHandle } from '../clock/clock.js';
import type { ExecutorMetrics } from '../metrics/metrics.js';
import type { ProvenanceRecord, TraceEntry } from '../provenance/provenance.js';
import type { ExecutorEvents, ExecutorRunContext } from './types.js';

/** Why an attempt's signal was aborted; `signal.reason` is one of these. */
export class StepAbortError extends Error {
  override readonly name = 'StepAbortError';
  constructor(
    readonly code: 'ttfa_exceeded' | 'stuck' | 'timeout' | 'preempted' | 'aborted',
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

/** What an attempt needs from its executor. */
export interface AttemptHost<Body> {
  readonly clock: Clock;
  readonly metrics: ExecutorMetrics;
  readonly log: Logger;
  readonly body: Body;
  readonly closed: () => boolean;
  /** Routes the body's actuator commands to this attempt while it runs (undefined clears). */
  readonly setLive: (attempt: Attempt<Body> | undefined) => void;
  readonly firstAction: (command: string, ttfaMs: number) => void;
  /** Reports a behavior-tree node transition of a live attempt (the `bt.transition` event). */
  readonly transition: (event: ExecutorEvents['bt.transition']) => void;
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
  readonly entries: TraceEntry[];
  dropped: number;
  readonly startedAt: number;
  blackboard?: Map<string, unknown>;
}

/**
 * One attempt at a step with its watchdogs. A single timer serves TTFA, stuck and timeout (re-armed
 * lazily), so an actuator command costs no timer work. Resolves exactly once; never waits forever.
 */
export class Attempt<Body> {
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
  #dispatchAt: number;
  #firstActionAt: number | undefined;
  #lastActivity: number;
  #ttfaAt = 0;
  #timeoutAt = 0;
  #timer: TimerHandle | undefined;
  #graceTimer: TimerHandle | undefined;
  #pre: unknown;
  readonly #onTimer = () => this.#check();
  readonly #onPlanAbort = () => this.trip('aborted');

  constructor(
    private readonly host: AttemptHost<Body>,
    private readonly capability: Capability<Body>,
    private readonly args: unknown,
    private readonly info: StepInfo,
    private readonly trace: StepScope,
    private readonly limits: AttemptLimits,
    private readonly planSignal: AbortSignal | undefined,
  ) {
    this.result = new Promise((resolve) => (this.#resolve = resolve));
    this.#dispatchAt = this.#lastActivity = host.clock.now();
  }

  /** Milliseconds from dispatch to the first actuator command, if there was one. */
  ttfa(): number | undefined {
    return this.#firstActionAt === undefined ? undefined : this.#firstActionAt - this.#dispatchAt;
  }

  /** Runs observe → runner → observe → acceptance under the watchdogs; resolves once, whatever hangs. */
  start(): Promise<AttemptResult> {
    void this.#run();
    return this.result;
  }

  async #run(): Promise<void> {
    const { capability, host } = this;
    if (this.planSignal) {
      if (this.planSignal.aborted) this.trip('aborted');
      else this.planSignal.addEventListener('abort', this.#onPlanAbort, { once: true });
    }
    if (this.over) return;
    try {
      const pre = capability.observe({ body: host.body }, this.args);
      this.#pre = isThenable(pre) ? await this.#bounded(pre) : pre;
    } catch (error) {
      if (this.over) return;
      this.#settle({ kind: 'failed', failure: stepFailure('runner_error', `observe (pre) of ${capability.name} threw: ${describeError(error)}`) });
      return;
    }
    if (this.over) return;
    const clock = host.clock;
    const now = clock.now();
    this.#dispatchAt = this.#lastActivity = now;
    this.#ttfaAt = now + this.limits.ttfaMs;
    this.#timeoutAt = now + this.limits.timeoutMs;
    host.setLive(this);
    this.#arm(now);
    this.#runnerStarted = true;
    let runner: Promise<unknown>;
    try {
      runner = Promise.resolve(capability.run(new AttemptContext(this, host, this.info, this.trace), this.args));
    } catch (error) {
      runner = Promise.reject(error);
    }
    runner.then(
      (value) => this.#runnerSettled(value, undefined, false),
      (error: unknown) => this.#runnerSettled(undefined, error, true),
    );
  }

  /** An actuator command, BT node transition or progress note: resets the stuck watchdog. */
  onActivity(kind: TraceEntry['kind'], name: string, detail?: string): void {
    if (this.over) return;
    const now = this.host.clock.now();
    this.#lastActivity = now;
    const trace = this.trace;
    if (trace.entries.length >= this.limits.traceLimit) trace.dropped += 1;
    else trace.entries.push(detail === undefined ? { atMs: now - trace.startedAt, kind, name } : { atMs: now - trace.startedAt, kind, name, detail });
    if (kind === 'command' && this.#firstActionAt === undefined && this.#tripped === undefined) {
      this.#firstActionAt = now;
      const ttfa = now - this.#dispatchAt;
      this.host.metrics.ttfa.observe({ capability: this.capability.name }, ttfa / 1000);
      this.host.firstAction(name, ttfa);
    }
  }

  /** Aborts the runner with `code`; if it ignores the abort past the grace period it is abandoned. */
  trip(code: TripCode): void {
    if (this.over) return;
    // Once the runner is done only a timeout (of the post-observe) or a cancellation still counts.
    const finishing = this.#tripped === 'finishing';
    if (this.#tripped !== undefined && !(finishing && (code === 'timeout' || code === 'aborted'))) return;
    this.#tripped = code;
    this.#clearTimer();
    if (code === 'ttfa_exceeded' || code === 'stuck' || code === 'timeout') {
      this.host.metrics.watchdogTrips.inc({ capability: this.capability.name, code });
    }
    this.#abortReason = new StepAbortError(code, `step ${this.info.stepId} aborted: ${code}`);
    this.#controller?.abort(this.#abortReason);
    if (!this.#runnerStarted || finishing) {
      this.#settle(this.#trippedResult(code));
      return;
    }
    this.#graceTimer = this.host.clock.setTimeout(() => {
      if (this.over) return;
      // The runner ignored the abort: abandon it; whatever it returns later is dropped and counted.
      this.host.metrics.abandonedRunners.inc({ capability: this.capability.name });
      this.host.log.warn('runner ignored abort; abandoned', { stepId: this.info.stepId, capability: this.capability.name, code });
      this.#settle(this.#trippedResult(code));
    }, this.limits.graceMs);
  }

  /** The attempt's AbortSignal (aborted with a StepAbortError carrying the code). */
  signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#abortReason) this.#controller.abort(this.#abortReason);
    }
    return this.#controller.signal;
  }

  /** Awaits an async observe() under the attempt timeout. */
  async #bounded<T>(observed: PromiseLike<T>): Promise<T> {
    const now = this.host.clock.now();
    this.#observing = true;
    this.#timeoutAt = now + this.limits.timeoutMs;
    this.#arm(now);
    try {
      return await observed;
    } finally {
      this.#observing = false;
      this.#clearTimer();
    }
  }

  #arm(now: number): void {
    if (this.#observing) {
      this.#timer = this.host.clock.setTimeout(this.#onTimer, Math.max(0, this.#timeoutAt - now));
      return;
    }
    const stuckAt = this.#lastActivity + this.limits.stuckMs;
    let next = stuckAt < this.#timeoutAt ? stuckAt : this.#timeoutAt;
    if (this.#firstActionAt === undefined && this.#ttfaAt < next) next = this.#ttfaAt;
    this.#timer = this.host.clock.setTimeout(this.#onTimer, Math.max(0, next - now));
  }

  #check(): void {
    this.#timer = undefined;
    if (this.over || (this.#tripped !== undefined && !this.#observing)) return;
    const now = this.host.clock.now();
    if (this.#observing) {
      if (now >= this.#timeoutAt) this.trip('timeout');
      else this.#arm(now);
    } else if (this.#firstActionAt === undefined && now >= this.#ttfaAt) this.trip('ttfa_exceeded');
    else if (now >= this.#timeoutAt) this.trip('timeout');
    else if (now - this.#lastActivity >= this.limits.stuckMs) this.trip('stuck');
    else this.#arm(now);
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) {
      this.host.clock.clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }

  #trippedResult(code: TripCode): AttemptResult {
    const ttfa = this.ttfa();
    const withTtfa = ttfa === undefined ? {} : { ttfaMs: ttfa };
    if (code === 'preempted') return { kind: 'preempted', ...withTtfa };
    if (code === 'aborted') return { kind: 'aborted', failure: stepFailure('aborted', this.host.closed() ? 'the executor was closed' : 'the plan was cancelled'), ...withTtfa };
    return { kind: 'failed', failure: watchdogFailure(code, this.limits), ...withTtfa };
  }

  #settle(value: AttemptResult): void {
    if (this.over) return;
    this.over = true;
    this.#clearTimer();
    if (this.#graceTimer !== undefined) this.host.clock.clearTimeout(this.#graceTimer);
    this.planSignal?.removeEventListener('abort', this.#onPlanAbort);
    this.host.setLive(undefined);
    this.#resolve(value);
  }

  async #runnerSettled(value: unknown, error: unknown, threw: boolean): Promise<void> {
    const { capability } = this;
    if (this.over) {
      this.host.metrics.lateResults.inc({ capability: capability.name });
      this.host.log.warn('late runner result dropped', { capability: capability.name, stepId: this.info.stepId });
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
    const ttfa = this.ttfa();
    const withTtfa = ttfa === undefined ? {} : { ttfaMs: ttfa };
    if (threw) {
      const nodePath = (error as { nodePath?: unknown } | null)?.nodePath;
      this.#settle({
        kind: 'failed',
        failure: stepFailure('runner_error', `${capability.name} runner threw: ${describeError(error)}`, typeof nodePath === 'string' ? { nodePath } : {}),
        ...withTtfa,
      });
      return;
    }
    const interpreted = interpretRunnerResult(capability.name, value);
    if (!interpreted.ok) {
      this.#settle({ kind: 'failed', failure: interpreted.failure, ...withTtfa });
      return;
    }
    let post: unknown;
    try {
      post = capability.observe({ body: this.host.body }, this.args);
      if (isThenable(post)) post = await this.#bounded(post);
      if (this.over) return;
    } catch (error) {
      if (this.over) return;
      this.#settle({ kind: 'failed', failure: stepFailure('runner_error', `observe (post) of ${capability.name} threw: ${describeError(error)}`), ...withTtfa });
      return;
    }
    const unmet = checkAcceptance(capability, this.#pre, post, this.args);
    if (unmet) {
      this.#settle({ kind: 'failed', failure: unmet, acceptance: { ok: false, unmet: unmet.unmet ?? [] }, ...withTtfa });
      return;
    }
    this.#settle({ kind: 'ok', ...(interpreted.observables ? { observables: interpreted.observables } : {}), acceptance: ACCEPTED, ...withTtfa });
  }
}

const ACCEPTED = { ok: true } as const;

/** The RunContext of one attempt (methods on the prototype: no closures per attempt). */
class AttemptContext<Body> implements ExecutorRunContext<Body> {
  readonly body: Body;
  readonly log: Logger;
  readonly clock: Clock;
  constructor(
    private readonly attempt: Attempt<Body>,
    private readonly host: AttemptHost<Body>,
    readonly step: StepInfo,
    private readonly scope: StepScope,
  ) {
    this.body = host.body;
    this.log = host.log;
    this.clock = host.clock;
  }
  get signal(): AbortSignal {
    return this.attempt.signal();
  }
  get blackboard(): Map<string, unknown> {
    return (this.scope.blackboard ??= new Map());
  }
  progress(note?: string): void {
    this.attempt.onActivity('progress', note ?? 'progress');
  }
  transition(nodePath: string, state: string): void {
    if (this.attempt.over) return;
    this.attempt.onActivity('transition', nodePath, state);
    const { planId, stepId, verb, attempt } = this.step;
    this.host.transition({ planId, stepId, verb, attempt, nodePath, state });
  }
  now(): number {
    return this.clock.now();
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
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

const RunnerResultSchema = z.union([
  z.undefined(),
  z.object({ ok: z.literal(true), observables: z.record(z.string(), z.unknown()).optional() }),
  z.object({
    ok: z.literal(false),
    code: ErrorCodeSchema.optional(),
    reason: z.string(),
    retryable: z.boolean().optional(),
    missing: z.array(z.string()).optional(),
    nodePath: z.string().optional(),
  }),
]);

function interpretRunnerResult(
  capability: string,
  value: unknown,
): { ok: true; observables?: Record<string, unknown> } | { ok: false; failure: StepFailure } {
  // The common case (a runner that returns nothing) skips the schema.
  if (value === undefined) return { ok: true };
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
      ...(result.missing ? { missing: result.missing } : {}),
      ...(result.nodePath ? { nodePath: result.nodePath } : {}),
    }),
  };
}
