import { describeError, type Intent, type Logger, type Plan, type StepOutcome } from '@sinew/executor-contracts';
import type { Clock } from '../clock/clock.js';
import type { PlanOutcome } from '../executor/types.js';
import type { JournalRecord, JournalStore } from './records.js';

/** A plan the journal saw start and never end: what `resume()` runs again. */
export interface UnfinishedPlan {
  readonly plan: Plan;
  readonly intent?: Record<string, unknown>;
}

/** The executor's side of the journal: what it recovers at construction and what it appends while running. */
export class PlanJournal {
  /** Keys of steps that succeeded, with their outcome, in journal order. */
  readonly completed = new Map<string, StepOutcome>();
  readonly #unfinished = new Map<string, UnfinishedPlan>();
  /** Lines the store skipped when read (a torn last write). */
  readonly skipped: number;

  constructor(
    private readonly store: JournalStore,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {
    const read = store.readAll();
    this.skipped = read.skipped;
    if (read.skipped > 0) log.warn('journal lines skipped when read back', { skipped: read.skipped });
    for (const record of read.records) this.#replay(record);
  }

  #replay(record: JournalRecord): void {
    if (record.kind === 'plan_start') this.#unfinished.set(record.plan.planId, record.intent ? { plan: record.plan, intent: record.intent } : { plan: record.plan });
    else if (record.kind === 'plan_end') this.#unfinished.delete(record.planId);
    else if (record.outcome.status === 'succeeded') this.completed.set(record.key, record.outcome);
    else this.completed.delete(record.key);
  }

  /** The most recently started plan that never ended, if any. */
  unfinished(): UnfinishedPlan | undefined {
    return [...this.#unfinished.values()].at(-1);
  }

  planStarted(plan: Plan, intent: Intent | undefined): void {
    const entry = intent ? { plan, intent: { ...intent } } : { plan };
    this.#unfinished.set(plan.planId, entry);
    this.#append({ kind: 'plan_start', at: this.clock.now(), ...entry });
  }

  stepEnded(key: string, outcome: StepOutcome): void {
    this.#append({ kind: 'step', at: this.clock.now(), key, outcome });
  }

  /** A plan stopped by a lost body stays unfinished: a reconnected bot resumes it. */
  planEnded(outcome: PlanOutcome): void {
    if (outcome.failure?.code === 'body_disconnected') return;
    this.#unfinished.delete(outcome.planId);
    this.#append({ kind: 'plan_end', at: this.clock.now(), planId: outcome.planId, status: outcome.status });
  }

  #append(record: JournalRecord): void {
    try {
      this.store.append(record);
    } catch (error) {
      // The step already happened; losing its record costs a re-dispatch after a restart, not this run.
      this.log.error('journal append failed', { error: describeError(error), kind: record.kind });
    }
  }
}
