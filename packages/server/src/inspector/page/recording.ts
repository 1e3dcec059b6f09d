import type { Envelope } from './stream.js';

type Data = Record<string, unknown>;

/** What a recorded run was read from: the server's `record` file, provenance records, or a plan journal. */
export type RecordingKind = 'events' | 'provenance' | 'journal';

/** A recorded run as the stream events the inspector plays, in time order. */
export interface Recording {
  readonly kind: RecordingKind;
  readonly events: readonly Envelope[];
  /** Node paths by verb (only an events recording carries them; other trees are drawn as their nodes are seen). */
  readonly trees: Readonly<Record<string, readonly string[]>>;
  /** Lines that were not JSON objects of the file's kind (a torn last write, a foreign line). */
  readonly skipped: number;
}

/** A file that is none of the three kinds: which line, and what was expected. */
export class RecordingError extends Error {
  override readonly name = 'RecordingError';
}

/**
 * Reads JSON-lines text into a playable recording; the kind is told by the first object's shape
 * (`{ v, seq, type }` an event, `{ kind }` a journal record, `{ stepId, outcome }` a provenance record).
 */
export function parseRecording(text: string): Recording {
  const rows: Data[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const value = tryJson(line);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) rows.push(value as Data);
    else skipped += 1;
  }
  const first = rows[0];
  if (first === undefined) throw new RecordingError('the file holds no JSON lines: expected a serveSinew record file, provenance JSONL or a plan journal');
  const kind = kindOf(first);
  if (kind === undefined) throw new RecordingError(`the first line is not an event envelope ({ v, seq, type, data }), a journal record ({ kind }) nor a provenance record ({ stepId, outcome }): ${JSON.stringify(first).slice(0, 120)}`);
  const mine = rows.filter((row) => kindOf(row) === kind);
  skipped += rows.length - mine.length;
  if (kind === 'events') return { kind, ...fromEvents(mine), skipped };
  const events = kind === 'journal' ? fromJournal(mine) : fromProvenance(mine);
  return { kind, events: number(events), trees: {}, skipped };
}

function kindOf(row: Data): RecordingKind | undefined {
  if (typeof row.type === 'string' && typeof row.seq === 'number' && 'data' in row) return 'events';
  if (row.kind === 'plan_start' || row.kind === 'step' || row.kind === 'plan_end') return 'journal';
  if (typeof row.stepId === 'string' && typeof row.outcome === 'object' && row.outcome !== null) return 'provenance';
  return undefined;
}

function fromEvents(rows: readonly Data[]): { events: Envelope[]; trees: Record<string, readonly string[]> } {
  let trees: Record<string, readonly string[]> = {};
  const events: Envelope[] = [];
  for (const row of rows) {
    const data = (row.data ?? {}) as Data;
    if (row.type === 'recording.started') trees = { ...trees, ...((data.trees ?? {}) as Record<string, readonly string[]>) };
    else if (row.type !== 'stream.hello') events.push(row as unknown as Envelope);
  }
  return { events, trees };
}

/** A journal: plan starts, each step's outcome (dispatched at its start, ended at its end), plan ends. */
function fromJournal(rows: readonly Data[]): Unnumbered[] {
  const events: Unnumbered[] = [];
  for (const row of rows) {
    const at = Number(row.at);
    if (row.kind === 'plan_start') {
      const plan = (row.plan ?? {}) as Data;
      const steps = Array.isArray(plan.steps) ? plan.steps.length : 0;
      events.push({ ts: at, type: 'planGenerated', data: { intentId: plan.intentId, planner: plan.planner ?? 'journal', plan } });
      events.push({ ts: at, type: 'plan.started', data: { planId: plan.planId, intentId: plan.intentId, steps } });
    } else if (row.kind === 'step') events.push(...stepEvents((row.outcome ?? {}) as Data, []));
    else events.push({ ts: at, type: 'executionComplete', data: { planId: row.planId, status: row.status } });
  }
  return byTime(events);
}

