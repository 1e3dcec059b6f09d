import {
  checkArgs,
  checkStep,
  describeError,
  PlanSchema,
  runGuard,
  stepFailure,
  summarizeIssues,
  type Capability,
  type Logger,
  type Plan,
  type PlanStep,
  type PlanStepInput,
  type RepairResponse,
  type StepCheck,
  type StepFailure,
  type StepOutcome,
} from '@sinew/executor-contracts';
import { z } from 'zod';
import type { ActuatorCommand, ActuatorSource } from '../body/instrument.js';
import { systemClock, type Clock, type TimerHandle } from '../clock/clock.js';
import { createMetrics, labelValue, type ExecutorMetrics } from '../metrics/metrics.js';
import type { ProvenanceRecord, ProvenanceSink, TraceEntry } from '../provenance/provenance.js';
import { Attempt, type AttemptHost, type AttemptLimits, type AttemptResult, type StepScope } from './attempt.js';
import { HealthTracker } from './health.js';
import { backoffMs, executorPolicy, type ExecutorPolicy } from './policy.js';
import { StepSlot } from './slot.js';
import type {
  ActiveStepState,
  Executor,
  ExecutorEventName,
  ExecutorEvents,
  ExecutorOptions,
  ExecutorState,
  HealthReport,
  PlanOutcome,
  PlanStatus,
  RunOptions,
} from './types.js';

const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

interface PlanContext {
  readonly plan: Plan;
  readonly signal?: AbortSignal;
  /** Set for steps run by `preempt()`: they already hold the slot and are never interrupted. */
  readonly preemptReason?: string;
}

/** Book-keeping of the one active step (I1). */
interface ActiveStep {
  readonly planId: string;
  readonly stepId: string;
  readonly verb: string;
  readonly capability: Capability<unknown>;
  readonly fastPath: boolean;
  attempt: number;
  phase: ActiveStepState['phase'];
  sinceMs: number;
  /** The running attempt, when there is one. */
  running?: Attempt<unknown>;
  /** Cuts the backoff wait short, when the step is waiting between attempts. */
  wakeBackoff?: (how: 'preempted' | 'aborted') => void;
  readonly scope: StepScope;
  readonly startedAt: number;
}

/** A key in flight collects the steps that joined it; their promises are made only when someone joins. */
type IdempotencyEntry =
  | { readonly state: 'in_flight'; readonly joiners: ((outcome: StepOutcome) => void)[] }
  | { readonly state: 'completed'; readonly outcome: StepOutcome };

/**
 * Builds the Enhanced Reactive Executor for one body: V1–V3 checks, idempotency, watchdogs (TTFA,
 * stuck, timeout), acceptance, bounded retries and repair, preemption, metrics and provenance.
 *
 * @example
 * const executor = createExecutor({ registry, body: instrumentMethods(bot, ['dig']) });
 * const outcome = await executor.run({ planId: 'p1', intentId: 'i1', steps: [{ stepId: 's1', type: 'dig_block', args: {} }] });
 */
export function createExecutor<Body extends ActuatorSource>(options: ExecutorOptions<Body>): Executor<Body> {
  return new ReactiveExecutor(options);
}

class ReactiveExecutor<Body extends ActuatorSource> implements Executor<Body> {
  readonly metrics: ExecutorMetrics;
  readonly policy: ExecutorPolicy;
  readonly registry: ExecutorOptions<Body>['registry'];
  readonly #body: Body;
  readonly #clock: Clock;
  readonly #sinks: readonly ProvenanceSink[];
  readonly #repair: ExecutorOptions<Body>['repair'];
  readonly #log: Logger;
  readonly #slot = new StepSlot();
  readonly #listeners = new Map<ExecutorEventName, Set<(payload: never) => void>>();
  readonly #idempotency = new Map<string, IdempotencyEntry>();
  /** Steps whose shape PlanSchema already validated (plan steps, not repair or preemption steps). */
  readonly #validated = new WeakSet<object>();
  readonly #health = new HealthTracker();
  readonly #reasonLabels = new Set<string>();
  readonly #commandLabels = new Set<string>();
  readonly #unsubscribe: () => void;
  #active: ActiveStep | undefined;
  #live: Attempt<Body> | undefined;
  readonly #host: AttemptHost<Body>;
  #plansRunning = 0;
  #preempting = 0;
  #preemptSeq = 0;
  /** Reason of the latest preemption (reported with `step.preempted`). */
  #preemptReason: string | undefined;
  #closed = false;

