import { stepFailure, type Capability, type StepOutcome } from '@sinew/executor-contracts';
import type { PlanJournal } from '../journal/journal.js';
import type { ExecutorMetrics } from '../metrics/metrics.js';
import type { PlanContext } from './plan-context.js';
import type { StepReporter } from './report.js';

/** A key in flight collects the steps that joined it; their promises (and the list) are made only when someone joins. */
class InFlight {
  readonly state = 'in_flight' as const;
  #joiners: ((outcome: StepOutcome) => void)[] | undefined;
  constructor(readonly durable: boolean) {}

  /** Waits for the step that holds the key. */
  join(): Promise<StepOutcome> {
    return new Promise((resolve) => (this.#joiners ??= []).push(resolve));
  }

  /** Answers every step that joined. */
  settle(outcome: StepOutcome): void {
    for (const join of this.#joiners ?? []) join(outcome);
  }
}
export type IdempotencyEntry = InFlight | { readonly state: 'completed'; readonly outcome: StepOutcome };

/**
 * FM-05: keys in flight and the latest `capacity` completed ones (oldest forgotten first); with a journal, completed keys outlive the process.
 * Completed keys are kept apart from those in flight, with their completion order in a queue of their own: forgetting the
 * oldest is O(1) (a Map's first entry is found by walking past every entry deleted since its last rehash).
 */
export class IdempotencyStore {
  readonly #inFlight = new Map<string, InFlight>();
  /** A completed key maps to its outcome itself (no wrapper kept per step). */
  readonly #completed = new Map<string, StepOutcome>();
  /** Completed keys, oldest first from `#head`; a key's one live place is its last (see #forgetOldest). */
  #order: string[] = [];
  #head = 0;
  constructor(
    private readonly capacity: number,
    private readonly journal?: PlanJournal,
  ) {
    for (const [key, outcome] of journal?.completed() ?? []) this.#remember(key, outcome);
  }

  get(key: string): IdempotencyEntry | undefined {
    const outcome = this.#completed.get(key);
    return outcome === undefined ? this.#inFlight.get(key) : { state: 'completed', outcome };
  }

  /** Marks `key` in flight; pass the entry to `end`. A `durable` key's outcome is journaled (preemption steps are not). */
  begin(key: string, durable = true): InFlight {
    const entry = new InFlight(durable);
    this.#inFlight.set(key, entry);
    return entry;
  }

  /** Records a step's outcome (a success is remembered, anything else forgotten) and answers the steps that joined it. */
  end(key: string, entry: InFlight, outcome: StepOutcome): void {
    if (entry.durable) this.journal?.stepEnded(key, outcome);
    if (this.#inFlight.get(key) === entry) this.#inFlight.delete(key);
    if (outcome.status === 'succeeded') this.#remember(key, outcome);
    else this.#completed.delete(key);
    entry.settle(outcome);
  }

  #remember(key: string, outcome: StepOutcome): void {
    // A key completed again moves to the newest end (its earlier place is dropped): rare, so a linear search.
    if (this.#completed.has(key)) this.#order.splice(this.#order.indexOf(key, this.#head), 1);
    this.#completed.set(key, outcome);
    this.#order.push(key);
    while (this.#completed.size > this.capacity) this.#forgetOldest();
  }

  #forgetOldest(): void {
    const key = this.#order[this.#head]!;
    this.#head += 1;
    this.#completed.delete(key);
    // The queue is compacted once its dead head is as long as its live part: amortized O(1) per key.
    if (this.#head * 2 >= this.#order.length) {
      this.#order = this.#order.slice(this.#head);
      this.#head = 0;
    }
  }
}

/** The step a duplicate answers for: what its outcome is written with. */
interface DuplicateStep {
  readonly planCtx: PlanContext;
  readonly stepId: string;
  readonly verb: string;
  readonly capability: Capability<never>;
  readonly key: string;
  readonly args: unknown;
  readonly startedAt: number;
}

/** A step whose key completed (or is in flight): answered with the original result, never dispatched again. */
export async function answerDuplicate(deps: { readonly metrics: ExecutorMetrics; readonly report: StepReporter }, base: DuplicateStep, known: IdempotencyEntry): Promise<StepOutcome> {
  const kind = known.state === 'completed' ? 'completed' : 'in_flight';
  deps.metrics.duplicates.inc({ capability: base.capability.name, kind });
  const original = known.state === 'completed' ? known.outcome : await known.join();
  const of = `${original.planId}:${original.stepId}`;
  // A completed key answers with the recorded result; `duplicate` says it was not dispatched again.
  const failure = original.status === 'succeeded' ? stepFailure('duplicate', `idempotency key "${base.key}" ${kind === 'completed' ? 'already completed' : 'was in flight'} as ${of}; not dispatched again`) : original.failure;
  return deps.report.end({
    ...base,
    status: original.status,
    ...(failure ? { failure } : {}),
    attempts: original.attempts,
    ...(original.ttfaMs !== undefined ? { ttfaMs: original.ttfaMs } : {}),
    ...(original.observables ? { observables: original.observables } : {}),
    duplicate: true,
  });
}