/** Provenance: each record's step with its node transitions (from the actuator trace) and retries; a plan ends with its last step. */
function fromProvenance(rows: readonly Data[]): Unnumbered[] {
  const events: Unnumbered[] = [];
  const plans = new Map<string, { intentId: unknown; start: number; end: number; steps: Set<string>; last: Data }>();
  for (const row of rows) {
    const outcome = (row.outcome ?? {}) as Data;
    const planId = String(row.planId);
    const start = Number(outcome.startedAt);
    const plan = plans.get(planId) ?? { intentId: row.intentId, start, end: start, steps: new Set<string>(), last: outcome };
    plan.steps.add(String(row.stepId));
    plan.start = Math.min(plan.start, start);
    if (Number(outcome.endedAt) >= plan.end) [plan.end, plan.last] = [Number(outcome.endedAt), outcome];
    plans.set(planId, plan);
    const trace = Array.isArray(row.trace) ? (row.trace as Data[]) : [];
    events.push(...stepEvents({ ...outcome, capability: outcome.capability ?? row.capability }, trace, Array.isArray(row.failures) ? (row.failures as Data[]) : []));
  }
  for (const [planId, plan] of plans) {
    events.push({ ts: plan.start, type: 'plan.started', data: { planId, intentId: plan.intentId, steps: plan.steps.size } });
    const status = plan.last.status === 'succeeded' ? 'completed' : 'failed';
    events.push({ ts: plan.end, type: 'executionComplete', data: { planId, status, ...(plan.last.failure ? { failure: plan.last.failure, failedStepId: plan.last.stepId } : {}) } });
  }
  return byTime(events);
}

/** One step's life from its outcome: dispatched, its BT transitions and earlier failures (as retries), then its end. */
function stepEvents(outcome: Data, trace: readonly Data[], failures: readonly Data[] = []): Unnumbered[] {
  const ref = { planId: outcome.planId, stepId: outcome.stepId, verb: outcome.verb };
  const start = Number(outcome.startedAt);
  const end = Number(outcome.endedAt);
  const attempts = Math.max(1, Number(outcome.attempts) || 1);
  const events: Unnumbered[] = [{ ts: start, type: 'step.dispatched', data: { ...ref, capability: capabilityName(outcome.capability), attempt: 1 } }];
  const states = new Map<string, string>();
  for (const entry of trace) {
    if (entry.kind !== 'transition') continue;
    const nodePath = String(entry.name);
    const to = String(entry.detail ?? '');
    events.push({ ts: start + Number(entry.atMs), type: 'bt.transition', data: { ...ref, attempt: attempts, nodePath, from: states.get(nodePath) ?? 'ready', to } });
    states.set(nodePath, to);
  }
  // Failures before the last one were retried (the last is the outcome's own when it failed).
  const retried = outcome.status === 'failed' ? failures.slice(0, -1) : failures;
  retried.forEach((failure, index) => events.push({ ts: start, type: 'step.retry', data: { ...ref, attempt: index + 1, failure } }));
  events.push({ ts: end, type: outcome.status === 'succeeded' ? 'step.succeeded' : 'step.failed', data: outcome });
  return events;
}

function capabilityName(capability: unknown): string {
  if (typeof capability === 'string') return capability;
  const named = capability as { name?: unknown; version?: unknown } | undefined;
  return named?.name ? `${String(named.name)}@${String(named.version ?? '')}` : '';
}

type Unnumbered = Omit<Envelope, 'v' | 'seq'>;

/** Within one instant a plan starts before its steps and ends after them. */
const RANK: Readonly<Record<string, number>> = { planGenerated: 0, 'plan.started': 1, executionComplete: 3 };

/** Stable sort by time: events of one instant keep their rank, then the order they were derived in. */
function byTime(events: Unnumbered[]): Unnumbered[] {
  const rank = (type: string) => RANK[type] ?? 2;
  return events
    .map((event, index) => ({ event, index }))
    .sort((a, b) => a.event.ts - b.event.ts || rank(a.event.type) - rank(b.event.type) || a.index - b.index)
    .map(({ event }) => event);
}

function number(events: readonly Unnumbered[]): Envelope[] {
  return events.map((event, index) => ({ v: 1, seq: index + 1, ...event, ts: Number.isFinite(event.ts) ? event.ts : 0 }));
}

function tryJson(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return null;
  }
}
