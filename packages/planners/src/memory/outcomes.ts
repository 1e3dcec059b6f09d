import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { type MethodUplift, UpliftTracker, type UpliftOptions } from './uplift.js';

const StatsSchema = z.object({ successes: z.number().int().nonnegative(), failures: z.number().int().nonnegative() });
/** Successes and failures recorded for one key. */
export type OutcomeStats = z.infer<typeof StatsSchema>;

/** On-disk format of an outcome memory: `subject` (planner or method) → context key → counts. */
export const OutcomeMemoryFileSchema = z.object({
  version: z.literal(1),
  outcomes: z.record(z.string(), z.record(z.string(), StatsSchema)),
});
export type OutcomeMemoryFile = z.infer<typeof OutcomeMemoryFileSchema>;

/** Why an outcome memory file could not be loaded: which file, a code, a reason. */
export interface OutcomeMemoryError {
  readonly code: 'memory_file_invalid' | 'memory_file_unreadable';
  readonly reason: string;
  readonly path: string;
}

/**
 * Success/failure counts per (subject, context key) — the HTN method-effectiveness memory and the
 * router's priors. `score` is the Laplace-smoothed success rate, 0.5 when nothing is known.
 */
export class OutcomeMemory {
  readonly #outcomes = new Map<string, Map<string, { successes: number; failures: number }>>();
  readonly #uplift: UpliftTracker;

  constructor(
    /** Where `save()` writes; undefined keeps the memory in process only. */
    readonly path?: string,
    initial?: OutcomeMemoryFile,
    options: { readonly uplift?: UpliftOptions } = {},
  ) {
    this.#uplift = new UpliftTracker(options.uplift);
    for (const [subject, contexts] of Object.entries(initial?.outcomes ?? {})) {
      this.#outcomes.set(subject, new Map(Object.entries(contexts).map(([key, stats]) => [key, { ...stats }])));
    }
  }

  /** Records one outcome of `subject` in `context`. */
  record(subject: string, context: string, success: boolean): void {
    const contexts = this.#outcomes.get(subject) ?? new Map<string, { successes: number; failures: number }>();
    const stats = contexts.get(context) ?? { successes: 0, failures: 0 };
    if (success) stats.successes += 1;
    else stats.failures += 1;
    contexts.set(context, stats);
    this.#outcomes.set(subject, contexts);
    this.#uplift.record(subject, success);
  }

  /** Method uplift per task: success over the first vs the last N outcomes recorded here (see UpliftTracker). */
  uplift(): MethodUplift[] {
    return this.#uplift.uplift();
  }

  /** Counts for `subject` in `context` (zeros when unknown). */
  stats(subject: string, context: string): OutcomeStats {
    const stats = this.#outcomes.get(subject)?.get(context);
    return stats ? { ...stats } : { successes: 0, failures: 0 };
  }

  /** Laplace-smoothed success rate in [0, 1]; 0.5 with no evidence. */
  score(subject: string, context: string): number {
    const { successes, failures } = this.stats(subject, context);
    return (successes + 1) / (successes + failures + 2);
  }

  /** The memory as data, keys sorted so the file is stable. */
  toJSON(): OutcomeMemoryFile {
    const outcomes: OutcomeMemoryFile['outcomes'] = {};
    for (const subject of [...this.#outcomes.keys()].sort()) {
      const contexts = this.#outcomes.get(subject)!;
      outcomes[subject] = Object.fromEntries([...contexts.keys()].sort().map((key) => [key, { ...contexts.get(key)! }]));
    }
    return { version: 1, outcomes };
  }

  /** Writes the memory to `path` atomically (temp file + rename). */
  save(): void {
    if (!this.path) return;
    mkdirSync(dirname(this.path), { recursive: true });
    const temp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(this.toJSON(), null, 2)}\n`);
    renameSync(temp, this.path);
  }
}

/** Loads a memory file; a missing file is an empty memory, a bad one a coded error. */
export function loadOutcomeMemory(path: string): { ok: true; memory: OutcomeMemory } | { ok: false; error: OutcomeMemoryError } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, memory: new OutcomeMemory(path) };
    return { ok: false, error: { code: 'memory_file_unreadable', reason: (error as Error).message, path } };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: { code: 'memory_file_invalid', reason: `not JSON: ${(error as Error).message}`, path } };
  }
  const parsed = OutcomeMemoryFileSchema.safeParse(json);
  if (!parsed.success) return { ok: false, error: { code: 'memory_file_invalid', reason: z.prettifyError(parsed.error), path } };
  return { ok: true, memory: new OutcomeMemory(path, parsed.data) };
}

/**
 * A context key from an intent's context: its categorical (string/boolean) entries, sorted, `k:v|k:v`
 * (e.g. `biome:taiga|time:dusk`), so priors are looked up the same way everywhere. Numbers (counts,
 * distances) are left out: they would split the evidence into one bucket per value.
 */
export function contextKey(context: Record<string, unknown>, keys?: readonly string[]): string {
  const entries = Object.entries(context)
    .filter(([key, value]) => (keys ? keys.includes(key) : true) && ['string', 'boolean'].includes(typeof value))
    .sort(([a], [b]) => a.localeCompare(b));
  return entries.length ? entries.map(([key, value]) => `${key}:${String(value)}`).join('|') : '*';
}
