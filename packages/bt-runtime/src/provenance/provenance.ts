import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { StepFailure, StepOutcome } from '@sinew/executor-contracts';

/** One entry of a step's actuator trace. */
export interface TraceEntry {
  /** Milliseconds since the step started. */
  readonly atMs: number;
  readonly kind: 'command' | 'transition' | 'progress';
  /** The actuator command, BT node path, or progress note. */
  readonly name: string;
  readonly detail?: string;
}

/** One record per step: intent → plan → step → capability@version → actuator trace → effects → outcome. */
export interface ProvenanceRecord {
  readonly intentId: string;
  readonly planId: string;
  readonly stepId: string;
  readonly verb: string;
  /** `name@version`, absent when the verb did not resolve. */
  readonly capability?: string;
  readonly args?: unknown;
  readonly idempotencyKey?: string;
  readonly attempts: number;
  readonly preemptions: number;
  readonly trace: readonly TraceEntry[];
  /** Entries dropped because the trace hit its limit. */
  readonly traceDropped: number;
  readonly acceptance?: { readonly ok: true } | { readonly ok: false; readonly unmet: readonly string[] };
  readonly failures: readonly StepFailure[];
  readonly outcome: StepOutcome;
  /** Set for steps run by `preempt()`. */
  readonly preemptReason?: string;
  /** The intent's `provenanceRef`: where the suggestion came from. */
  readonly provenanceRef?: string;
  /** The plan's `configHash`: the cognition config that made it. */
  readonly configHash?: string;
}

/** Where provenance records go. `flush` is awaited when a plan ends. */
export interface ProvenanceSink {
  /** Takes one step record (must not throw or block the executor). */
  write(record: ProvenanceRecord): void;
  /** Resolves once every record written so far is stored. */
  flush?(): Promise<void>;
  /** Flushes and releases the sink. */
  close?(): Promise<void>;
}

/** An in-memory ring of the last `capacity` records. */
export interface MemoryProvenance extends ProvenanceSink {
  /** The records kept, oldest first. */
  records(): ProvenanceRecord[];
  /** Forgets every record kept. */
  clear(): void;
}

/** Keeps the last `capacity` records (default 1000) in memory. */
export function createMemoryProvenance(options: { capacity?: number } = {}): MemoryProvenance {
  const capacity = options.capacity ?? 1000;
  if (!(Number.isInteger(capacity) && capacity > 0)) throw new RangeError(`createMemoryProvenance: capacity must be a positive integer, got ${capacity}`);
  const ring: ProvenanceRecord[] = new Array(capacity);
  let next = 0;
  let size = 0;
  return {
    write(record) {
      ring[next] = record;
      next = (next + 1) % capacity;
      size = Math.min(size + 1, capacity);
    },
    records() {
      const out: ProvenanceRecord[] = [];
      for (let i = 0; i < size; i += 1) out.push(ring[(next - size + i + capacity) % capacity]!);
      return out;
    },
    clear() {
      next = 0;
      size = 0;
    },
  };
}

/** Appends records as JSON lines to `path`; buffered and written on `flush()` (the executor flushes at plan end). */
export function createJsonlProvenance(options: { path: string }): ProvenanceSink & { readonly path: string } {
  const { path } = options;
  let buffer: string[] = [];
  let writing: Promise<void> = Promise.resolve();
  let dirReady = false;
  const flush = (): Promise<void> => {
    if (buffer.length === 0) return writing;
    const attempt = writing.then(async () => {
      // Taken when this write runs, so lines a failed write put back go out first, in order.
      const lines = buffer;
      if (lines.length === 0) return;
      buffer = [];
      try {
        if (!dirReady) {
          await mkdir(dirname(path), { recursive: true });
          dirReady = true;
        }
        await appendFile(path, lines.join(''), 'utf8');
      } catch (error) {
        buffer = lines.concat(buffer);
        throw error;
      }
    });
    // The error goes to this flush's caller only; the chain stays usable for the next flush.
    writing = attempt.catch(() => {});
    return attempt;
  };
  return {
    path,
    write(record) {
      buffer.push(`${JSON.stringify(record)}\n`);
    },
    flush,
    close: flush,
  };
}

/** Hands every record to `callback` (errors it throws are swallowed by the executor and logged). */
export function createCallbackProvenance(callback: (record: ProvenanceRecord) => void): ProvenanceSink {
  return { write: callback };
}