  constructor(options: ExecutorOptions<Body>) {
    this.policy = executorPolicy(options.policy ?? {});
    this.registry = options.registry;
    this.#body = options.body;
    this.#clock = options.clock ?? systemClock;
    this.metrics = options.metrics ?? createMetrics();
    const sinks = options.provenance;
    this.#sinks = sinks === undefined ? [] : Array.isArray(sinks) ? [...(sinks as readonly ProvenanceSink[])] : [sinks as ProvenanceSink];
    this.#repair = options.repair;
    this.#log = options.logger ?? silentLogger;
    if (typeof this.#body?.onActuate !== 'function') {
      throw new TypeError('createExecutor: body has no onActuate(); wrap it with instrumentMethods(body, [...methods])');
    }
    this.#host = {
      clock: this.#clock,
      metrics: this.metrics,
      log: this.#log,
      body: this.#body,
      closed: () => this.#closed,
      setLive: (attempt) => (this.#live = attempt),
      firstAction: (command, ttfaMs) => {
        const active = this.#active;
        if (active && this.#listeners.has('step.first_action')) {
          this.#emit('step.first_action', { planId: active.planId, stepId: active.stepId, verb: active.verb, command, ttfaMs, attempt: active.attempt });
        }
      },
      transition: (event) => {
        if (this.#listeners.has('bt.transition')) this.#emit('bt.transition', event);
      },
    };
    this.#unsubscribe = this.#body.onActuate((command) => this.#onActuate(command));
  }

  on<E extends ExecutorEventName>(event: E, listener: (payload: ExecutorEvents[E]) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }

  state(): ExecutorState {
    const active = this.#active;
    return {
      status: this.#closed ? 'closed' : active || this.#plansRunning > 0 ? 'running' : 'idle',
      ...(active
        ? {
            activeStep: {
              planId: active.planId,
              stepId: active.stepId,
              verb: active.verb,
              capability: capLabel(active.capability),
              attempt: active.attempt,
              phase: active.phase,
              sinceMs: active.sinceMs,
              atomic: active.capability.atomic,
            },
          }
        : {}),
      waiting: this.#slot.waiting(),
      plansRunning: this.#plansRunning,
      preempting: this.#preempting > 0,
    };
  }

  health(): HealthReport {
    return { executor: this.state(), capabilities: this.#health.report() };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#interrupt(this.#active, 'aborted');
    this.#unsubscribe();
    await Promise.all(this.#sinks.map((sink) => sink.close?.().catch((error: unknown) => this.#log.error('provenance sink close failed', { error: describeError(error) }))));
  }

  async run(input: unknown, options: RunOptions = {}): Promise<PlanOutcome> {
    const startedAt = this.#clock.now();
    const parsed = PlanSchema.safeParse(input);
    if (!parsed.success || this.#closed) {
      const raw = (typeof input === 'object' && input !== null ? input : {}) as { planId?: unknown; intentId?: unknown };
      const failure = this.#closed
        ? stepFailure('aborted', 'the executor is closed')
        : stepFailure('invalid_args', `malformed plan:\n${z.prettifyError(parsed.error!)}`, { issues: summarizeIssues(parsed.error!.issues) });
      const outcome: PlanOutcome = {
        planId: typeof raw.planId === 'string' && raw.planId ? raw.planId : 'invalid',
        intentId: typeof raw.intentId === 'string' && raw.intentId ? raw.intentId : 'invalid',
        status: this.#closed ? 'aborted' : 'failed',
        steps: [],
        failure,
        repairs: 0,
        startedAt,
        endedAt: this.#clock.now(),
      };
      this.metrics.plans.inc({ status: outcome.status });
      this.#emit('plan.failed', outcome);
      return outcome;
    }
    const plan = parsed.data;
    this.#plansRunning += 1;
    try {
      return await this.#runPlan({ plan, ...(options.signal ? { signal: options.signal } : {}) }, startedAt);
    } finally {
      this.#plansRunning -= 1;
    }
  }

  async #runPlan(planCtx: PlanContext, startedAt: number): Promise<PlanOutcome> {
    const { plan, signal } = planCtx;
    this.#emit('plan.started', { planId: plan.planId, intentId: plan.intentId, steps: plan.steps.length });
    const queue: PlanStep[] = [...plan.steps];
    for (const step of plan.steps) this.#validated.add(step);
    const outcomes: StepOutcome[] = [];
    let repairs = 0;
    let status: PlanStatus = 'completed';
    let failure: StepFailure | undefined;
    let failedStepId: string | undefined;
    while (queue.length > 0) {
      if (signal?.aborted || this.#closed) {
        status = 'aborted';
        failure = stepFailure('aborted', this.#closed ? 'the executor was closed' : 'the plan was cancelled');
        break;
      }
      const step = queue.shift()!;
      const outcome = await this.#executeStep(planCtx, step);
      outcomes.push(outcome);
      if (outcome.status === 'succeeded') continue;
      const stepFailed = outcome.failure ?? stepFailure('runner_error', 'step ended without a failure record');
      if (stepFailed.code === 'aborted') {
        status = 'aborted';
        failure = stepFailed;
        failedStepId = outcome.stepId;
        break;
      }
      if (this.#repair && isRepairable(stepFailed) && outcome.status === 'failed') {
        const response = repairs < this.policy.maxRepairsPerPlan ? await this.#askRepair(plan, step, stepFailed, repairs) : undefined;
        if (response && response.steps.length > 0) {
          repairs += 1;
          queue.unshift(...response.steps, ...(response.replace ? [] : [step]));
          continue;
        }
      }
      status = 'failed';
      failure = stepFailed;
      failedStepId = outcome.stepId;
      break;
    }
    const outcome: PlanOutcome = {
      planId: plan.planId,
      intentId: plan.intentId,
      status,
      steps: outcomes,
      ...(failure ? { failure } : {}),
      ...(failedStepId ? { failedStepId } : {}),
      repairs,
      startedAt,
      endedAt: this.#clock.now(),
    };
    this.metrics.plans.inc({ status });
    await this.#flushSinks();
    this.#emit(status === 'completed' ? 'plan.completed' : 'plan.failed', outcome);
    return outcome;
  }

  /** Asks the repair hook, bounded by `repairTimeoutMs` (a planner that never answers must not hang the plan). */
  async #askRepair(plan: Plan, step: PlanStep, failure: StepFailure, repairsSoFar: number): Promise<RepairResponse | undefined> {
    let timer: TimerHandle | undefined;
    const timedOut = Symbol('timeout');
    try {
      const answer = Promise.resolve(this.#repair!.repair({ plan, step, failure, repairsSoFar }));
      const deadline = new Promise<typeof timedOut>((resolve) => (timer = this.#clock.setTimeout(() => resolve(timedOut), this.policy.repairTimeoutMs)));
      const response = await Promise.race([answer, deadline]);
      if (response === timedOut) {
        this.metrics.repairs.inc({ reason: failure.code, result: 'timeout' });
        this.#log.warn('repair hook did not answer in time', { stepId: step.stepId, timeoutMs: this.policy.repairTimeoutMs });
        return undefined;
      }
      this.metrics.repairs.inc({ reason: failure.code, result: response && response.steps.length > 0 ? 'steps' : 'none' });
      return response;
    } catch (error) {
      this.metrics.repairs.inc({ reason: failure.code, result: 'error' });
      this.#log.error('repair hook threw', { error: describeError(error), stepId: step.stepId });
      return undefined;
    } finally {
      if (timer !== undefined) this.#clock.clearTimeout(timer);
    }
  }

  async preempt(steps: readonly PlanStepInput[], options: { readonly reason: string }): Promise<StepOutcome[]> {
    // Nothing to run: interrupting the active step would only use up one of its resumes.
    if (steps.length === 0) return [];
    const reason = options.reason;
    this.metrics.preemptions.inc({ reason: labelValue(reason, this.#reasonLabels) });
    this.#preemptSeq += 1;
    this.#preemptReason = reason;
    const planId = `preempt-${this.#preemptSeq}`;
    const plan: Plan = { planId, intentId: `preempt:${reason}`.slice(0, 256), steps: [], planner: 'preemption' }; // steps are checked one by one below
    this.#preempting += 1;
    try {
      // Queue first (priority), then interrupt: the interrupted step yields the slot straight to us.
      const granted = this.#slot.acquire({ priority: true });
      const active = this.#active;
      // An atomic step finishes its attempt, but its retry backoff is not atomic work: wake it now.
      if (active && !active.fastPath && (!active.capability.atomic || active.phase === 'backoff')) this.#interrupt(active, 'preempted');
      await granted;
      const outcomes: StepOutcome[] = [];
      try {
        for (const step of steps) {
          if (this.#closed) break;
          outcomes.push(await this.#executeStep({ plan, preemptReason: reason }, step));
        }
      } finally {
        this.#slot.release();
      }
      await this.#flushSinks();
      return outcomes;
    } finally {
      this.#preempting -= 1;
    }
  }

  /** One step, start to end: checks, idempotency, slot, attempts with retries and resumes. Never throws. */
  async #executeStep(planCtx: PlanContext, rawStep: unknown): Promise<StepOutcome> {
    const startedAt = this.#clock.now();
    const { plan } = planCtx;
    // V1 + V2 (the guard runs once the step holds the slot, so it sees the body as it is then).
    const check = this.#validated.has(rawStep as object) ? this.#quickCheck(rawStep as PlanStep) : checkStep(this.registry, rawStep);
    if (!check.ok) {
      const raw = (typeof rawStep === 'object' && rawStep !== null ? rawStep : {}) as { stepId?: unknown; type?: unknown };
      const stepId = typeof raw.stepId === 'string' && raw.stepId ? raw.stepId.slice(0, 256) : 'invalid';
      const verb = typeof raw.type === 'string' ? raw.type.slice(0, 128) : '';
      const outcome: StepOutcome = { planId: plan.planId, stepId, verb, status: 'failed', failure: check.failure, attempts: 0, startedAt, endedAt: this.#clock.now() };
      this.#finish(planCtx, outcome, { verb, trace: [], traceDropped: 0, failures: [check.failure], preemptions: 0, args: undefined });
      return outcome;
    }
    const { step, capability, args } = check;
    const key = step.idempotencyKey ?? `${plan.planId}:${step.stepId}`;
    const known = this.#idempotency.get(key);
    if (known?.state === 'in_flight' && planCtx.preemptReason !== undefined) {
      // The in-flight attempt may be the very step this preemption interrupted: joining it would deadlock.
      const failure = stepFailure('duplicate', `idempotency key "${key}" is in flight in the interrupted step; not dispatched again`);
      const outcome: StepOutcome = { planId: plan.planId, stepId: step.stepId, verb: step.type, capability: capRef(capability), status: 'failed', failure, attempts: 0, startedAt, endedAt: this.#clock.now() };
      this.#finish(planCtx, outcome, { verb: step.type, capability, key, args, trace: [], traceDropped: 0, failures: [failure], preemptions: 0 });
      return outcome;
    }
    if (known) return this.#duplicate(planCtx, step, capability, key, known, startedAt);
    const entry = { state: 'in_flight' as const, joiners: [] as ((outcome: StepOutcome) => void)[] };
    this.#idempotency.set(key, entry);
    let outcome: StepOutcome | undefined;
    try {
      outcome = await this.#dispatch(planCtx, step, capability, args, key, startedAt);
      return outcome;
    } catch (error) {
      // Unreachable by design; kept so a bug still ends the step with a code (A2).
      const failure = stepFailure('runner_error', `executor error: ${describeError(error)}`);
      outcome = { planId: plan.planId, stepId: step.stepId, verb: step.type, capability: capRef(capability), status: 'failed', failure, attempts: 0, startedAt, endedAt: this.#clock.now() };
      this.#finish(planCtx, outcome, { verb: step.type, capability, key, args, trace: [], traceDropped: 0, failures: [failure], preemptions: 0 });
      return outcome;
    } finally {
      if (outcome?.status === 'succeeded') this.#remember(key, outcome);
      else this.#idempotency.delete(key);
      for (const join of entry.joiners) join(outcome!);
    }
  }

  async #duplicate(
    planCtx: PlanContext,
    step: PlanStep,
    capability: Capability<Body>,
    key: string,
    known: IdempotencyEntry,
    startedAt: number,
  ): Promise<StepOutcome> {
    const kind = known.state === 'completed' ? 'completed' : 'in_flight';
    this.metrics.duplicates.inc({ capability: capability.name, kind });
    const original = known.state === 'completed' ? known.outcome : await new Promise<StepOutcome>((resolve) => known.joiners.push(resolve));
    const of = `${original.planId}:${original.stepId}`;
    const outcome: StepOutcome = {
      ...original,
      planId: planCtx.plan.planId,
      stepId: step.stepId,
      verb: step.type,
      // A completed key answers with the recorded result; `duplicate` says it was not dispatched again.
      ...(original.status === 'succeeded'
        ? { failure: stepFailure('duplicate', `idempotency key "${key}" ${kind === 'completed' ? 'already completed' : 'was in flight'} as ${of}; not dispatched again`) }
        : {}),
      startedAt,
      endedAt: this.#clock.now(),
    };
    this.#finish(planCtx, outcome, {
      verb: step.type,
      capability,
      key,
      args: step.args,
      trace: [],
      traceDropped: 0,
      failures: outcome.failure ? [outcome.failure] : [],
      preemptions: 0,
      duplicate: true,
    });
    return outcome;
  }

  /** V1 + V2 for a step whose shape PlanSchema already checked; resolves once (alias uses are counted once). */
  #quickCheck(step: PlanStep): StepCheck<Body> {
    const resolution = this.registry.resolve(step.type, step.capabilityVersion);
    if (!resolution.ok) return checkStep(this.registry, step);
    const parsed = checkArgs(resolution.capability, step.args);
    if (!parsed.ok) return parsed;
    const { capability, alias } = resolution;
    return alias ? { ok: true, step, capability, args: parsed.args, alias } : { ok: true, step, capability, args: parsed.args };
  }

  #remember(key: string, outcome: StepOutcome): void {
    this.#idempotency.delete(key);
    this.#idempotency.set(key, { state: 'completed', outcome });
    while (this.#idempotency.size > this.policy.idempotencyCapacity) {
      const oldest = this.#firstCompletedKey();
      if (oldest === undefined) break;
      this.#idempotency.delete(oldest);
    }
  }

  #firstCompletedKey(): string | undefined {
    for (const [key, entry] of this.#idempotency) if (entry.state === 'completed') return key;
    return undefined;
  }

  async #dispatch(
    planCtx: PlanContext,
    step: PlanStep,
    capability: Capability<Body>,
    args: unknown,
    key: string,
    startedAt: number,
  ): Promise<StepOutcome> {
    const { plan, signal } = planCtx;
    const fastPath = planCtx.preemptReason !== undefined;
    const failures: StepFailure[] = [];
    const ref = { planId: plan.planId, stepId: step.stepId, verb: step.type };
    if (!fastPath) {
      const granted = await this.#slot.acquire(signal ? { signal } : {});
      if (!granted) {
        const failure = stepFailure('aborted', 'the plan was cancelled before the step started');
        const outcome: StepOutcome = { ...ref, capability: capRef(capability), status: 'failed', failure, attempts: 0, startedAt, endedAt: this.#clock.now() };
        this.#finish(planCtx, outcome, { verb: step.type, capability, key, args, trace: [], traceDropped: 0, failures: [failure], preemptions: 0 });
        return outcome;
      }
    }
    const active: ActiveStep = {
      planId: plan.planId,
      stepId: step.stepId,
      verb: step.type,
      capability: capability as Capability<unknown>,
      fastPath,
      attempt: 0,
      phase: 'starting',
      sinceMs: this.#clock.now(),
      scope: { entries: [], dropped: 0, startedAt },
      startedAt,
    };
    this.#active = active;
    this.metrics.activeSteps.inc();
    const maxRetries = Math.min(this.policy.maxLocalRetries, capability.retry?.maxLocalRetries ?? Number.POSITIVE_INFINITY);
    let retries = 0;
    let resumes = 0;
    let interrupted = false;
    let holding = !fastPath;
    let ttfaMs: number | undefined;
    let acceptance: ProvenanceRecord['acceptance'];
    const end = (status: StepOutcome['status'], failure?: StepFailure, observables?: Record<string, unknown>): StepOutcome => {
      const outcome: Mutable<StepOutcome> = {
        planId: ref.planId,
        stepId: ref.stepId,
        verb: ref.verb,
        capability: capRef(capability),
        status,
        attempts: active.attempt,
        startedAt,
        endedAt: this.#clock.now(),
      };
      if (failure) outcome.failure = failure;
      if (ttfaMs !== undefined) outcome.ttfaMs = ttfaMs;
      if (observables) outcome.observables = observables;
      this.#finish(planCtx, outcome, {
        verb: step.type,
        capability,
        key,
        args,
        trace: active.scope.entries,
        traceDropped: active.scope.dropped,
        failures,
        preemptions: resumes,
        acceptance,
      });
      return outcome;
    };
    try {
      for (;;) {
        if (signal?.aborted || this.#closed) {
          return end('failed', record(failures, stepFailure('aborted', this.#closed ? 'the executor was closed' : 'the plan was cancelled')));
        }
        // Safe point: a preemption queued while we were between attempts takes the body now.
        if (!fastPath && this.#slot.hasPriorityWaiter() && !interrupted) interrupted = true;
        if (interrupted) {
          interrupted = false;
          resumes += 1;
          const reason = this.#preemptReason ?? 'a preemption was waiting';
          if (resumes > this.policy.maxResumes) {
            const failure = record(failures, stepFailure('preempted', `interrupted ${resumes} times (maxResumes ${this.policy.maxResumes})`));
            const outcome = end('preempted', failure);
            this.#emit('step.preempted', { ...ref, reason, resumes, outcome });
            return outcome;
          }
          this.#emit('step.preempted', { ...ref, reason, resumes });
          active.phase = 'interrupted';
          this.#active = undefined;
          this.metrics.activeSteps.dec();
          this.#slot.release();
          holding = await this.#slot.acquire({ priority: true, ...(signal ? { signal } : {}) });
          if (!holding) return end('failed', record(failures, stepFailure('aborted', 'the plan was cancelled while preempted')));
          this.#active = active;
          this.metrics.activeSteps.inc();
          this.#emit('step.resumed', { ...ref, resumes });
        }
        // V3: the guard, re-run before every attempt (a resumed step re-guards).
        const guard = runGuard(capability, { body: this.#body }, args);
        if (guard) return end('failed', record(failures, guard));
        active.attempt += 1;
        active.phase = 'running';
        active.sinceMs = this.#clock.now();
        if (this.#listeners.has('step.dispatched')) this.#emit('step.dispatched', { ...ref, capability: capLabel(capability), attempt: active.attempt });
        const result = await this.#attemptOnce(active, planCtx, step, capability, args);
        active.running = undefined;
        ttfaMs = result.ttfaMs ?? ttfaMs;
        if ('acceptance' in result && result.acceptance) acceptance = result.acceptance;
        if (result.kind === 'ok') return end('succeeded', undefined, result.observables);
        if (result.kind === 'aborted') return end('failed', record(failures, result.failure));
        if (result.kind === 'preempted') {
          // An interrupted attempt is not a failed one: it does not use up a retry.
          active.attempt -= 1;
          interrupted = true;
          continue;
        }
        const failure = record(failures, result.failure);
        // Stuck from the watchdog (A4) or from a behavior tree's node limit (FM-03) alike.
        if (failure.code === 'stuck') this.metrics.stuck.inc({ capability: capability.name });
        if (!failure.retryable || retries >= maxRetries) return end('failed', failure);
        retries += 1;
        const wait = backoffMs(this.policy, retries, capability.retry?.backoffMs);
        this.metrics.retries.inc({ capability: capability.name, code: failure.code });
        this.#emit('step.retry', { ...ref, attempt: active.attempt + 1, failure, backoffMs: wait });
        active.phase = 'backoff';
        const woke = await this.#sleep(active, wait, signal);
        if (woke === 'preempted') interrupted = true;
      }
    } finally {
      if (this.#active === active) {
        this.#active = undefined;
        this.metrics.activeSteps.dec();
      }
      if (holding) this.#slot.release();
    }
  }

  /** Backoff that a preemption or cancellation cuts short. */
  #sleep(active: ActiveStep, ms: number, signal: AbortSignal | undefined): Promise<'elapsed' | 'preempted' | 'aborted'> {
    // A preemption that arrived as the attempt ended must not wait out the backoff (atomic steps yield here too).
    if (!active.fastPath && this.#slot.hasPriorityWaiter()) return Promise.resolve('preempted');
    if (signal?.aborted) return Promise.resolve('aborted');
    return new Promise((resolve) => {
      let timer: TimerHandle | undefined;
      const finish = (how: 'elapsed' | 'preempted' | 'aborted') => {
        if (timer !== undefined) this.#clock.clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        active.wakeBackoff = undefined;
        resolve(how);
      };
      const onAbort = () => finish('aborted');
      active.wakeBackoff = finish;
      signal?.addEventListener('abort', onAbort, { once: true });
      timer = this.#clock.setTimeout(() => finish('elapsed'), ms);
    });
  }

  /** Interrupts whatever the step is doing now: its attempt (at a safe point), or its backoff wait. */
  #interrupt(active: ActiveStep | undefined, code: 'preempted' | 'aborted'): void {
    if (!active) return;
    if (active.running) active.running.trip(code);
    else active.wakeBackoff?.(code);
  }

  /** One attempt with its watchdogs (see Attempt). */
  #attemptOnce(
    active: ActiveStep,
    planCtx: PlanContext,
    step: PlanStep,
    capability: Capability<Body>,
    args: unknown,
  ): Promise<AttemptResult> {
    const policy = this.policy;
    const overrides = policy.capabilities[capability.name];
    const expected = step.expectedDurationMs ?? capability.expectedDurationMs;
    const limits: AttemptLimits = {
      ttfaMs: overrides?.ttfaMs ?? policy.ttfaMs,
      stuckMs: overrides?.stuckMs ?? policy.stuckMs,
      timeoutMs: overrides?.timeoutMs ?? (expected !== undefined ? expected * policy.timeoutMultiplier : policy.defaultTimeoutMs),
      graceMs: policy.abortGraceMs,
      traceLimit: policy.traceLimit,
    };
    const info = { planId: active.planId, stepId: active.stepId, verb: capability.name, version: capability.version, attempt: active.attempt };
    const attempt = new Attempt<Body>(this.#host, capability, args, info, active.scope, limits, planCtx.signal);
    active.running = attempt as Attempt<unknown>;
    return attempt.start();
  }

  #onActuate(command: ActuatorCommand): void {
    const name = typeof command?.command === 'string' ? command.command : 'unknown';
    this.metrics.actuatorCommands.inc({ command: labelValue(name, this.#commandLabels, 64) });
    this.#live?.onActivity('command', name, typeof command?.detail === 'string' ? command.detail : undefined);
  }

  #finish(
    planCtx: PlanContext,
    outcome: StepOutcome,
    details: {
      verb: string;
      capability?: Capability<Body>;
      key?: string;
      args: unknown;
      trace: readonly TraceEntry[];
      traceDropped: number;
      failures: readonly StepFailure[];
      preemptions: number;
      acceptance?: ProvenanceRecord['acceptance'] | undefined;
      duplicate?: boolean;
    },
  ): void {
    const capName = details.capability?.name ?? 'unknown';
    const label = details.duplicate ? 'duplicate' : outcome.status;
    this.metrics.steps.inc({
      capability: capName,
      version: details.capability?.version ?? 'none',
      outcome: label,
      code: details.duplicate ? 'duplicate' : outcome.failure?.code ?? 'none',
    });
    this.metrics.stepDuration.observe({ capability: capName, outcome: label }, Math.max(0, outcome.endedAt - outcome.startedAt) / 1000);
    this.#health.record(capName, outcome);
    if (this.#sinks.length > 0) {
      // The trace and failure lists belong to the finished step and are not touched again: no copies.
      const record: Mutable<ProvenanceRecord> = {
        intentId: planCtx.plan.intentId,
        planId: outcome.planId,
        stepId: outcome.stepId,
        verb: details.verb,
        attempts: outcome.attempts,
        preemptions: details.preemptions,
        trace: details.trace,
        traceDropped: details.traceDropped,
        failures: details.failures,
        outcome,
      };
      if (details.capability) record.capability = capLabel(details.capability);
      if (details.args !== undefined) record.args = details.args;
      if (details.key) record.idempotencyKey = details.key;
      if (details.acceptance) record.acceptance = details.acceptance;
      if (planCtx.preemptReason !== undefined) record.preemptReason = planCtx.preemptReason;
      for (const sink of this.#sinks) {
        try {
          sink.write(record);
        } catch (error) {
          this.#log.error('provenance sink write failed', { error: describeError(error) });
        }
      }
    }
    if (outcome.status === 'succeeded') this.#emit('step.succeeded', outcome);
    else if (outcome.status === 'failed') this.#emit('step.failed', outcome);
  }

  async #flushSinks(): Promise<void> {
    await Promise.all(
      this.#sinks.map(async (sink) => {
        try {
          await sink.flush?.();
        } catch (error) {
          this.#log.error('provenance sink flush failed', { error: describeError(error) });
        }
      }),
    );
  }

  #emit<E extends ExecutorEventName>(event: E, payload: ExecutorEvents[E]): void {
    const set = this.#listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as (p: ExecutorEvents[E]) => void)(payload);
      } catch (error) {
        this.#log.error('executor event listener threw', { event, error: describeError(error) });
      }
    }
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const capRefs = new WeakMap<object, { readonly name: string; readonly version: string }>();

/** `{ name, version }` of a capability, one frozen object per capability. */
function capRef(capability: Capability<unknown>): { name: string; version: string } {
  let ref = capRefs.get(capability);
  if (!ref) {
    ref = Object.freeze({ name: capability.name, version: capability.version });
    capRefs.set(capability, ref);
  }
  return ref as { name: string; version: string };
}

const capLabels = new WeakMap<object, string>();

/** `name@version` of a capability, built once per capability. */
function capLabel(capability: Capability<unknown>): string {
  let label = capLabels.get(capability);
  if (label === undefined) {
    label = `${capability.name}@${capability.version}`;
    capLabels.set(capability, label);
  }
  return label;
}

function record(failures: StepFailure[], failure: StepFailure): StepFailure {
  failures.push(failure);
  return failure;
}

/** Failures the repair hook may answer: precond_missing (FM-02) and exhausted attempt failures. */
function isRepairable(failure: StepFailure): boolean {
  switch (failure.code) {
    case 'unknown_verb':
    case 'invalid_args':
    case 'guard_failed':
    case 'aborted':
    case 'preempted':
    case 'duplicate':
    case 'body_disconnected':
      return false;
    default:
      return true;
  }
}
