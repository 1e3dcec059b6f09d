import type { ClaimedStep, JournalRecord, JournalStore } from '@sinew/bt-runtime';
import type { Plan, StepOutcome } from '@sinew/executor-contracts';
import { FleetWriteError, type FleetJournal, type PlanLease, type PreviousDispatch, type StepClaim } from './journal.js';
import { evidenceFor, recover, type StepRecovery } from './recovery.js';
import type { FleetEvent } from './worker.js';

/** What the store tells the worker as the executor runs the plan it holds. */
type PlanStoreEvent = Extract<FleetEvent, { type: 'step.recorded' | 'step.duplicate' | 'step.redispatched' | 'step.recovered' | 'step.refused' }>;

/** The plan a worker holds while the executor runs it. */
interface Held {
  readonly lease: PlanLease;
  /** The plan held: its next step is claimed with each step's record (see `append`). */
  readonly plan: Plan;
  readonly traceParent: string;
  readonly emit: (event: PlanStoreEvent) => void;
  readonly pollMs: number;
  /** Whether the executor wrote (or skipped, the history having it) the plan's start: proof it journals here. */
  started: boolean;
  /** The plan's start on its way to Redis: sent at once, awaited with the first claim (see `append`). */
  starting?: Promise<void>;
  /** The claim of the plan's next step, made with the previous step's record; used by the claim of that key. */
  ahead?: { readonly key: string; readonly claim: Promise<StepClaim> };
}

/** The executor's journal over the Redis journal, for one worker: it writes under the lease of the plan held. @internal */
export interface PlanStore extends JournalStore {
  /** Binds the store to the plan the worker now holds (undefined: none). */
  hold(held: Omit<Held, 'started' | 'starting' | 'ahead'> | undefined): void;
  /** Whether the executor journaled the held plan's start through this store. */
  readonly started: boolean;
  /** The held plan's traceparent when `planId` is the plan held. */
  traceParent(planId: string): string | undefined;
}

