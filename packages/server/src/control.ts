import { randomUUID } from 'node:crypto';
import type { Executor } from '@sinew/bt-runtime';
import { describeError, IntentSchema, PlanResultSchema, PlanSchema, PlanStepSchema, type Intent, type Plan } from '@sinew/executor-contracts';
import { z } from 'zod';
import { ApiError, validate } from './http/reply.js';
import type { EventHub } from './stream/hub.js';
import type { PlanOutcomes } from './stream/outcomes.js';
import type { CognitionSource } from './stream/sources.js';

/** A plan as `POST /api/cognitive/execute` takes it: PlanSchema with unknown keys rejected at every level. */
export const ExecuteBodySchema = PlanSchema.extend({ steps: z.array(PlanStepSchema.strict()).min(1).max(256) }).strict();

/** Bounded: the reason becomes a metric label in the executor. */
export const PreemptBodySchema = z
  .object({
    steps: z.array(PlanStepSchema.strict()).min(1).max(16),
    reason: z.string().regex(/^[a-z0-9_.:-]{1,64}$/, 'a reason is 1-64 characters of a-z 0-9 _ . : -'),
  })
  .strict();

/** An external suggestion (seed 004 "signals"): turned into an `Intent` for the wired planner/router. */
export const SignalBodySchema = z
  .object({
    goal: z.string().min(1).max(2_000),
    urgency: z.number().min(0).max(1).default(0.5),
    traits: z.array(z.string().min(1).max(64)).max(32).default([]),
    context: z.record(z.string(), z.unknown()).optional(),
    /** The plan's deadline: the executor ends the plan `timeout` after this long. */
    timeBudgetMs: z.number().int().positive().max(2_147_483_647).optional(),
    /** Where the suggestion came from (a chat message id, a ticket): on every provenance record of its plan. */
    provenanceRef: z.string().min(1).max(256).optional(),
  })
  .strict();
export type SignalBody = z.input<typeof SignalBodySchema>;

/** The planner or router `POST /api/cognitive/signals` hands intents to (a `Router` of @sinew/planners fits). */
export interface SignalRouter<World = unknown> {
  /** A plan for the intent: a `PlanResult` (the contracts' schema; a `Router` of @sinew/planners returns one); refused plans answer 422, a malformed result 502. */
  plan(intent: Intent, world: World): unknown;
  /** The routing decision and its reason, reported with `planGenerated` when present. */
  route?(intent: Intent): { readonly chosen?: string | undefined; readonly reason: string };
  /** Told how each plan it made ended. */
  recordOutcome?(planId: string, success: boolean): void;
  /** The input filter (seeds/004): returns the intent with `safety` decided; a refused one is never planned (a `Router` has it). */
  screen?(intent: Intent): Intent;
}

/** The control routes' logic: plans started over HTTP (cancellable by id), preemptions, signals. */
export class Control<Body> {
  readonly #running = new Map<string, AbortController>();

  constructor(
    private readonly executor: Executor<Body>,
    private readonly stream: { readonly hub: EventHub; readonly outcomes: PlanOutcomes },
    private readonly router: SignalRouter | undefined,
    private readonly observe: (() => unknown) | undefined,
    private readonly cognition?: CognitionSource,
  ) {}

