import type { ActuatorSource, Executor } from '@sinew/bt-runtime';
import { PlanSchema, type Plan, type PlanStep, type StepOutcome } from '@sinew/executor-contracts';
import type { Job, Worker } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { FleetWriteError, type FleetJournal, type PlanLease } from './journal.js';
import { verbsOf, type FleetQueue } from './queue.js';

/** What a worker did, for logs and tests; `step.recorded` is sent only after the outcome is durable. */
export type FleetEvent =
  | { readonly type: 'plan.taken'; readonly planId: string; readonly token: number }
  | { readonly type: 'step.recorded'; readonly planId: string; readonly key: string; readonly status: StepOutcome['status'] }
  | { readonly type: 'step.duplicate'; readonly planId: string; readonly key: string }
  | { readonly type: 'step.redispatched'; readonly planId: string; readonly key: string }
  | { readonly type: 'plan.ended'; readonly planId: string; readonly status: 'completed' | 'failed' }
  | { readonly type: 'plan.abandoned'; readonly planId: string; readonly reason: string }
  | { readonly type: 'error'; readonly message: string };

/** What `createFleetWorker` needs: the queue to take plans from, the bot's executor, the durable journal. */
export interface FleetWorkerOptions<Body extends ActuatorSource> {
  readonly queue: FleetQueue;
  /** The bot's executor: its registry decides which plans this worker takes. */
  readonly executor: Executor<Body>;
  readonly journal: FleetJournal;
  /** Whether the bot can take a plan now (connected, spawned); the executor must also be idle. Default: always. */
  readonly isReady?: () => boolean;
  /** How long an idle worker waits before it looks for work again (ms, default 200). */
  readonly pollMs?: number;
  /** Names this worker in leases (default: a random id). */
  readonly id?: string;
  /** Told of every plan taken, step run, plan ended or abandoned, and of errors. */
  readonly onEvent?: (event: FleetEvent) => void;
}

