import { stepFailure, type Capability, type StepFailure, type StepOutcome } from '@sinew/executor-contracts';
import type { PlanJournal } from '../journal/journal.js';
import type { ClaimedStep } from '../journal/records.js';
import type { ExecutorMetrics } from '../metrics/metrics.js';
import type { PlanContext } from './plan-context.js';
import type { StepReporter } from './report.js';

/** A key in flight collects the steps that joined it; their promises (and the list) are made only when someone joins. */
export class InFlight {
  readonly state = 'in_flight' as const;
  #joiners: ((outcome: StepOutcome) => void)[] | undefined;
  #ended = false;
  constructor(
    private readonly store: IdempotencyStore,
    readonly key: string,
    readonly durable: boolean,
  ) {}

  /**
   * The step that holds the key ended: its outcome is recorded (once) and every step that joined is answered.
   * A promise only when the journal is asynchronous (a fleet's): the step is not over until it resolves.
   */
  end(outcome: StepOutcome): void | Promise<void> {
    if (this.#ended) return this.landed;
    this.#ended = true;
    const landed = this.store.end(this.key, this, outcome);
    if (landed) this.landed = landed;
    return landed;
  }

  /** The outcome's write, while an asynchronous journal (a fleet's) has it in flight. */
  landed: Promise<void> | undefined;

  /** Whether `end` may return a promise (the journal is shared and asynchronous). */
  get awaitsJournal(): boolean {
    return this.durable && this.store.shared;
  }

  /** Waits for the step that holds the key. */
  join(): Promise<StepOutcome> {
    return new Promise((resolve) => (this.#joiners ??= []).push(resolve));
  }

  /** Answers every step that joined. */
  settle(outcome: StepOutcome): void {
    // Most keys are never joined: no empty list made per step to loop over.
    const joiners = this.#joiners;
    if (joiners !== undefined) for (const join of joiners) join(outcome);
  }
}
export type IdempotencyEntry = InFlight | { readonly state: 'completed'; readonly outcome: StepOutcome };

/**
 * FM-05: keys in flight and the latest `capacity` completed ones (oldest forgotten first); with a journal, completed keys outlive the process.
 * The completion order has a queue of its own: forgetting the oldest is O(1) (a Map's first entry is found by walking
 * past every entry deleted since its last rehash: 21% of a long-running executor's CPU). Completed keys are in one Map,
 * keys in flight in a short list beside it (one step holds the body at a time: it has one key or a few), so a step
 * costs the big Map three operations (its lookup, its key's completion, the oldest key forgotten), not a fourth to
 * mark its key in flight: each is a hash probe into a table of up to `capacity` keys, most of them out of the cache.
 */
export class IdempotencyStore {
  /** A completed key maps to its outcome itself (no wrapper kept per step). */
  readonly #completed = new Map<string, StepOutcome>();
  /** Keys in flight, in no order (removed by swapping the last one in). */
  readonly #flying: InFlight[] = [];
  /** Completed keys, oldest first from `#head`. */
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
    if (outcome !== undefined) return { state: 'completed', outcome };
    for (const flight of this.#flying) if (flight.key === key) return flight;
    return undefined;
  }

  /** Marks `key` in flight; its entry's `end(outcome)` settles it. A `durable` key's outcome is journaled (preemption steps are not). */
  begin(key: string, durable = true): InFlight {
    const entry = new InFlight(this, key, durable);
    // A completed key begun again (the executor answers it as a duplicate; a caller of the store may not) is in flight
    // again, not completed: it leaves the completed keys and their queue, so its next completion takes one place.
    if (this.#completed.delete(key)) this.#unqueue(key);
    this.#flying.push(entry);
    return entry;
  }

  /** A key no local entry knows, asked of a shared journal (a fleet): completed elsewhere, refused here, or undefined (run it). */
  async claim(key: string, step: ClaimedStep): Promise<IdempotencyEntry | StepFailure | undefined> {
    const answer = await this.journal?.claim(key, step);
    return answer === undefined || !('status' in answer) ? answer : { state: 'completed', outcome: answer };
  }

  /** Whether `claim` must be asked (the journal is shared with other processes). */
  get shared(): boolean {
    return this.journal?.shared ?? false;
  }

  /**
   * Records a step's outcome, durably first (an asynchronous journal's write is awaited), then remembers a success or
   * forgets anything else and answers the steps that joined it. Synchronous with a synchronous journal (the JSONL file).
   */
  end(key: string, entry: InFlight, outcome: StepOutcome): void | Promise<void> {
    const landed = entry.durable ? this.journal?.stepEnded(key, outcome) : undefined;
    if (landed instanceof Promise) return landed.then(() => this.#settle(key, entry, outcome));
    this.#settle(key, entry, outcome);
  }

  #settle(key: string, entry: InFlight, outcome: StepOutcome): void {
    this.#land(entry);
    // In one process a key in flight is joined, never begun again: no lookup for an earlier completion (a fleet's claims may race).
    if (outcome.status === 'succeeded') this.#remember(key, outcome, this.shared);
    entry.settle(outcome);
  }

  /** The key is no longer in flight. */
  #land(entry: InFlight): void {
    const flying = this.#flying;
    const at = flying.indexOf(entry);
    if (at < 0) return;
    const last = flying.pop()!;
    if (at < flying.length) flying[at] = last;
  }

  /** `completedBefore`: the key may have a completed entry already (a journal's replay, a fleet's racing claims). */
  #remember(key: string, outcome: StepOutcome, completedBefore = true): void {
    // A key completed again moves to the newest end (its earlier place is dropped).
    if (completedBefore && this.#completed.has(key)) this.#unqueue(key);
    this.#completed.set(key, outcome);
    this.#order.push(key);
    while (this.#order.length - this.#head > this.capacity) this.#forgetOldest();
  }

  /** Drops a completed key's place in the queue: rare, so a linear search. */
  #unqueue(key: string): void {
    this.#order.splice(this.#order.indexOf(key, this.#head), 1);
  }

  #forgetOldest(): void {
    this.#completed.delete(this.#order[this.#head]!);
    this.#head += 1;
    // The queue is compacted once its dead head is as long as its live part: amortized O(1) per key.
    if (this.#head * 2 >= this.#order.length) {
      this.#order = this.#order.slice(this.#head);
      this.#head = 0;
    }
  }
}

/** A step's run, resolved once its key's asynchronous journal write landed; a synchronous journal adds no await. */
export function whenDurable(flight: InFlight, running: Promise<StepOutcome>): Promise<StepOutcome> {
  return flight.awaitsJournal ? running.then((outcome) => settled(flight.landed, outcome)) : running;
}

/** `outcome`, once `landed` (a key's asynchronous journal write) resolves; at once without one. */
export function settled(landed: void | Promise<void>, outcome: StepOutcome): StepOutcome | Promise<StepOutcome> {
  return landed instanceof Promise ? landed.then(() => outcome) : outcome;
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
