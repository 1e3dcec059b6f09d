import { PlanSchema, type PlanInput } from '@sinew/executor-contracts';
import { Queue, Worker } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import { z } from 'zod';

/** Options of the plan queue; a bad value is refused when the queue is built. */
export const FleetQueueOptionsSchema = z.strictObject({
  /** Prefix of every key (the same as the journal's keeps one fleet's keys together). */
  prefix: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . -').default('sinew-fleet'),
  /** How long a taken plan stays locked to a worker that stopped renewing (it died) before it goes back to the queue. */
  lockMs: z.number().int().min(100).max(600_000).default(30_000),
  /** How often each worker looks for plans whose lock expired. */
  stalledCheckMs: z.number().int().min(50).max(600_000).default(5_000),
});
export type FleetQueueOptions = z.input<typeof FleetQueueOptionsSchema>;

const TraceParentSchema = z.string().regex(/^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/, 'a W3C traceparent: 00-<32 hex>-<16 hex>-<2 hex>');

/** What a queued job carries: the plan, and the trace every worker that runs part of it joins. @internal */
export const FleetJobSchema = z.strictObject({ plan: PlanSchema, traceParent: TraceParentSchema });

/** Options of one submit. */
export interface SubmitOptions {
  /** The W3C traceparent the plan's spans join (the producer's own span); default: a new trace for this plan. */
  readonly traceParent?: string;
}

