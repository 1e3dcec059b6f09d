import { stepFailure, type Capability, type StepFailure, type StepOutcome } from '@sinew/executor-contracts';
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

/** FM-05: keys in flight and the latest `capacity` completed ones (oldest forgotten first); with a journal, completed keys outlive the process. */
export class IdempotencyStore {
  /** A completed key maps to its outcome itself (no wrapper kept per step). */
  readonly #entries = new Map<string, InFlight | StepOutcome>();
  constructor(
    private readonly capacity: number,
    private readonly journal?: PlanJournal,
  ) {
    for (const [key, outcome] of journal?.completed() ?? []) this.#remember(key, outcome);
  }

  get(key: string): IdempotencyEntry | undefined {
    const entry = this.#entries.get(key);
    return entry === undefined || entry instanceof InFlight ? entry : { state: 'completed', outcome: entry };
  }

  /** Marks `key` in flight; pass the entry to `end`. A `durable` key's outcome is journaled (preemption steps are not). */
  begin(key: string, durable = true): InFlight {
    const entry = new InFlight(durable);
    this.#entries.set(key, entry);
    return entry;
  }

  /** A key no local entry knows, asked of a shared journal (a fleet): completed elsewhere, refused here, or undefined (run it). */
  async claim(key: string): Promise<IdempotencyEntry | StepFailure | undefined> {
    const answer = await this.journal?.claim(key);
    return answer === undefined || !('status' in answer) ? answer : { state: 'completed', outcome: answer };
  }

  /** Whether `claim` must be asked (the journal is shared with other processes). */
  get shared(): boolean {
    return this.journal?.shared ?? false;
  }

  /** Records a step's outcome, durably first (awaited), then remembers a success or forgets anything else and answers the steps that joined it. */
  async end(key: string, entry: InFlight, outcome: StepOutcome): Promise<void> {
    if (entry.durable) await this.journal?.stepEnded(key, outcome);
    if (outcome.status === 'succeeded') this.#remember(key, outcome);
    else this.#entries.delete(key);
    entry.settle(outcome);
  }

  #remember(key: string, outcome: StepOutcome): void {
    this.#entries.delete(key);
    this.#entries.set(key, outcome);
    while (this.#entries.size > this.capacity) {
      const oldest = this.#firstCompletedKey();
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  #firstCompletedKey(): string | undefined {
    for (const [key, entry] of this.#entries) if (!(entry instanceof InFlight)) return key;
    return undefined;
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
