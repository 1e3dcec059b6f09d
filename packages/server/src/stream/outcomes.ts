import type { PlanOutcome } from '@sinew/bt-runtime';
import type { EventHub } from './hub.js';

/**
 * The data of `executionComplete`: how a plan ended, without its per-step outcomes (a 5,000-step plan's are ~1 MB
 * of JSON, written to every subscribed client). The whole `PlanOutcome` is served at `outcomePath` while the plan
 * is among the last `outcomesKept` that ended.
 */
export type ExecutionComplete = Omit<PlanOutcome, 'steps'> & {
  /** How many step outcomes the plan has (`steps.length` of the `PlanOutcome`). */
  readonly stepCount: number;
  /** Those step outcomes by status, e.g. `{ succeeded: 4, failed: 1 }`. */
  readonly stepStatuses: Readonly<Record<string, number>>;
  /** `GET` it for the whole `PlanOutcome`: `/api/plans/<planId>/outcome`. */
  readonly outcomePath: string;
};

/** The path of a kept plan's whole outcome. */
export const outcomePath = (planId: string): string => `/api/plans/${encodeURIComponent(planId)}/outcome`;

/** A plan's outcome as `executionComplete` carries it. */
export function executionComplete(outcome: PlanOutcome): ExecutionComplete {
  const { steps, ...ending } = outcome;
  const stepStatuses: Record<string, number> = {};
  for (const step of steps) stepStatuses[step.status] = (stepStatuses[step.status] ?? 0) + 1;
  return { ...ending, stepCount: steps.length, stepStatuses, outcomePath: outcomePath(outcome.planId) };
}

/**
 * The last `capacity` plan outcomes by plan id (a plan id run again keeps its latest), holding at most `stepCapacity`
 * step outcomes in all but the latest plan's; each ending is published as `executionComplete`.
 */
export class PlanOutcomes {
  readonly #kept = new Map<string, PlanOutcome>();
  /** Step outcomes held by the kept plans. */
  #steps = 0;

  constructor(
    private readonly hub: EventHub,
    /** How many ended plans are kept (`limits.outcomesKept`). */
    readonly capacity: number,
    /** How many step outcomes they may hold in all (`limits.outcomeStepsKept`); the latest plan is kept whatever its length. */
    readonly stepCapacity: number,
  ) {}

  /** Keeps the outcome, the oldest kept ones leaving past `capacity` plans or `stepCapacity` steps, and publishes its `executionComplete`. */
  ended(outcome: PlanOutcome): void {
    this.#forget(outcome.planId);
    this.#kept.set(outcome.planId, outcome);
    this.#steps += outcome.steps.length;
    while (this.#kept.size > this.capacity || (this.#steps > this.stepCapacity && this.#kept.size > 1)) this.#forget(this.#kept.keys().next().value!);
    this.hub.publish('executionComplete', executionComplete(outcome), outcome.endedAt);
  }

  #forget(planId: string): void {
    const kept = this.#kept.get(planId);
    if (kept === undefined) return;
    this.#kept.delete(planId);
    this.#steps -= kept.steps.length;
  }

  /** The whole outcome of a kept plan. */
  get(planId: string): PlanOutcome | undefined {
    return this.#kept.get(planId);
  }
}
