import type { ActuatorSource, Executor, JournalStore, PlanOutcome } from '@sinew/bt-runtime';
import { describeError, type Plan, type StepOutcome } from '@sinew/executor-contracts';
import { Job, type Worker } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { FleetWriteError, type FleetJournal, type PlanLease } from './journal.js';
import { createPlanStore, type PlanStore } from './plan-store.js';
import { FleetJobSchema, verbsOf, type FleetQueue } from './queue.js';
import type { StepRecovery } from './recovery.js';

/** What a worker did, for logs and tests; `step.recorded` is sent only after the outcome is durable. */
export type FleetEvent =
  | { readonly type: 'plan.taken'; readonly planId: string; readonly token: number }
  /** This process found a taken plan whose worker stopped renewing its lock (it died) and put it back in the queue. */
  | { readonly type: 'plan.requeued'; readonly jobId: string; readonly queue: string }
  | { readonly type: 'step.recorded'; readonly planId: string; readonly key: string; readonly status: StepOutcome['status'] }
  | { readonly type: 'step.duplicate'; readonly planId: string; readonly key: string }
  | { readonly type: 'step.redispatched'; readonly planId: string; readonly key: string }
  /** An earlier owner claimed the step and died unrecorded; the world showed its effect: recorded, not run again. */
  | { readonly type: 'step.recovered'; readonly planId: string; readonly key: string; readonly reason: string }
  /** As above, but the world could not show whether it took effect: refused (`duplicate`, failed), not run again. */
  | { readonly type: 'step.refused'; readonly planId: string; readonly key: string; readonly reason: string }
  | { readonly type: 'plan.ended'; readonly planId: string; readonly status: PlanOutcome['status'] }
  | { readonly type: 'plan.abandoned'; readonly planId: string; readonly reason: string }
  | { readonly type: 'error'; readonly message: string };

/** What `createFleetWorker` needs: the queue to take plans from, the durable journal, how to build the bot's executor. */
export interface FleetWorkerOptions<Body extends ActuatorSource> {
  readonly queue: FleetQueue;
  readonly journal: FleetJournal;
  /**
   * Builds the bot's executor on the journal given (the fleet's, bound to the plan this worker holds):
   * `(journal) => createExecutor({ registry, body, journal })`. Its registry decides which plans this worker takes.
   * To trace, pass `fleet.traceParent` to `createOtelProvenance({ traceParent })`: each plan's spans, from every
   * worker that runs part of it, then share one trace.
   */
  readonly executor: (journal: JournalStore, fleet: FleetExecutorContext) => Executor<Body>;
  /**
   * How to check the world before running again a step whose earlier owner died between its act and its record,
   * one per verb (`recoverStep(capability, { evidence?, verify })`, `rerunSafe(verb)`). A verb without one is refused
   * in that case (`duplicate`, failed), never run twice on a guess.
   */
  readonly recover?: readonly StepRecovery[];
  /** Whether the bot can take a plan now (connected, spawned); the executor must also be idle. Default: always. */
  readonly isReady?: () => boolean;
  /** The longest an idle worker waits for a submit before it looks again (ms, default 200): plans put back after a worker died publish nothing. */
  readonly pollMs?: number;
  /** Names this worker in leases (default: a random id). */
  readonly id?: string;
  /** Told of every plan taken, step run, plan ended or abandoned, and of errors. */
  readonly onEvent?: (event: FleetEvent) => void;
}

/** What the worker offers the executor it builds. */
export interface FleetExecutorContext {
  /** The W3C traceparent of the plan held (from its job), for the OpenTelemetry provenance sink. */
  readonly traceParent: (ids: { readonly planId: string }) => string | undefined;
}

