import { JournalRecordSchema, parseJournal, type JournalRead, type JournalRecord } from '@sinew/bt-runtime';
import { StepOutcomeSchema, type StepOutcome } from '@sinew/executor-contracts';
import { Redis, type RedisOptions } from 'ioredis';
import { z } from 'zod';
import { ACQUIRE, APPEND, APPEND_THEN_BEGIN, BEGIN_STEP, RELEASE, RENEW, UNCLAIM } from './scripts.js';

/** Options of the Redis journal; a bad value is refused when the journal is built. */
export const RedisJournalOptionsSchema = z.strictObject({
  /** Prefix of every key (several fleets can share one Redis). */
  prefix: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . -').default('sinew-fleet'),
  /** How long a plan stays owned by a process that stopped renewing (it died): then another may take it. */
  leaseMs: z.number().int().min(100).max(600_000).default(30_000),
});
export type RedisJournalOptions = z.input<typeof RedisJournalOptionsSchema>;

/** A write the journal refused: `fenced` (the lease passed to another owner), `conflict` (the history moved under it). */
export class FleetWriteError extends Error {
  override readonly name = 'FleetWriteError';
  constructor(
    readonly code: 'fenced' | 'conflict',
    readonly planId: string,
    readonly what: JournalRecord['kind'],
  ) {
    super(`fleet journal: the ${what} record of plan ${planId} was refused (${code})`);
  }
}

/** One process's ownership of one plan: its fencing token, and how many history records it has seen. */
export interface PlanLease {
  readonly planId: string;
  readonly token: number;
  readonly holder: string;
  /** @internal the history length this owner expects (every append checks it). */
  length: number;
  /** The plan's history as it was when the lease was granted (read in the same atomic step). */
  readonly history: JournalRead;
}

/**
 * A claim of the step's key left by an earlier owner that never recorded the step (its process died, or it gave the
 * plan up): the step may have taken effect. `evidence` is what that owner's worker read from the world before it
 * dispatched the step (see `StepRecovery.evidence`), as JSON came back: unknown until its verifier checks it.
 */
export interface PreviousDispatch {
  /** The worker id that claimed it (`createFleetWorker({ id })`). */
  readonly worker: string;
  readonly evidence?: unknown;
}

/** What claiming a step answered: run it (`previous`: an earlier owner may have run it), it already completed (its outcome), or another live plan holds its key. */
export type StepClaim =
  | { readonly state: 'acquired'; readonly previous?: PreviousDispatch }
  | { readonly state: 'duplicate'; readonly outcome: StepOutcome }
  | { readonly state: 'busy' }
  | { readonly state: 'fenced' };

/** Durable plan history, completed keys and leases on Redis, shared by every process of a fleet. */
export interface FleetJournal {
  readonly leaseMs: number;
  /** Takes the plan for `owner` (a new fencing token); undefined while another owner's lease holds it. */
  acquire(planId: string, owner: string): Promise<PlanLease | undefined>;
  /** Extends the lease; false when it was lost (expired and taken, or released). */
  renew(lease: PlanLease): Promise<boolean>;
  /** Gives the plan up at once (another owner may take it before the lease would have expired). */
  release(lease: PlanLease): Promise<void>;
  /** The plan's history, oldest first. */
  history(planId: string): Promise<JournalRead>;
  /**
   * Marks a step's key in flight under the lease (with the `evidence` its worker read from the world, JSON), or
   * answers `duplicate` with the outcome any process recorded.
   */
  claimStep(lease: PlanLease, key: string, evidence?: unknown): Promise<StepClaim>;
  /** Appends under the lease; returns once Redis acknowledged it (fsync'd with appendfsync always); throws FleetWriteError when refused. */
  append(lease: PlanLease, record: JournalRecord): Promise<void>;
  /** `append`, then `claimStep` of `next` in the same atomic script: one round trip for a step's record and the next claim. */
  appendThenClaim(lease: PlanLease, record: JournalRecord, next: { readonly key: string; readonly evidence?: unknown }): Promise<StepClaim>;
  /** Drops this lease's claim of a step it will not run (a claim made ahead, for a step the plan did not go on to). */
  unclaim(lease: PlanLease, key: string): Promise<void>;
  /** The outcome of a completed key, from any process. */
  completed(key: string): Promise<StepOutcome | undefined>;
  /** Closes the Redis connection. */
  close(): Promise<void>;
}

/** One record per list entry, read exactly as the JSONL journal reads its lines (invalid ones skipped and counted). */
const parseLines = (lines: readonly string[]): JournalRead => parseJournal(lines.join('\n'));

/** An in-flight entry as BEGIN_STEP wrote it: `{ plan, holder: "token worker", evidence?: JSON text }`. */
const InFlightEntrySchema = z.object({ plan: z.string(), holder: z.string(), evidence: z.string().optional() });

function parsePrevious(text: string): PreviousDispatch {
  const entry = InFlightEntrySchema.parse(JSON.parse(text));
  const worker = entry.holder.slice(entry.holder.indexOf(' ') + 1);
  return entry.evidence === undefined ? { worker } : { worker, evidence: JSON.parse(entry.evidence) as unknown };
}