/** Waits for the held plan's start to be acknowledged (it throws what the journal refused), once. */
async function settled(plan: Held): Promise<void> {
  const starting = plan.starting;
  plan.starting = undefined;
  await starting;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const planOf = (record: JournalRecord) => (record.kind === 'plan_start' ? record.plan.planId : record.kind === 'plan_end' ? record.planId : record.outcome.planId);

/**
 * A `JournalStore` the executor writes through: every record goes to Redis under the held plan's lease (fenced),
 * and every step is claimed first, so a key any process completed is answered `duplicate` and a plan that passed
 * to another owner runs nothing more here. A record of any other plan is refused: this executor journals fleet
 * plans only.
 */
export function createPlanStore(journal: FleetJournal, recoveries: ReadonlyMap<string, StepRecovery>): PlanStore {
  let held: Held | undefined;
  const holding = (what: string, planId?: string): Held => {
    if (!held) throw new Error(`fleet journal: a ${what} arrived while no fleet plan is held (this executor runs fleet plans only)`);
    if (planId !== undefined && planId !== held.lease.planId) throw new Error(`fleet journal: a ${what} of plan ${planId} arrived while plan ${held.lease.planId} is held (this executor runs fleet plans only)`);
    return held;
  };

  /** A step an earlier owner claimed and never recorded: the world decides whether it runs again (see recovery.ts). */
  async function takeOver(plan: Held, key: string, step: ClaimedStep, previous: PreviousDispatch): Promise<StepOutcome | undefined> {
    const recovered = await recover(recoveries.get(step.verb), step, previous, Date.now());
    const planId = plan.lease.planId;
    if (recovered.state === 'absent') return void plan.emit({ type: 'step.redispatched', planId, key });
    // Done is recorded (the key completes for every process); a refusal is not: the key stays claimed, so any later
    // owner is refused too rather than running it on a guess.
    if (recovered.state === 'done') await journal.append(plan.lease, { kind: 'step', at: Date.now(), key, outcome: recovered.outcome });
    plan.emit({ type: recovered.state === 'done' ? 'step.recovered' : 'step.refused', planId, key, reason: recoveredReason(recovered.outcome) });
    return recovered.outcome;
  }

  return {
    hold: (next) => void (held = next && { ...next, started: false }),
    get started() {
      return held?.started ?? false;
    },
    traceParent: (planId) => (held?.lease.planId === planId ? held.traceParent : undefined),
    // The worker resumes from the Redis history; nothing is replayed into the executor at construction.
    readAll: () => ({ records: [], skipped: 0 }),
    async append(record) {
      const plan = holding(`${record.kind} record`, planOf(record));
      // A resumed plan's start is in the history already (the executor writes it on every run).
      if (record.kind === 'plan_start') plan.started = true;
      if (record.kind === 'plan_start' && plan.lease.length > 0) return;
      // The start is not waited for here: the first claim goes down the same connection right behind it, Redis runs
      // them in order and appends them to its log in order, so the claim's (fsync'd) reply proves the start durable
      // too. Nothing is dispatched before that reply, and one fsync'd round trip per plan is saved.
      if (record.kind === 'plan_start') {
        plan.starting = journal.append(plan.lease, record);
        plan.starting.catch(() => undefined); // awaited (and its refusal thrown) by the next claim or append
        return;
      }
      await settled(plan);
      const next = record.kind === 'step' && record.outcome.status === 'succeeded' ? nextStep(plan, record.key, recoveries) : undefined;
      if (next) {
        const claim = journal.appendThenClaim(plan.lease, record, { key: next });
        claim.catch(() => undefined); // the append's refusal is thrown below; the claim's use awaits it again
        plan.ahead = { key: next, claim };
        await claim;
      } else await Promise.all([journal.append(plan.lease, record), record.kind === 'plan_end' && dropAhead(journal, plan)]);
      if (record.kind === 'step') plan.emit({ type: 'step.recorded', planId: plan.lease.planId, key: record.key, status: record.outcome.status });
    },
    async claim(key, step) {
      const plan = holding('step');
      const evidence = evidenceFor(recoveries.get(step.verb), step);
      let ahead = plan.ahead?.key === key ? plan.ahead.claim : undefined;
      if (!ahead) await dropAhead(journal, plan); // claimed ahead for a step the plan did not go on to (a repair changed it)
      plan.ahead = undefined;
      for (;;) {
        const [claim] = await Promise.all([ahead ?? journal.claimStep(plan.lease, key, evidence), settled(plan)]);
        ahead = undefined;
        if (claim.state === 'fenced') throw new FleetWriteError('fenced', plan.lease.planId, 'step');
        if (claim.state === 'duplicate') {
          plan.emit({ type: 'step.duplicate', planId: plan.lease.planId, key });
          return claim.outcome;
        }
        if (claim.state === 'acquired') return claim.previous ? takeOver(plan, key, step, claim.previous) : undefined;
        // Another live plan has the same key in flight: its outcome decides (duplicate, or ours to run if it failed).
        await sleep(plan.pollMs);
      }
    },
  };
}

/**
 * The key of the plan step after `key`, to claim with `key`'s record; none when the plan has no next step, or when its
 * verb reads evidence before its claim (read now, the body could still change before the step runs).
 */
function nextStep(plan: Held, key: string, recoveries: ReadonlyMap<string, StepRecovery>): string | undefined {
  const keyOf = (step: Plan['steps'][number]) => step.idempotencyKey ?? `${plan.plan.planId}:${step.stepId}`;
  const index = plan.plan.steps.findIndex((step) => keyOf(step) === key);
  const next = index >= 0 ? plan.plan.steps[index + 1] : undefined;
  return next && !recoveries.get(next.type)?.evidence ? keyOf(next) : undefined;
}

/**
 * Drops a claim made ahead that the plan did not use, so the key stays free for whoever runs it; not one that found an
 * earlier owner's claim (that one may have acted: the next claimer must check the world, and sees this claim instead).
 */
async function dropAhead(journal: FleetJournal, plan: Held): Promise<void> {
  const ahead = plan.ahead;
  plan.ahead = undefined;
  const claim = await ahead?.claim.catch(() => undefined);
  if (ahead && claim?.state === 'acquired' && !claim.previous) await journal.unclaim(plan.lease, ahead.key);
}

const recoveredReason = (outcome: StepOutcome) => (outcome.failure?.reason ?? String(outcome.observables?.['recoveredFromWorld']));
