import { PlanSchema, StepOutcomeSchema, type StepOutcome } from '@sinew/executor-contracts';
import { z } from 'zod';

/** One journal line: a plan began, a step dispatched by the executor ended, or a plan ended. */
export const JournalRecordSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('plan_start'), at: z.number(), plan: PlanSchema, intent: z.record(z.string(), z.unknown()).optional() }),
  z.strictObject({ kind: z.literal('step'), at: z.number(), key: z.string().min(1), outcome: StepOutcomeSchema }),
  z.strictObject({ kind: z.literal('plan_end'), at: z.number(), planId: z.string().min(1), status: z.enum(['completed', 'failed', 'aborted']) }),
]);
export type JournalRecord = z.infer<typeof JournalRecordSchema>;

/** What a store read back: the valid records in order, and how many lines it skipped (torn or invalid). */
export interface JournalRead {
  readonly records: readonly JournalRecord[];
  readonly skipped: number;
}

/** The step a shared store is asked about before dispatch (`claim`): enough for it to check the world first. */
export interface ClaimedStep {
  readonly planId: string;
  readonly stepId: string;
  /** The canonical verb (the capability's name, an alias resolved). */
  readonly verb: string;
  /** The args as the capability's input schema parsed them. */
  readonly args: unknown;
}

/**
 * Where journal records go. `append` returns (or its promise resolves) once the record is durable — the executor
 * awaits it before it answers the step — and throws (rejects) when it is not: the executor then ends the plan
 * `journal_unavailable`. `compact`, when present, replaces the whole history with the records given (atomically:
 * the old history or the new, never a mix). A store shared by several processes (a fleet, on a network database)
 * returns promises and implements `claim`.
 */
export interface JournalStore {
  /** Appends one record durably; throws (or rejects) when it did not land. */
  append(record: JournalRecord): void | Promise<void>;
  /**
   * Shared stores: asked before a step is dispatched. Resolves the outcome another process recorded for `key`
   * (the step is answered `duplicate`, not dispatched) or undefined (run it); rejects when the step must not run
   * here (the plan passed to another owner): the plan then ends `journal_unavailable`. `step` lets a store whose
   * key was left in flight by a process that died check the world before the step runs again (a failed outcome
   * answered here ends the step with that failure, not dispatched).
   */
  claim?(key: string, step: ClaimedStep): Promise<StepOutcome | undefined>;
  /** Reads every valid record back, counting the lines it skipped. */
  readAll(): JournalRead;
  /** Replaces the whole history with these records, atomically. */
  compact?(records: readonly JournalRecord[]): void;
  /** Releases the store (file handles). */
  close?(): void;
}

/** A journal write that did not land whole: `cause` is the system error (`ENOSPC`, `EFBIG`, `EIO`, a short write). */
export class JournalWriteError extends Error {
  override readonly name = 'JournalWriteError';
  /** The system error code when there is one (`ENOSPC`, `EFBIG`, `ESHORTWRITE`, …), else `unknown`. */
  readonly errno: string;

  constructor(
    readonly file: string,
    readonly what: JournalRecord['kind'] | 'compaction',
    cause: unknown,
  ) {
    const errno = typeof (cause as { code?: unknown } | null)?.code === 'string' ? (cause as { code: string }).code : 'unknown';
    super(`journal ${file}: the ${what} record was not written (${errno}): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.errno = errno;
  }
}

/** Reads JSONL text: every line parsed and validated; an unreadable line (a torn last write) is skipped and counted. */
export function parseJournal(text: string): JournalRead {
  const records: JournalRecord[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const parsed = JournalRecordSchema.safeParse(tryJson(line));
    if (parsed.success) records.push(parsed.data);
    else skipped += 1;
  }
  return { records, skipped };
}

function tryJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/** A journal kept in memory (tests, or a process that only needs resume within its lifetime). */
export function createMemoryJournal(): JournalStore & { readonly records: JournalRecord[] } {
  const records: JournalRecord[] = [];
  return {
    records,
    append: (record) => void records.push(JournalRecordSchema.parse(record)),
    readAll: () => ({ records: [...records], skipped: 0 }),
    compact: (kept) => void records.splice(0, records.length, ...kept),
  };
}