/** A journal on the Redis at `connection` (ioredis options or a redis:// URL). */
export function createRedisJournal(connection: RedisOptions | string, options: RedisJournalOptions = {}): FleetJournal {
  const { prefix, leaseMs } = RedisJournalOptionsSchema.parse(options);
  const redis = typeof connection === 'string' ? new Redis(connection, { maxRetriesPerRequest: null }) : new Redis({ ...connection, maxRetriesPerRequest: null });
  // Connection errors reach the caller through the commands (which wait through a reconnect); the event would only print.
  redis.on('error', () => undefined);
  const key = {
    lease: (planId: string) => `${prefix}:lease:${planId}`,
    fence: (planId: string) => `${prefix}:fence:${planId}`,
    history: (planId: string) => `${prefix}:history:${planId}`,
    done: (stepKey: string) => `${prefix}:done:${stepKey}`,
    inflight: (stepKey: string) => `${prefix}:inflight:${stepKey}`,
  };
  const holderOf = (lease: PlanLease) => `${lease.token} ${lease.holder}`;
  const parseOutcome = (text: string) => StepOutcomeSchema.parse(JSON.parse(text));
  /** BEGIN_STEP's keys after the lease (done, inflight), and its ARGV after the holder (planId, lease prefix, evidence). */
  const claimArgs = (lease: PlanLease, stepKey: string, evidence: unknown) => ({
    keys: [key.done(stepKey), key.inflight(stepKey)],
    argv: [lease.planId, `${prefix}:lease:`, evidence === undefined ? '' : JSON.stringify(evidence)],
  });
  const claimOf = ([state, detail]: readonly string[]): StepClaim => {
    if (state === 'duplicate') return { state, outcome: parseOutcome(detail!) };
    if (state === 'acquired') return detail === '' ? { state } : { state, previous: parsePrevious(detail!) };
    return { state: state === 'busy' ? 'busy' : 'fenced' };
  };
  /** APPEND's four keys and five ARGV. */
  const appendArgs = (lease: PlanLease, input: JournalRecord) => {
    const record = JournalRecordSchema.parse(input);
    const stepKey = record.kind === 'step' ? record.key : '';
    const outcome = record.kind === 'step' && record.outcome.status === 'succeeded' ? JSON.stringify(record.outcome) : '';
    const keys = [key.lease(lease.planId), key.history(lease.planId), key.done(stepKey), key.inflight(stepKey)];
    return { keys, argv: [holderOf(lease), String(lease.length), JSON.stringify(record), outcome, record.kind === 'step' ? '1' : '0'] };
  };
  const appended = (lease: PlanLease, record: JournalRecord, answer: string) => {
    if (answer !== 'ok') throw new FleetWriteError(answer === 'fenced' ? 'fenced' : 'conflict', lease.planId, record.kind);
    lease.length += 1;
  };

  return {
    leaseMs,
    async acquire(planId, owner) {
      const [token, lines] = (await redis.eval(ACQUIRE, 3, key.lease(planId), key.fence(planId), key.history(planId), owner, leaseMs)) as [number, string[] | string];
      if (token === 0 || typeof lines === 'string') return undefined;
      return { planId, token, holder: owner, length: lines.length, history: parseLines(lines) };
    },
    renew: async (lease) => (await redis.eval(RENEW, 1, key.lease(lease.planId), holderOf(lease), leaseMs)) === 1,
    release: async (lease) => void (await redis.eval(RELEASE, 1, key.lease(lease.planId), holderOf(lease))),
    history: async (planId) => parseLines(await redis.lrange(key.history(planId), 0, -1)),
    async claimStep(lease, stepKey, evidence) {
      const claim = claimArgs(lease, stepKey, evidence);
      const answer = (await redis.eval(BEGIN_STEP, 3, key.lease(lease.planId), ...claim.keys, holderOf(lease), ...claim.argv)) as [string, string];
      return claimOf(answer);
    },
    async append(lease, input) {
      const { keys, argv } = appendArgs(lease, input);
      const answer = (await redis.eval(APPEND, 4, ...keys, ...argv)) as string;
      appended(lease, input, answer);
    },
    async appendThenClaim(lease, input, next) {
      const [write, claim] = [appendArgs(lease, input), claimArgs(lease, next.key, next.evidence)];
      const answer = (await redis.eval(APPEND_THEN_BEGIN, 6, ...write.keys, ...claim.keys, ...write.argv, ...claim.argv)) as string[];
      appended(lease, input, answer[0]!);
      return claimOf(answer.slice(1));
    },
    unclaim: async (lease, stepKey) => void (await redis.eval(UNCLAIM, 1, key.inflight(stepKey), holderOf(lease))),
    async completed(stepKey) {
      const text = await redis.get(key.done(stepKey));
      return text === null ? undefined : parseOutcome(text);
    },
    close: async () => void (await redis.quit()),
  };
}