/** A running fleet worker: it takes plans while its bot is idle and ready. */
export interface FleetWorker {
  readonly id: string;
  /** Stops taking plans; the plan running ends first. */
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Takes plans from the fleet queue while its bot is idle and ready, and runs them step by step: each step is
 * claimed in the journal (a key any process completed is answered `duplicate`), run by the executor, and its
 * outcome written to Redis before it is reported. A plan whose worker dies goes back to the queue when its
 * lock expires, and the next worker resumes it from the journal.
 */
export function createFleetWorker<Body extends ActuatorSource>(options: FleetWorkerOptions<Body>): FleetWorker {
  const id = options.id ?? randomUUID();
  const emit = (event: FleetEvent) => options.onEvent?.(event);
  const workers = new Map<string, Worker>();
  let closed = false;
  let jobs = 0;

  const ready = () => options.executor.state().status === 'idle' && (options.isReady?.() ?? true);
  const canRun = (queueName: string) => verbsOf(queueName).every((verb) => options.executor.registry.has(verb));

  async function next(): Promise<{ job: Job; token: string } | undefined> {
    for (const name of (await options.queue.queueNames()).filter(canRun)) {
      const worker = workers.get(name) ?? openWorker(name);
      const token = `${id}:${(jobs += 1)}`;
      const job = await worker.getNextJob(token, { block: false });
      if (job) return { job, token };
    }
    return undefined;
  }

  function openWorker(name: string): Worker {
    const worker = options.queue.openWorker(name);
    worker.on('error', (error) => emit({ type: 'error', message: error.message }));
    void worker.startStalledCheckTimer().catch((error: Error) => emit({ type: 'error', message: error.message }));
    workers.set(name, worker);
    return worker;
  }

  async function loop(): Promise<void> {
    while (!closed) {
      try {
        const taken = ready() ? await next() : undefined;
        if (taken) await runJob({ ...options, id, emit }, taken.job, taken.token);
        else await sleep(options.pollMs ?? 200);
      } catch (error) {
        emit({ type: 'error', message: error instanceof Error ? error.message : String(error) });
        await sleep(options.pollMs ?? 200);
      }
    }
  }

  const running = loop();
  return {
    id,
    async close() {
      closed = true;
      await running;
      await Promise.all([...workers.values()].map((worker) => worker.close()));
    },
  };
}

interface RunContext<Body extends ActuatorSource> extends FleetWorkerOptions<Body> {
  readonly id: string;
  readonly emit: (event: FleetEvent) => void;
}

/** Owns one plan: its lease and job lock renewed together; a lost lease aborts the plan without recording anything. */
async function runJob<Body extends ActuatorSource>(ctx: RunContext<Body>, job: Job, token: string): Promise<void> {
  const plan = PlanSchema.parse(job.data);
  const lease = await waitForLease(ctx, plan.planId, () => job.extendLock(token, ctx.queue.options.lockMs));
  ctx.emit({ type: 'plan.taken', planId: plan.planId, token: lease.token });
  const lost = new AbortController();
  const every = Math.min(ctx.journal.leaseMs, ctx.queue.options.lockMs) / 3;
  const heartbeat = setInterval(() => {
    void Promise.all([ctx.journal.renew(lease), job.extendLock(token, ctx.queue.options.lockMs)])
      .then(([renewed]) => renewed || lost.abort())
      .catch(() => undefined); // a Redis outage: the lease decides, once Redis is back
  }, every);
  try {
    const status = await runPlan(ctx, plan, lease, lost.signal);
    ctx.emit({ type: 'plan.ended', planId: plan.planId, status });
    await job.moveToCompleted({ planId: plan.planId, status }, token, false);
  } catch (error) {
    // Abandoned, not failed: the lock expires and the plan goes to the next free worker, which resumes it.
    ctx.emit({ type: 'plan.abandoned', planId: plan.planId, reason: error instanceof Error ? error.message : String(error) });
  } finally {
    clearInterval(heartbeat);
    await ctx.journal.release(lease).catch(() => undefined);
  }
}

async function waitForLease<Body extends ActuatorSource>(ctx: RunContext<Body>, planId: string, keepJob: () => Promise<unknown>): Promise<PlanLease> {
  for (;;) {
    const lease = await ctx.journal.acquire(planId, ctx.id);
    if (lease) return lease;
    await keepJob();
    await sleep(ctx.pollMs ?? 200);
  }
}

/** Runs what the history does not show done; returns how the plan ended (recorded before it returns). */
async function runPlan<Body extends ActuatorSource>(ctx: RunContext<Body>, plan: Plan, lease: PlanLease, lost: AbortSignal): Promise<'completed' | 'failed'> {
  const { records } = await ctx.journal.history(plan.planId);
  const ended = records.find((record) => record.kind === 'plan_end');
  if (ended?.kind === 'plan_end') return ended.status === 'completed' ? 'completed' : 'failed';
  if (records.length === 0) await ctx.journal.append(lease, { kind: 'plan_start', at: Date.now(), plan });
  let status: 'completed' | 'failed' = 'completed';
  for (const step of plan.steps) {
    const outcome = await runStep(ctx, plan, step, lease, lost);
    if (outcome.status !== 'succeeded') {
      status = 'failed';
      break;
    }
  }
  await ctx.journal.append(lease, { kind: 'plan_end', at: Date.now(), planId: plan.planId, status });
  return status;
}

async function runStep<Body extends ActuatorSource>(ctx: RunContext<Body>, plan: Plan, step: PlanStep, lease: PlanLease, lost: AbortSignal): Promise<StepOutcome> {
  const key = step.idempotencyKey ?? `${plan.planId}:${step.stepId}`;
  for (;;) {
    const claim = await ctx.journal.claimStep(lease, key);
    if (claim.state === 'fenced') throw new FleetWriteError('fenced', plan.planId, 'step');
    if (claim.state === 'duplicate') {
      ctx.emit({ type: 'step.duplicate', planId: plan.planId, key });
      return claim.outcome;
    }
    if (claim.state === 'busy') {
      await sleep(ctx.pollMs ?? 200);
      continue;
    }
    if (claim.redispatch) ctx.emit({ type: 'step.redispatched', planId: plan.planId, key });
    const outcome = await dispatch(ctx.executor, plan, step, lost);
    if (lost.aborted) throw new FleetWriteError('fenced', plan.planId, 'step');
    await ctx.journal.append(lease, { kind: 'step', at: Date.now(), key, outcome });
    ctx.emit({ type: 'step.recorded', planId: plan.planId, key, status: outcome.status });
    return outcome;
  }
}

/** One step through the executor, as a plan of one step (the executor's watchdogs, retries and acceptance apply). */
async function dispatch<Body extends ActuatorSource>(executor: Executor<Body>, plan: Plan, step: PlanStep, signal: AbortSignal): Promise<StepOutcome> {
  const startedAt = Date.now();
  const ran = await executor.run({ planId: plan.planId, intentId: plan.intentId, steps: [step] }, { signal });
  const outcome = ran.steps.find((s) => s.stepId === step.stepId);
  if (outcome) return outcome;
  const failure = ran.failure ?? { code: 'runner_error' as const, reason: 'the executor ran no step', retryable: false };
  return { planId: plan.planId, stepId: step.stepId, verb: step.type, status: 'failed', failure, attempts: 0, startedAt, endedAt: Date.now() };
}