/** A running fleet worker: it takes plans while its bot is idle and ready. */
export interface FleetWorker<Body extends ActuatorSource = ActuatorSource> {
  readonly id: string;
  /** The executor the worker built (fleet plans only: a plan run on it directly is refused by its journal). */
  readonly executor: Executor<Body>;
  /** Stops taking plans; the plan running ends first; then closes the executor. */
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Takes plans from the fleet queue while its bot is idle and ready, and runs each whole plan through the executor
 * (guards, watchdogs, retries, acceptance and plan-level repair all apply), on the fleet journal: each step is
 * claimed in Redis first (a key any process completed is answered `duplicate`) and its outcome written to Redis
 * before the executor goes on. A plan whose worker dies goes back to the queue when its lock expires, and the
 * next worker runs it again from the top: what the history shows done is answered from it, the rest runs.
 */
export function createFleetWorker<Body extends ActuatorSource>(options: FleetWorkerOptions<Body>): FleetWorker<Body> {
  const id = options.id ?? randomUUID();
  const emit = (event: FleetEvent) => options.onEvent?.(event);
  const recoveries = new Map((options.recover ?? []).map((recovery) => [recovery.verb, recovery]));
  const store = createPlanStore(options.journal, recoveries);
  const executor = options.executor(store, { traceParent: ({ planId }) => store.traceParent(planId) });
  try {
    checkRecoveries(options.recover ?? [], executor);
  } catch (error) {
    void executor.close();
    throw error;
  }
  const workers = new Map<string, Worker>();
  let closed = false;
  let jobs = 0;

  const ready = () => !closed && executor.state().status === 'idle' && (options.isReady?.() ?? true);
  const canRun = (queueName: string) => verbsOf(queueName).every((verb) => executor.registry.has(verb));
  const ctx: RunContext<Body> = { ...options, id, emit, store, executor, pollMs: options.pollMs ?? 200, ready, runnable: async () => (await options.queue.queueNames()).filter(canRun), workers };

  async function next(): Promise<Taken | undefined> {
    for (const name of await ctx.runnable()) {
      const worker = workers.get(name) ?? openWorker(name);
      const token = `${id}:${(jobs += 1)}`;
      const job = await worker.getNextJob(token, { block: false });
      options.queue.served(name);
      if (job) return { job, token };
    }
    return undefined;
  }

  function openWorker(name: string): Worker {
    const worker = options.queue.openWorker(name);
    worker.on('error', (error) => emit({ type: 'error', message: error.message }));
    worker.on('stalled', (jobId) => {
      emit({ type: 'plan.requeued', jobId, queue: name });
      options.queue.requeued(name).catch((error: Error) => emit({ type: 'error', message: error.message }));
    });
    void worker.startStalledCheckTimer().catch((error: Error) => emit({ type: 'error', message: error.message }));
    workers.set(name, worker);
    return worker;
  }

  async function loop(): Promise<void> {
    while (!closed) {
      try {
        const seen = options.queue.submissions();
        let taken = ready() ? await next() : undefined;
        // The next plan may come with the completion of this one (one fsync'd round trip less per plan).
        if (taken) while (taken) taken = await runJob(ctx, taken.job, taken.token);
        // Woken by a submit (also one made during the sweep just done); pollMs bounds the wait for plans put back
        // after a worker died, and for a bot that was not ready.
        else await options.queue.waitForWork(seen, ctx.pollMs);
      } catch (error) {
        emit({ type: 'error', message: describeError(error) });
        await sleep(ctx.pollMs);
      }
    }
  }

  const running = loop();
  return {
    id,
    executor,
    async close() {
      closed = true;
      await running;
      await Promise.all([...workers.values()].map((worker) => worker.close()));
      await executor.close();
    },
  };
}

/** A recovery given twice for one verb, or for a verb the bot does not have, is a mistake: refused when the worker is built. */
function checkRecoveries(recover: readonly StepRecovery[], executor: Executor<never>): void {
  const verbs = recover.map((recovery) => recovery.verb);
  const twice = verbs.find((verb, n) => verbs.indexOf(verb) !== n);
  if (twice !== undefined) throw new Error(`createFleetWorker: recover has two recoveries for ${twice}`);
  const unknown = verbs.find((verb) => !executor.registry.has(verb));
  if (unknown !== undefined) throw new Error(`createFleetWorker: recover names ${unknown}, which this bot's registry does not have`);
}

interface RunContext<Body extends ActuatorSource> extends Omit<FleetWorkerOptions<Body>, 'executor'> {
  readonly id: string;
  /** Whether the worker may take another plan now (not closed, executor idle, bot ready). */
  readonly ready: () => boolean;
  /** The queues this worker reads, requeued ones first. */
  readonly runnable: () => Promise<string[]>;
  readonly workers: ReadonlyMap<string, Worker>;
  readonly emit: (event: FleetEvent) => void;
  readonly store: PlanStore;
  readonly executor: Executor<Body>;
  readonly pollMs: number;
}

/**
 * Owns one plan: its lease and job lock renewed together; a lost lease aborts the plan, and its late writes are fenced.
 * Returns the next plan when it came with this one's completion.
 */
async function runJob<Body extends ActuatorSource>(ctx: RunContext<Body>, job: Job, token: string): Promise<Taken | undefined> {
  const data = FleetJobSchema.safeParse(job.data);
  // A job this version cannot read would come back forever after each lock expiry: it fails once, loudly.
  if (!data.success) return void (await job.moveToFailed(new Error(`not a fleet job: ${z.prettifyError(data.error)}`), token, false));
  const { plan, traceParent } = data.data;
  const lease = await waitForLease(ctx, plan.planId, () => job.extendLock(token, ctx.queue.options.lockMs));
  ctx.emit({ type: 'plan.taken', planId: plan.planId, token: lease.token });
  const lost = new AbortController();
  const every = Math.min(ctx.journal.leaseMs, ctx.queue.options.lockMs) / 3;
  const heartbeat = setInterval(() => {
    void Promise.all([ctx.journal.renew(lease), job.extendLock(token, ctx.queue.options.lockMs)])
      .then(([renewed]) => renewed || lost.abort())
      .catch(() => undefined); // a Redis outage: the lease decides, once Redis is back
  }, every);
  let status: PlanOutcome['status'];
  try {
    status = await runPlan(ctx, plan, { lease, traceParent }, lost.signal);
  } catch (error) {
    // Abandoned, not failed: the lock expires and the plan goes to the next free worker, which resumes it.
    ctx.emit({ type: 'plan.abandoned', planId: plan.planId, reason: describeError(error) });
    return void (await ctx.journal.release(lease).catch(() => undefined));
  } finally {
    clearInterval(heartbeat);
    ctx.store.hold(undefined);
  }
  ctx.emit({ type: 'plan.ended', planId: plan.planId, status });
  // The next plan comes with the completion only while this is the one queue the worker reads (else it takes turns,
  // and a plan put back elsewhere is looked for first).
  const runnable = await ctx.runnable();
  const fetchNext = ctx.ready() && runnable.length === 1 && runnable[0] === job.queueName;
  // The plan's end is durable: the job's completion and the lease's release go together (one fsync'd round trip,
  // not two). A worker that takes the lease first finds the end in the history and only completes the job.
  const [next] = await Promise.all([job.moveToCompleted({ planId: plan.planId, status }, token, fetchNext), ctx.journal.release(lease).catch(() => undefined)]);
  const worker = ctx.workers.get(job.queueName);
  if (!fetchNext || !worker || !Array.isArray(next) || !next[0]) return undefined;
  return { job: Job.fromJSON(worker, next[0] as Parameters<typeof Job.fromJSON>[1], next[1] as string), token };
}

/** A job this worker holds, and the lock token it holds it with. */
interface Taken {
  readonly job: Job;
  readonly token: string;
}

async function waitForLease<Body extends ActuatorSource>(ctx: RunContext<Body>, planId: string, keepJob: () => Promise<unknown>): Promise<PlanLease> {
  for (;;) {
    const lease = await ctx.journal.acquire(planId, ctx.id);
    if (lease) return lease;
    await keepJob();
    await sleep(ctx.pollMs);
  }
}

/** Outcomes after which the plan's end is in the journal; any other stop leaves it unfinished for the next worker. */
const endedHere = (outcome: PlanOutcome) => outcome.failure?.code !== 'journal_unavailable' && outcome.failure?.code !== 'body_disconnected';

/** Runs the plan through the executor on the fleet journal unless its history shows it ended; returns how it ended. */
async function runPlan<Body extends ActuatorSource>(ctx: RunContext<Body>, plan: Plan, held: { lease: PlanLease; traceParent: string }, lost: AbortSignal): Promise<PlanOutcome['status']> {
  const { records } = held.lease.history;
  const ended = records.find((record) => record.kind === 'plan_end');
  if (ended?.kind === 'plan_end') return ended.status;
  ctx.store.hold({ ...held, plan, emit: ctx.emit, pollMs: ctx.pollMs });
  const outcome = await ctx.executor.run(plan, { signal: lost });
  if (!ctx.store.started) throw new Error('fleet worker: the executor did not journal the plan (build it with the journal createFleetWorker passes)');
  if (lost.aborted) throw new FleetWriteError('fenced', plan.planId, 'plan_end');
  if (!endedHere(outcome)) throw new Error(`plan stopped unfinished: ${outcome.failure?.code}: ${outcome.failure?.reason}`);
  return outcome.status;
}
