import type { StepOutcome } from '@sinew/executor-contracts';
import type { PlanJournal } from '../journal/journal.js';

/** A key in flight collects the steps that joined it; their promises are made only when someone joins. */
type InFlight = { readonly state: 'in_flight'; readonly joiners: ((outcome: StepOutcome) => void)[]; readonly durable: boolean };
export type IdempotencyEntry = InFlight | { readonly state: 'completed'; readonly outcome: StepOutcome };

/** FM-05: keys in flight and the latest `capacity` completed ones (oldest forgotten first); with a journal, completed keys outlive the process. */
export class IdempotencyStore {
  readonly #entries = new Map<string, IdempotencyEntry>();
  constructor(
    private readonly capacity: number,
    private readonly journal?: PlanJournal,
  ) {
    for (const [key, outcome] of journal?.completed ?? []) this.#remember(key, outcome);
  }

  get(key: string): IdempotencyEntry | undefined {
    return this.#entries.get(key);
  }

  /** Marks `key` in flight; pass the entry to `end`. A `durable` key's outcome is journaled (preemption steps are not). */
  begin(key: string, durable = true): InFlight {
    const entry: InFlight = { state: 'in_flight', joiners: [], durable };
    this.#entries.set(key, entry);
    return entry;
  }

  /** Records a step's outcome (a success is remembered, anything else forgotten) and answers the steps that joined it. */
  end(key: string, entry: InFlight, outcome: StepOutcome): void {
    if (entry.durable) this.journal?.stepEnded(key, outcome);
    if (outcome.status === 'succeeded') this.#remember(key, outcome);
    else this.#entries.delete(key);
    for (const join of entry.joiners) join(outcome);
  }

  #remember(key: string, outcome: StepOutcome): void {
    this.#entries.delete(key);
    this.#entries.set(key, { state: 'completed', outcome });
    while (this.#entries.size > this.capacity) {
      const oldest = this.#firstCompletedKey();
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  #firstCompletedKey(): string | undefined {
    for (const [key, entry] of this.#entries) if (entry.state === 'completed') return key;
    return undefined;
  }
}
