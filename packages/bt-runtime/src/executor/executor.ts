import { stepFailure, type Intent, type Plan, type PlanStep, type PlanStepInput, type PreemptOptions, type StepFailure, type StepOutcome } from '@sinew/executor-contracts';
import { actuatorCommandNames, type ActuatorSource } from '../body/instrument.js';
import { systemClock, type Clock, type TimerHandle } from '../clock/clock.js';
import { createExecutorMetrics, labelValue, primeMetrics, zeroOnce, type ExecutorMetrics } from '../metrics/metrics.js';
import { gaugeSeries } from '../metrics/series.js';
import { PlanJournal } from '../journal/journal.js';
import type { ProvenanceSink } from '../provenance/provenance.js';
import { EventHub } from './events.js';
import { admitPlan, safeId } from './admission.js';
import { CanaryTrials } from './canary.js';
import { holdKey, type KeyHolders } from './hold-key.js';
import { HealthTracker } from './health.js';
import { IdempotencyStore } from './idempotency.js';
import { stepPredicates } from './predicates.js';
import { defineExecutorPolicy, type ExecutorPolicy } from './policy.js';
import { askRepair, isRepairable } from './repair.js';
import { StepReporter } from './report.js';
import { capLabel, stopFailure, type PlanContext } from './plan-context.js';
import { endPlan, journalFailed } from './plan-end.js';
import { ActuatorPulse } from './pulse.js';
import type { Runtime, StepRunOptions } from './runtime.js';
import { safeRead } from './safe.js';
import { holdBody } from './safety-level.js';
import { StepSlot } from './slot.js';
import { checkStepValue } from './step-checks.js';
import { WatchdogTimer } from './watchdog.js';
import type { Executor, ExecutorEventName, ExecutorEvents, ExecutorOptions, ExecutorState, HealthReport, PlanOutcome, PredicateEvaluator, RunOptions } from './types.js';

/** A preemption that holds the slot: a higher tier sets `outranked.by` and cancels its steps. */
interface RunningPreemption {
  readonly tier: number;
  readonly outranked: { by: string | undefined };
  readonly cancel: AbortController;
}