/** A new trace for a plan whose producer does not trace: its workers' spans still share one trace id. */
const newTraceParent = () => `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;

/** The verbs a plan needs, as the queue name that carries it: a worker reads only queues whose every verb it has. */
export function queueNameOf(verbs: Iterable<string>): string {
  return `plans.${[...new Set(verbs)].sort().map(encodeURIComponent).join('+')}`;
}

/** The verbs behind a queue name made by `queueNameOf`. */
export function verbsOf(queueName: string): string[] {
  return queueName.slice('plans.'.length).split('+').map(decodeURIComponent);
}

/** A plan queued: its id, the BullMQ job id, the queue (the verb set) it waits in, the trace its spans join. */
export interface FleetSubmission {
  readonly planId: string;
  readonly jobId: string;
  readonly queue: string;
  readonly traceParent: string;
}

/** The plan queue of a fleet: producers submit plans, workers take them (see `createFleetWorker`). */
export interface FleetQueue {
  /**
   * Queues a plan (validated with PlanSchema: a bad one throws its ZodError) for a bot that has its verbs; resubmitting
   * a planId queues nothing new. Resolves once Redis acknowledged the job (its id, the plan's queue).
   */
  submit(plan: PlanInput, options?: SubmitOptions): Promise<FleetSubmission>;
  /** Queues many plans in one round trip per verb set (each validated first: one bad plan queues none), each its own trace. */
  submitAll(plans: readonly PlanInput[]): Promise<FleetSubmission[]>;
  /** How many submit wake-ups this process has seen (pass to `waitForWork`). @internal */
  submissions(): number;
  /** Resolves at the next submit anywhere in the fleet after `seen` (at once if one came already), or after `ms`. @internal */
  waitForWork(seen: number, ms: number): Promise<void>;
  /**
   * The queue names plans were ever submitted to (read again after `NAMES_FRESH_MS`, or when a submit names a new one),
   * the ones a plan was put back in first (see `requeued`). @internal
   */
  queueNames(): Promise<string[]>;
  /** Tells every process that a plan whose worker died was put back in `queueName`: their next look starts there. @internal */
  requeued(queueName: string): Promise<void>;
  /** A worker of this process looked in `queueName` after it was named requeued (it took the plan, or found none). @internal */
  served(queueName: string): void;
  /** A manual BullMQ worker on one queue name. @internal */
  openWorker(queueName: string): Worker;
  readonly options: z.output<typeof FleetQueueOptionsSchema>;
  /** Closes every queue this producer opened. */
  close(): Promise<void>;
}

/** A plan queue (BullMQ) on the Redis at `connection` (ioredis options or a redis:// URL). */
export function createFleetQueue(connection: RedisOptions | string, options: FleetQueueOptions = {}): FleetQueue {
  const parsed = FleetQueueOptionsSchema.parse(options);
  // BullMQ's blocking commands need maxRetriesPerRequest: null (wait through a reconnect instead of failing).
  const base: RedisOptions = typeof connection === 'string' ? {} : connection;
  const redis = typeof connection === 'string' ? new Redis(connection, { maxRetriesPerRequest: null }) : new Redis({ ...base, maxRetriesPerRequest: null });
  // Connection errors reach the caller through the commands (which wait through a reconnect); the event would only print.
  redis.on('error', () => undefined);
  const bullPrefix = `${parsed.prefix}:bull`;
  const namesKey = `${parsed.prefix}:queues`;
  const queues = new Map<string, Queue>();
  const queueOf = (name: string) => queues.get(name) ?? queues.set(name, new Queue(name, { connection: redis, prefix: bullPrefix })).get(name)!;
  const wakeChannel = `${parsed.prefix}:submitted`;
  const names = new QueueNames(() => redis.smembers(namesKey));
  const wake = new SubmitWake(redis, wakeChannel, (message) => (message.startsWith(REQUEUED) ? names.requeue(message.slice(REQUEUED.length)) : names.add(message)));

  /** The name set, the jobs and the wake-ups, each one round trip; the set and the jobs share a connection, so in order. */
  async function enqueue(jobs: readonly FleetJob[]): Promise<FleetSubmission[]> {
    if (jobs.length === 0) return [];
    const submissions = jobs.map(({ plan, traceParent }) => ({ planId: plan.planId, jobId: encodeURIComponent(plan.planId), queue: queueNameOf(plan.steps.map((step) => step.type)), traceParent }));
    const byQueue = new Map<string, { name: 'plan'; data: FleetJob; opts: { jobId: string; removeOnComplete: false; removeOnFail: false } }[]>();
    submissions.forEach(({ queue, jobId }, n) => {
      const bulk = byQueue.get(queue) ?? byQueue.set(queue, []).get(queue)!;
      bulk.push({ name: 'plan', data: jobs[n]!, opts: { jobId, removeOnComplete: false, removeOnFail: false } });
    });
    await Promise.all([redis.sadd(namesKey, ...byQueue.keys()), ...[...byQueue].map(([name, bulk]) => queueOf(name).addBulk(bulk))]);
    await Promise.all(submissions.map(({ queue }) => redis.publish(wakeChannel, queue)));
    return submissions;
  }

  return {
    options: parsed,
    async submit(input, submitOptions = {}) {
      const traceParent = TraceParentSchema.parse(submitOptions.traceParent ?? newTraceParent());
      const [submission] = await enqueue([{ plan: PlanSchema.parse(input), traceParent }]);
      return submission!;
    },
    submitAll: async (inputs) => enqueue(inputs.map((input) => ({ plan: PlanSchema.parse(input), traceParent: newTraceParent() }))),
    submissions: () => wake.seen,
    waitForWork: (seen, ms) => wake.wait(seen, ms),
    queueNames: () => names.read(),
    requeued: async (name) => void (await redis.publish(wakeChannel, `${REQUEUED}${name}`)),
    served: (name) => names.served(name),
    openWorker: (name) =>
      new Worker(name, null, {
        // Options, not a client: the worker then owns its connections and closes them with itself.
        connection: { ...redis.options, maxRetriesPerRequest: null },
        prefix: bullPrefix,
        lockDuration: parsed.lockMs,
        stalledInterval: parsed.stalledCheckMs,
        // A plan is put back however often its worker dies: the journal, not a retry count, decides what runs again.
        maxStalledCount: 1_000_000,
        autorun: false,
      }),
    async close() {
      await wake.close();
      await Promise.all([...queues.values()].map((queue) => queue.close()));
      await redis.quit();
    },
  };
}

type FleetJob = z.output<typeof FleetJobSchema>;

/** A wake-up message naming a queue a plan was put back in (a queue name starts with `plans.`, never with this). */
const REQUEUED = '!';

/** How long a process trusts its list of queue names before reading it again (a new name also arrives with its submit). */
const NAMES_FRESH_MS = 1_000;

/**
 * The queue names, read from Redis at most every `NAMES_FRESH_MS`: an idle worker looks for work after every plan
 * and every wake-up, and a read per look is a round trip that waits behind the writes' fsync. Queues a plan was put
 * back in come first (a plan whose worker died is at the head of its queue, but a worker that always looked in the
 * same order would drain every queue before it first: 2-17 s of takeover in a busy fleet); the rest rotate, so no
 * verb set waits for another to drain.
 */
class QueueNames {
  #names: Set<string> | undefined;
  #readAt = 0;
  #turn = 0;
  /** Queue name → plans put back in it that no worker of this process has looked for yet. */
  readonly #requeued = new Map<string, number>();
  constructor(private readonly load: () => Promise<string[]>) {}

  async read(): Promise<string[]> {
    if (!this.#names || Date.now() - this.#readAt > NAMES_FRESH_MS) {
      const names = new Set(await this.load());
      [this.#names, this.#readAt] = [names, Date.now()];
    }
    const all = [...this.#names];
    const start = (this.#turn += 1) % Math.max(1, all.length);
    const rotated = [...all.slice(start), ...all.slice(0, start)];
    return [...this.#requeued.keys(), ...rotated.filter((name) => !this.#requeued.has(name))];
  }

  requeue(name: string): void {
    this.#requeued.set(name, (this.#requeued.get(name) ?? 0) + 1);
    this.add(name);
  }

  served(name: string): void {
    const left = (this.#requeued.get(name) ?? 0) - 1;
    if (left > 0) this.#requeued.set(name, left);
    else this.#requeued.delete(name);
  }

  add(name: string): void {
    this.#names?.add(name);
  }
}

/** Idle workers wait on this instead of polling: one subscriber per queue object, opened on first wait. */
class SubmitWake {
  seen = 0;
  #subscriber: Redis | undefined;
  readonly #waiters = new Set<() => void>();
  constructor(
    private readonly redis: Redis,
    private readonly channel: string,
    private readonly named: (queueName: string) => void,
  ) {}

  wait(seen: number, ms: number): Promise<void> {
    this.#subscriber ??= this.#subscribe();
    if (this.seen !== seen) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#waiters.add(done);
    });
  }

  #subscribe(): Redis {
    const subscriber = this.redis.duplicate();
    subscriber.on('error', () => undefined); // a lost subscriber only means waiting the full pollMs until it is back
    // One submit is one plan: it wakes one idle worker of this process, not all of them (each would sweep the queues).
    subscriber.on('message', (_channel: string, queueName: string) => {
      this.named(queueName);
      this.seen += 1;
      const [first] = this.#waiters;
      first?.();
    });
    void subscriber.subscribe(this.channel).catch(() => undefined);
    return subscriber;
  }

  async close(): Promise<void> {
    for (const done of [...this.#waiters]) done();
    if (this.#subscriber) await this.#subscriber.quit().catch(() => undefined);
  }
}
