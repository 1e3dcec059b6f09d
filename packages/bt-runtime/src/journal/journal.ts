import { describeError, stepFailure, type Intent, type Logger, type Plan, type StepFailure, type StepOutcome } from '@sinew/executor-contracts';
import type { Clock } from '../clock/clock.js';
import type { PlanOutcome } from '../executor/types.js';
import { JournalWriteError, type ClaimedStep, type JournalRecord, type JournalStore } from './records.js';

/** A plan the journal saw start and never end: what `resume()` runs again. */
export interface UnfinishedPlan {
  readonly plan: Plan;
  readonly intent?: Record<string, unknown>;
}

type StepRecord = Extract<JournalRecord, { kind: 'step' }>;
type StartRecord = Extract<JournalRecord, { kind: 'plan_start' }>;

export interface PlanJournalOptions {
  /** How many completed keys outlive the process (the idempotency store's capacity): older ones are compacted away. */
  readonly capacity: number;
  /** Called once per record that did not land (the executor turns it into an event and a metric). */
  readonly onWriteFailed?: (error: JournalWriteError) => void;
}

/** Below this many records a journal is never compacted: rewriting it would cost more than reading it. */
const MIN_COMPACT_RECORDS = 1_000;

/**
 * The executor's side of the journal: what it recovers at construction and what it appends while running.
 * Finished plans are folded away: when the history holds more than twice what is still live (the unfinished
 * plans and the latest `capacity` completed keys), the store is rewritten with only that, so opening a
 * journal costs what is live, not everything that ever ran.
 */
export class PlanJournal {
  /** Completed keys with their step record, oldest first (a key completed again moves to the end). */
  readonly #completed = new Map<string, StepRecord>();
  readonly #unfinished = new Map<string, StartRecord>();
  /** Lines the store skipped when read (a torn last write). */
  readonly skipped: number;
  /** Records the store holds now (what compaction would shrink). */
  #stored: number;
  /** Appends that did not land so far (a plan that sees this grow fails `journal_unavailable`), and the latest error. */
  #failures = 0;
  #lastError: JournalWriteError | undefined;

  constructor(
    private readonly store: JournalStore,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly options: PlanJournalOptions,
  ) {
    const read = store.readAll();
    this.skipped = read.skipped;
    if (read.skipped > 0) log.warn('journal lines skipped when read back', { skipped: read.skipped });
    for (const record of read.records) this.#replay(record);
    this.#stored = read.records.length + read.skipped;
    this.#compactIfDue();
  }

  /** Keys of steps that succeeded, with their outcome, oldest first. */
  *completed(): Iterable<[string, StepOutcome]> {
    for (const [key, record] of this.#completed) yield [key, record.outcome];
  }

  #replay(record: JournalRecord): void {
    if (record.kind === 'plan_start') this.#unfinished.set(record.plan.planId, record);
    else if (record.kind === 'plan_end') this.#unfinished.delete(record.planId);
    else if (record.outcome.status === 'succeeded') this.#remember(record);
    else this.#completed.delete(record.key);
  }

  #remember(record: StepRecord): void {
    this.#completed.delete(record.key);
    this.#completed.set(record.key, record);
    if (this.#completed.size > this.options.capacity) this.#completed.delete(this.#completed.keys().next().value as string);
  }

  /** How many appends have failed so far: a plan compares it before and after each step. */
  get failures(): number {
    return this.#failures;
  }

  /** The failure a plan ends with once an append of its own did not land. */
  unavailable(): StepFailure {
    return stepFailure('journal_unavailable', `${this.#lastError?.message ?? 'the journal could not write'}; a restart may run the unrecorded step again`);
  }

  /** The most recently started plan that never ended, if any. */
  unfinished(): UnfinishedPlan | undefined {
    const start = [...this.#unfinished.values()].at(-1);
    return start && (start.intent ? { plan: start.plan, intent: start.intent } : { plan: start.plan });
  }

  /** Whether the store is shared with other processes (it answers `claim`). */
  get shared(): boolean {
    return this.store.claim !== undefined;
  }

  /** Asks a shared store about `key` before dispatch: its recorded outcome, undefined (run it), or a failure (must not run here). */
  async claim(key: string, step: ClaimedStep): Promise<StepOutcome | StepFailure | undefined> {
    try {
      return await this.store.claim?.(key, step);
    } catch (error) {
      this.#failed(error, 'step');
      return this.unavailable();
    }
  }

  /** Journals a plan's start; false when the record did not land (a promise of it for an asynchronous store). */
  planStarted(plan: Plan, intent: Intent | undefined): boolean | Promise<boolean> {
    const record: StartRecord = { kind: 'plan_start', at: this.clock.now(), plan, ...(intent ? { intent: { ...intent } } : {}) };
    this.#unfinished.delete(plan.planId);
    this.#unfinished.set(plan.planId, record);
    return this.#append(record);
  }

  /** Journals a step's outcome; false when the record did not land (a restart may then run the step again). */
  stepEnded(key: string, outcome: StepOutcome): boolean | Promise<boolean> {
    const record: StepRecord = { kind: 'step', at: this.clock.now(), key, outcome };
    if (outcome.status === 'succeeded') this.#remember(record);
    else this.#completed.delete(key);
    return this.#append(record);
  }

  /** A plan stopped by a lost body or a journal that could not write stays unfinished: a restart resumes it. */
  planEnded(outcome: PlanOutcome): void | Promise<void> {
    const code = outcome.failure?.code;
    if (code === 'body_disconnected' || code === 'journal_unavailable') return;
    this.#unfinished.delete(outcome.planId);
    const landed = this.#append({ kind: 'plan_end', at: this.clock.now(), planId: outcome.planId, status: outcome.status });
    if (landed === true) this.#compactIfDue();
    else if (landed !== false) return landed.then((ok) => void (ok && this.#compactIfDue()));
  }

  /** Synchronous for a synchronous store (the JSONL file), a promise for an asynchronous one. */
  #append(record: JournalRecord): boolean | Promise<boolean> {
    try {
      const pending = this.store.append(record);
      if (pending instanceof Promise) return pending.then(() => this.#landed(), (error: unknown) => this.#failed(error, record.kind));
      return this.#landed();
    } catch (error) {
      return this.#failed(error, record.kind);
    }
  }

  #landed(): true {
    this.#stored += 1;
    return true;
  }

  #failed(error: unknown, kind: JournalRecord['kind']): false {
    const failure = error instanceof JournalWriteError ? error : new JournalWriteError('(store)', kind, error);
    this.log.error('journal append failed', { error: describeError(failure), kind });
    this.#failures += 1;
    this.#lastError = failure;
    this.options.onWriteFailed?.(failure);
    return false;
  }

  /** Rewrites the store with what is live once it holds more than twice that (and at least MIN_COMPACT_RECORDS). */
  #compactIfDue(): void {
    const live = this.#unfinished.size + this.#completed.size;
    if (!this.store.compact || this.#stored < Math.max(MIN_COMPACT_RECORDS, 2 * live)) return;
    const records: JournalRecord[] = [...this.#unfinished.values(), ...this.#completed.values()];
    try {
      this.store.compact(records);
      this.#stored = records.length;
    } catch (error) {
      // The old history is intact (compaction is atomic): the journal stays correct, only longer.
      const failure = error instanceof JournalWriteError ? error : new JournalWriteError('(store)', 'compaction', error);
      this.log.error('journal compaction failed', { error: describeError(failure) });
      this.options.onWriteFailed?.(failure);
    }
  }
}