const silentLogger = { debug() {}, info() {}, warn() {}, error() {} };

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
  readonly clock: Clock;
  readonly #rt: Runtime<Body>;
  readonly #repair: ExecutorOptions<Body>['repair'];
  readonly #idempotency: IdempotencyStore;
  readonly #journal: PlanJournal | undefined;
  readonly #health = new HealthTracker();
  /** The idempotency store and the canary trials a step's key is held with (hold-key.ts). */
  readonly #keys: KeyHolders<Body>;
  readonly #reasonLabels = new Set<string>();
  readonly #goalLabels = new Set<string>();
  readonly #unsubscribe: (() => void)[] = [];
  #plansRunning = 0;
  #preempting = 0;
  #preemptSeq = 0;
  /** The preemption holding the slot: its tier, and how a higher tier stops it. */
  #preemption: RunningPreemption | undefined;

  constructor(options: ExecutorOptions<Body>) {
    this.policy = defineExecutorPolicy(options.policy ?? {});
    this.registry = options.registry;
    this.metrics = options.metrics ?? createExecutorMetrics();
    this.#repair = options.repair;
    const body = options.body;
    const signals = body?.sinew;
    if (typeof signals?.onActuate !== 'function') {
      throw new TypeError('createExecutor: body has no sinew.onActuate(); instrument it with instrumentMethods(body, [...methods]) (a mineflayer bot: bot.loadPlugin(sinew))');
    }
    const log = options.logger ?? silentLogger;
    const clock = (this.clock = options.clock ?? systemClock);
    const events = new EventHub(log);
    this.#journal = options.journal && new PlanJournal(options.journal, clock, log, { capacity: this.policy.idempotencyCapacity, onWriteFailed: (error) => journalFailed(this.metrics, events, error) });
    this.#idempotency = new IdempotencyStore(this.policy.idempotencyCapacity, this.#journal);
    const sinks = options.provenance === undefined ? [] : Array.isArray(options.provenance) ? [...(options.provenance as readonly ProvenanceSink[])] : [options.provenance as ProvenanceSink];
    const report = new StepReporter({ clock, metrics: this.metrics, health: this.#health, sinks, events, log });
    // The body's own evaluator checks that body, so it is an evaluator of Body.
    const predicates = options.predicates ?? (signals.predicates as PredicateEvaluator<Body> | undefined);
    this.#keys = { idempotency: this.#idempotency, canaries: new CanaryTrials({ registry: options.registry, health: this.#health, metrics: this.metrics, events, log }) };
    const pulse = new ActuatorPulse(this.metrics);
    this.#rt = { body, clock, policy: this.policy, metrics: this.metrics, activeSteps: gaugeSeries(this.metrics.activeSteps, '', {}), log, events, slot: new StepSlot(), watchdog: new WatchdogTimer(clock), pulse, report, predicates, active: undefined, closed: false, disconnected: undefined, preemptReason: undefined, cautionHeldUntil: 0, heldUntil: 0 };
    this.#unsubscribe.push(signals.onActuate((command) => pulse.onCommand(command)));
    const commands = actuatorCommandNames(body).map((name) => pulse.label(name));
    const unprime = primeMetrics(this.metrics, this.registry, commands);
    if (unprime) this.#unsubscribe.push(unprime);
    if (typeof signals.onDisconnect === 'function') this.#unsubscribe.push(signals.onDisconnect((info) => this.#onDisconnect(info)));
  }

  on<E extends ExecutorEventName>(event: E, listener: (payload: ExecutorEvents[E]) => void): () => void {
    return this.#rt.events.on(event, listener);
  }

  state(): ExecutorState {
    const { active, closed, slot } = this.#rt;
    const activeStep = active && {
      ...active.ref,
      capability: capLabel(active.capability),
      attempt: active.attempt,
      phase: active.shownPhase(),
      sinceMs: active.sinceMs,
      atomic: active.capability.atomic,
    };
    return {
      status: closed ? 'closed' : active || this.#plansRunning > 0 ? 'running' : 'idle',
      ...(activeStep ? { activeStep } : {}),
      waiting: slot.waiting(),
      plansRunning: this.#plansRunning,
      preempting: this.#preempting > 0,
    };
  }

  health(): HealthReport {
    return { executor: this.state(), capabilities: this.#health.report() };
  }

  async close(): Promise<void> {
    if (this.#rt.closed) return;
    this.#rt.closed = true;
    this.#rt.active?.interrupt('aborted');
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.#rt.watchdog.releaseIfIdle();
    await this.#rt.report.close();
  }

  async run(input: unknown, options: RunOptions = {}): Promise<PlanOutcome> {
    const startedAt = this.#rt.clock.now();
    const admitted = admitPlan(this.#rt, input, options);
    if (!admitted.ok) return endPlan(this.#rt, admitted.ids, { steps: [], failure: admitted.failure, repairs: 0, startedAt });
    this.#plansRunning += 1;
    try {
      return await this.#runPlan(admitted.plan, admitted.intent, options.signal, startedAt);
    } finally {
      this.#plansRunning -= 1;
    }
  }

  async resume(options: Omit<RunOptions, 'intent'> = {}): Promise<PlanOutcome | undefined> {
    const unfinished = this.#journal?.unfinished();
    return unfinished && this.run(unfinished.plan, { ...options, ...(unfinished.intent ? { intent: unfinished.intent as RunOptions['intent'] } : {}) });
  }

  async #runPlan(plan: Plan, intent: Intent | undefined, callerSignal: AbortSignal | undefined, startedAt: number): Promise<PlanOutcome> {
    const rt = this.#rt;
    const journalFailures = this.#journal?.failures ?? 0;
    // A plan whose start cannot be journaled does not run: nothing it did would survive a restart.
    const journal = this.#journal;
    if (journal && (await journal.planStarted(plan, intent)) === false) return endPlan(rt, { planId: plan.planId, intentId: plan.intentId }, { steps: [], failure: journal.unavailable(), repairs: 0, startedAt });
    rt.events.emit('plan.started', { planId: plan.planId, intentId: plan.intentId, steps: plan.steps.length });
    const budgetMs = intent?.timeBudgetMs;
    const budget = budgetMs === undefined ? undefined : { ms: budgetMs, expired: false, controller: new AbortController() };
    const signals = [callerSignal, budget?.controller.signal].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    const planCtx: PlanContext = { plan, ...(intent ? { intent } : {}), ...(signal ? { signal } : {}), ...(budget ? { budget } : {}) };
    // The plan deadline runs on the executor clock; it aborts the plan signal, so the active step stops too.
    const timer: TimerHandle | undefined = budget && rt.clock.setTimeout(() => ((budget.expired = true), budget.controller.abort()), budget.ms);
    const ids = { planId: plan.planId, intentId: plan.intentId, goal: this.#goalLabel(intent) };
    try {
      const ran = await this.#runSteps(planCtx, journalFailures);
      const outcome = await endPlan(rt, ids, { steps: ran.outcomes, failure: ran.failure, repairs: ran.repairs, startedAt, failedStepId: ran.failedStepId });
      await this.#journal?.planEnded(outcome);
      return outcome;
    } finally {
      if (timer !== undefined) rt.clock.clearTimeout(timer);
      rt.watchdog.releaseIfIdle();
    }
  }

  /** The plan loop: steps in order, a failure goes to the repair hook (bounded) or ends the plan. */
  async #runSteps(planCtx: PlanContext, journalFailures: number): Promise<{ outcomes: StepOutcome[]; failure?: StepFailure; failedStepId?: string; repairs: number }> {
    // Read by index (a shift per step moves the rest of a long plan); repairs insert at the cursor.
    const queue: unknown[] = [...planCtx.plan.steps];
    let next = 0;
    // Plan steps passed PlanSchema at admission; the few a repair hook adds are unchecked input (a set of those, not a mark on every plan step).
    const unchecked = new Set<unknown>();
    const outcomes: StepOutcome[] = [];
    let repairs = 0;
    while (next < queue.length) {
      const stop = stopFailure(this.#rt, planCtx);
      if (stop) return { outcomes, failure: stop, repairs };
      const step = queue[next++];
      const outcome = await this.#executeStep(planCtx, step, !unchecked.has(step));
      outcomes.push(outcome);
      // The step happened but its record did not land: say so now rather than run on without durability.
      if (this.#journal && this.#journal.failures > journalFailures) return { outcomes, failure: this.#journal.unavailable(), failedStepId: outcome.stepId, repairs };
      if (outcome.status === 'succeeded') continue;
      const stopped = stopFailure(this.#rt, planCtx);
      const failure = stopped ?? outcome.failure ?? stepFailure('runner_error', 'step ended without a failure record');
      const ended = { outcomes, failure, failedStepId: outcome.stepId, repairs };
      if (stopped || !this.#repair || !isRepairable(failure) || outcome.status !== 'failed' || repairs >= this.policy.maxRepairsPerPlan) return ended;
      const { clock, metrics, log } = this.#rt;
      const response = await askRepair({ hook: this.#repair, clock, metrics, log, timeoutMs: this.policy.repairTimeoutMs }, planCtx, step as PlanStep, failure, repairs);
      // The plan may have ended (cancelled, out of time budget) while the hook was asked: that is why it stops.
      if (!response) return { ...ended, failure: stopFailure(this.#rt, planCtx) ?? failure };
      repairs += 1;
      for (const added of response.steps) unchecked.add(added);
      queue.splice(next, 0, ...response.steps, ...(response.replace ? [] : [step]));
    }
    return { outcomes, repairs };
  }

  /** The bounded `goal` label of a plan's intent; a goal seen for the first time gets its series at 0 now, before its plan ends. */
  #goalLabel(intent: Intent | undefined): string {
    if (intent === undefined) return 'unspecified';
    const goal = labelValue(intent.goal, this.#goalLabels);
    zeroOnce(this.metrics.stepsToSuccess, { goal });
    return goal;
  }

  async preempt(steps: readonly PlanStepInput[], options: PreemptOptions): Promise<StepOutcome[]> {
    const rt = this.#rt;
    // Nothing to run: interrupting the active step would only use up one of its resumes; a hold asked still holds (a mode renewing it).
    if (!Array.isArray(steps) || steps.length === 0 || rt.closed) return rt.closed ? [] : (holdBody(rt, options), []);
    const reason = typeof options?.reason === 'string' ? options.reason : 'unspecified';
    const tier = Number.isSafeInteger(options?.tier) && options.tier! > 0 ? options.tier! : 0;
    this.metrics.preemptions.inc({ reason: labelValue(reason, this.#reasonLabels) });
    rt.preemptReason = reason;
    const plan: Plan = { planId: `preempt-${++this.#preemptSeq}`, intentId: `preempt:${reason}`.slice(0, 256), steps: [], planner: 'preemption' }; // steps are checked one by one below
    this.#preempting += 1;
    try {
      // Queue first (priority), then interrupt: the interrupted step yields the slot straight to us.
      const granted = rt.slot.acquire({ priority: true, tier });
      rt.active?.yieldAtSafePoint();
      this.#outrank(tier, reason);
      await granted;
      const own: RunningPreemption = (this.#preemption = { tier, outranked: { by: undefined }, cancel: new AbortController() });
      const planCtx: PlanContext = { plan, preemptReason: reason, signal: own.cancel.signal, outranked: own.outranked };
      const outcomes: StepOutcome[] = [];
      try {
        for (const step of steps) {
          if (rt.closed || rt.disconnected !== undefined) break;
          // outranked while an atomic step finished: the steps left end at once
          if (own.outranked.by !== undefined) own.cancel.abort();
          outcomes.push(await this.#executeStep(planCtx, step, false));
        }
      } finally {
        this.#preemption = undefined;
        holdBody(rt, options);
        rt.slot.release();
      }
      await rt.report.flush();
      return outcomes;
    } finally {
      this.#preempting -= 1;
      rt.watchdog.releaseIfIdle();
    }
  }

  /** A preemption of a higher tier stops the running one's step at its safe point (an atomic step finishes first); it is not resumed. */
  #outrank(tier: number, reason: string): void {
    const running = this.#preemption;
    if (!running || tier <= running.tier || running.outranked.by !== undefined) return;
    running.outranked.by = reason;
    if (!this.#rt.active?.capability.atomic) running.cancel.abort();
  }

  /**
   * One step, start to end: checks (`shapeChecked`: PlanSchema already passed it), idempotency, then its StepRun. Never throws.
   * Synchronous up to the dispatch: an async function's suspended frame holds every register it has, so the checks stay out of it.
   */
  #executeStep(planCtx: PlanContext, rawStep: unknown, shapeChecked: boolean): StepOutcome | Promise<StepOutcome> {
    const rt = this.#rt;
    const startedAt = rt.clock.now();
    // V1 + V2 (the guard runs once the step holds the slot, so it sees the body as it is then).
    const check = checkStepValue(this.registry, rawStep, shapeChecked);
    // A refusal of a verb that resolved is counted under its capability; only an unknown verb is `unknown`.
    if (!check.ok) return rt.report.end({ planCtx, stepId: safeId(rawStep, 'stepId'), verb: safeId(rawStep, 'type', ''), status: 'failed', failure: check.failure, attempts: 0, startedAt, ...('capability' in check ? { capability: check.capability } : {}) });
    const { step, capability, args } = check;
    const predicates = stepPredicates(step, rt.predicates);
    if (!predicates.ok) return rt.report.end({ planCtx, stepId: step.stepId, verb: step.type, capability, status: 'failed', failure: predicates.failure, attempts: 0, startedAt, args });
    const key = step.idempotencyKey ?? `${planCtx.plan.planId}:${step.stepId}`;
    const run: StepRunOptions<Body> = { rt, planCtx, step, capability, args, key, startedAt, predicates: predicates.value };
    const known = this.#idempotency.get(key);
    // A shared journal (a fleet) is asked too: another process may have completed the key, or own the plan now.
    if (known === undefined && planCtx.preemptReason === undefined && this.#idempotency.shared) return this.#idempotency.claim(key, { planId: planCtx.plan.planId, stepId: step.stepId, verb: capability.name, args }).then((claimed) => holdKey(this.#keys, run, claimed));
    return holdKey(this.#keys, run, known);
  }

  /** The body went away for good: the active step ends body_disconnected at once, without retry or repair. */
  #onDisconnect(info: { readonly reason: string }): void {
    const rt = this.#rt;
    if (rt.disconnected !== undefined || rt.closed) return;
    const reason = safeRead(info, 'reason');
    rt.disconnected = typeof reason === 'string' && reason ? reason.slice(0, 500) : 'unknown reason';
    this.metrics.bodyDisconnects.inc();
    rt.log.warn('body disconnected', { reason: rt.disconnected });
    rt.active?.interrupt('body_disconnected');
  }
}