  /** Starts a plan; the outcome arrives on the stream as `executionComplete`. */
  execute(plan: Plan, onEnd?: (completed: boolean) => void, intent?: Intent): { planId: string; intentId: string } {
    if (this.#running.has(plan.planId)) throw new ApiError(409, 'plan_running', `plan ${plan.planId} is already running`);
    const controller = new AbortController();
    // On the executor's clock, as the outcome it would have returned (and the stream's stamps) are.
    const startedAt = this.executor.clock.now();
    this.#running.set(plan.planId, controller);
    this.executor
      .run(plan, { signal: controller.signal, ...(intent ? { intent } : {}) })
      .then(
        (outcome) => onEnd?.(outcome.status === 'completed'),
        (error: unknown) => {
          const failure = { code: 'runner_error', reason: describeError(error), retryable: false } as const;
          this.stream.outcomes.ended({ planId: plan.planId, intentId: plan.intentId, status: 'failed', steps: [], failure, repairs: 0, startedAt, endedAt: this.executor.clock.now() });
          onEnd?.(false);
        },
      )
      .finally(() => this.#running.delete(plan.planId));
    return { planId: plan.planId, intentId: plan.intentId };
  }

  /** Cancels a plan started over HTTP (its active step ends `aborted`). */
  cancel(planId: string): void {
    const controller = this.#running.get(planId);
    if (!controller) throw new ApiError(404, 'unknown_plan', `no running plan ${planId} was started through this server`);
    controller.abort();
  }

  /** Safety preemption; the outcomes arrive as `preemptComplete`. */
  preempt(body: z.output<typeof PreemptBodySchema>): { preemptId: string } {
    const preemptId = randomUUID();
    const publish = (data: Record<string, unknown>) => this.stream.hub.publish('preemptComplete', { preemptId, reason: body.reason, ...data });
    let call: Promise<unknown>;
    try {
      call = Promise.resolve(this.executor.preempt(body.steps, { reason: body.reason }));
    } catch (error) {
      call = Promise.reject(error);
    }
    call.then(
      (outcomes) => publish({ outcomes }),
      (error: unknown) => publish({ error: describeError(error) }),
    );
    return { preemptId };
  }

  /** Signal → Intent → router → plan (`planGenerated`) → executed; 422 when no plan, 501 without a router. */
  async signal(body: z.output<typeof SignalBodySchema>): Promise<Record<string, unknown>> {
    if (this.cognition?.suggest) return this.#suggest(this.cognition.suggest.bind(this.cognition), body);
    const router = this.router;
    if (!router) throw new ApiError(501, 'not_configured', 'no router: start serveSinew with { router } to accept signals');
    const intent = this.#screen(router, IntentSchema.parse({ id: `signal-${randomUUID()}`, source: 'user', ...body }));
    if (!intent.safety.allowed) throw new ApiError(422, 'refused', `suggestion refused: ${intent.safety.reason ?? 'safety.allowed is false'}`, { intentId: intent.id, safety: intent.safety });
    const decision = this.#route(router, intent);
    const result = await this.#plan(router, intent);
    if (!result.ok) {
      throw new ApiError(422, 'no_plan', `no plan for "${intent.goal}": ${result.failure.code}: ${result.failure.reason}`, { intentId: intent.id, failure: result.failure });
    }
    const plan = result.plan;
    const planner = result.planner ?? plan.planner ?? decision?.chosen ?? 'router';
    this.stream.hub.publish('planGenerated', { intent, planner, reason: decision?.reason ?? null, plan });
    // The intent travels with its plan: its timeBudgetMs is the plan's deadline, its provenanceRef on every record.
    this.execute(plan, (completed) => this.#recordOutcome(router, plan.planId, completed), intent);
    return { intentId: intent.id, planId: plan.planId, planner };
  }

  /**
   * A signal through the cognition loop: its input filter, gate and planners decide (the plan runs on the loop's
   * executor); answered with the decisions it caused. A refusal (input filter, invalid input) is 422 with its rule.
   * The loop takes no traits nor context: a signal carrying them is refused rather than acted on in part.
   */
  async #suggest(suggest: NonNullable<CognitionSource['suggest']>, body: z.output<typeof SignalBodySchema>): Promise<Record<string, unknown>> {
    if (body.traits.length > 0 || body.context !== undefined) {
      throw new ApiError(400, 'invalid_request', 'traits and context are not taken by the cognition loop: send goal, urgency, timeBudgetMs and provenanceRef');
    }
    const { goal, urgency, timeBudgetMs, provenanceRef } = body;
    const suggestion = { via: 'http' as const, text: goal, by: 'http', urgency, ...(timeBudgetMs !== undefined ? { timeBudgetMs } : {}), provenanceRef: provenanceRef ?? `http:${randomUUID()}` };
    const events = await suggest(suggestion);
    const refused = events.find((event) => event.type === 'cognition.refused');
    if (refused) throw new ApiError(422, 'refused', `suggestion refused: ${String((refused as { reason?: unknown }).reason ?? refused.type)}`, { events });
    return { via: 'cognition', provenanceRef: suggestion.provenanceRef, events };
  }

  /** The router's input filter; one that throws or answers garbage refuses the suggestion (fail closed). */
  #screen(router: SignalRouter, intent: Intent): Intent {
    if (!router.screen) return intent;
    try {
      return IntentSchema.parse(router.screen(intent));
    } catch (error) {
      return { ...intent, safety: { allowed: false, reason: `input filter failed: ${describeError(error)}` } };
    }
  }

  #route(router: SignalRouter, intent: Intent): { chosen?: string | undefined; reason: string } | undefined {
    try {
      return router.route?.(intent);
    } catch {
      return undefined; // the decision is informational; planning below reports real failures
    }
  }

  async #plan(router: SignalRouter, intent: Intent): Promise<z.output<typeof PlanResultSchema>> {
    let value: unknown;
    try {
      value = await router.plan(intent, this.observe?.());
    } catch (error) {
      throw new ApiError(502, 'planner_error', `the router threw: ${describeError(error)}`);
    }
    return validate(PlanResultSchema, value, (message) => new ApiError(502, 'planner_error', `the router returned a malformed result:\n${message}`));
  }

  #recordOutcome(router: SignalRouter, planId: string, completed: boolean): void {
    try {
      router.recordOutcome?.(planId, completed);
    } catch {
      // a throwing memory must not take the server down; the outcome is already on the stream
    }
  }
}
