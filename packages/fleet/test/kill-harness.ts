// The kill test's harness (the vitest file runs a few trials, bench/fleet-kill.bench.ts runs many): worker
// processes over a file world, SIGKILLed at seeded moments and replaced, while plans flow through a real
// redis-server; then the world, the workers' fsync'd event logs and the journal are compared.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '@sinew/executor-contracts';
import { createFleetQueue, createRedisJournal } from '../src/index.js';
import type { RedisServer } from './redis-server.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const childFile = fileURLToPath(new URL('./fixtures/fleet-child.ts', import.meta.url));

export interface KillTrialOptions {
  readonly trials: number;
  readonly seed: number;
  /** Worker processes kept alive (a killed one is replaced at once); every third has only `dig`. */
  readonly workers: number;
  readonly plansPerTrial: number;
  readonly killsPerTrial: number;
  /** Trials (0-based) in which redis-server is SIGKILLed and restarted mid-run. */
  readonly redisRestartTrials?: readonly number[];
  readonly pauseMs?: number;
}

/** One trial's row of the kill-test table. */
export interface KillTrialRow {
  readonly trial: number;
  readonly plans: number;
  readonly steps: number;
  readonly kills: number;
  /** Kills that landed while the killed worker had a step dispatched and not yet recorded. */
  readonly midStepKills: number;
  readonly redisRestarted: boolean;
  /** Plans without exactly one `plan_end: completed`. */
  readonly lost: number;
  /** Steps of completed plans with no effect in the world. */
  readonly missingEffects: number;
  /** Steps whose effect shows twice in the world (none allowed: a takeover checks the world before running a step again). */
  readonly doubleEffects: number;
  /** Steps an earlier owner left claimed and unrecorded: recorded from the world (its effect there), or run again (absent). */
  readonly recovered: number;
  readonly rerunAbsent: number;
  /** Step outcomes a worker reported (after Redis acknowledged them) that the journal no longer has. */
  readonly acknowledgedLost: number;
  /** Longest time from a kill to another worker taking the plan the killed one held (ms; 0 when none held one). */
  readonly takeoverMs: number;
}

const timing = { leaseMs: 1_000, lockMs: 1_000, stalledCheckMs: 200 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class Pool {
  readonly slots: ChildProcess[] = [];
  readonly killed = new Set<number>();
  readonly killedAt = new Map<number, number>();
  /** Warm spares per verb set, loaded and waiting to join: a killed worker's replacement joins at once. */
  readonly #spares = new Map<string, ChildProcess[]>();
  readonly #loading: Promise<unknown>[] = [];
  constructor(private readonly config: Record<string, unknown>) {}

  #spawn(verbs: string[], warm: boolean): ChildProcess {
    return spawn(process.execPath, ['--import', 'tsx', childFile, JSON.stringify({ ...this.config, verbs, warm })], { cwd: root, stdio: [warm ? 'pipe' : 'ignore', 'pipe', 'inherit'] });
  }

  /** Loads a spare of `verbs`; it joins the list once loaded. */
  #spare(verbs: string[]): Promise<void> {
    const child = this.#spawn(verbs, true);
    const loaded = new Promise<void>((resolve, reject) => {
      child.stdout!.once('data', () => resolve(void (this.#spares.get(verbs.join()) ?? this.#spares.set(verbs.join(), []).get(verbs.join())!).push(child)));
      child.once('exit', (code, signal) => reject(new Error(`spare exited before it was loaded (${code ?? signal})`)));
    });
    this.#loading.push(loaded.catch(() => child.kill('SIGKILL')));
    return loaded;
  }

  /** Starts slot's worker (its slot is taken at once): a loaded spare of its verb set when `spare` and one is loaded (another loads behind it), else a new process. */
  start(slot: number, spare = false): Promise<void> {
    const verbs = slot % 3 === 0 ? ['dig'] : ['dig', 'craft'];
    const warm = spare ? this.#spares.get(verbs.join())?.shift() : undefined;
    if (spare) void this.#spare(verbs).catch(() => undefined);
    const child = warm ?? this.#spawn(verbs, false);
    this.slots[slot] = child;
    warm?.stdin!.write('go\n');
    return new Promise<void>((resolve, reject) => {
      child.stdout!.once('data', () => resolve());
      child.once('exit', (code, signal) => reject(new Error(`worker exited before it was ready (${code ?? signal})`)));
    });
  }

  /** Loads one spare per verb set. */
  warmUp(): Promise<unknown> {
    return Promise.all([['dig'], ['dig', 'craft']].map((verbs) => this.#spare(verbs)));
  }

  kill(slot: number): void {
    const child = this.slots[slot]!;
    if (child.pid !== undefined && child.exitCode === null) {
      process.kill(child.pid, 'SIGKILL');
      this.killed.add(child.pid);
      this.killedAt.set(child.pid, Date.now());
    }
    void this.start(slot, true).catch(() => undefined);
  }

  async stop(): Promise<void> {
    await Promise.all(this.#loading);
    for (const spare of [...this.#spares.values()].flat()) if (spare.exitCode === null) spare.kill('SIGKILL');
    await Promise.all(
      this.slots.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return resolve();
            const force = setTimeout(() => child.pid !== undefined && process.kill(child.pid, 'SIGKILL'), 5_000);
            child.once('exit', () => (clearTimeout(force), resolve()));
            process.kill(child.pid, 'SIGTERM');
          }),
      ),
    );
  }
}

/** Plans of odd shapes: ids with slashes, colons and non-ASCII, two to four steps, dig and craft mixed. */
function plansFor(trial: number, count: number, random: () => number) {
  return Array.from({ length: count }, (_, n) => {
    const planId = `t${trial}/plan:${n}${n % 4 === 1 ? '-ñ' : ''}`;
    const steps = Array.from({ length: 2 + Math.floor(random() * 3) }, (_, s) => {
      const type = random() < 0.3 ? 'craft' : 'dig';
      return { stepId: `${type}.${s}`, type, args: { mark: `${planId}:${type}.${s}` } };
    });
    return { planId, intentId: `intent-${trial}`, steps };
  });
}

/** Runs the trials against `server`; one row per trial. */
export async function runKillTrials(server: RedisServer, options: KillTrialOptions): Promise<KillTrialRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sinew-fleet-kill-'));
  const prefix = `kill-${options.seed}`;
  const connection = { host: '127.0.0.1', port: server.port };
  const pool = new Pool({ port: server.port, prefix, dir, pauseMs: options.pauseMs ?? 40, ...timing });
  const queue = createFleetQueue(connection, { prefix, lockMs: timing.lockMs, stalledCheckMs: timing.stalledCheckMs });
  const journal = createRedisJournal(connection, { prefix, leaseMs: timing.leaseMs });
  try {
    await Promise.all([...Array.from({ length: options.workers }, (_, slot) => pool.start(slot)), pool.warmUp()]);
    const rows: KillTrialRow[] = [];
    for (let trial = 0; trial < options.trials; trial += 1) rows.push(await runTrial({ trial, options, pool, server, dir, queue, journal }));
    return rows;
  } finally {
    if (process.env['SINEW_FLEET_DIAG']) (await import('node:fs')).cpSync(dir, process.env['SINEW_FLEET_DIAG'], { recursive: true });
    await pool.stop();
    await Promise.all([queue.close(), journal.close()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

interface TrialContext {
  readonly trial: number;
  readonly options: KillTrialOptions;
  readonly pool: Pool;
  readonly server: RedisServer;
  readonly dir: string;
  readonly queue: ReturnType<typeof createFleetQueue>;
  readonly journal: ReturnType<typeof createRedisJournal>;
}

async function runTrial(ctx: TrialContext): Promise<KillTrialRow> {
  const random = mulberry32(ctx.options.seed * 1_000 + ctx.trial);
  const plans = plansFor(ctx.trial, ctx.options.plansPerTrial, random);
  const killedBefore = new Set(ctx.pool.killed);
  for (const plan of plans) await ctx.queue.submit(plan);
  const restart = ctx.options.redisRestartTrials?.includes(ctx.trial) ?? false;
  // A moment is a point in the trial's progress (the k-th step begun), not a wall-clock time: a loaded machine
  // moves the clock, not where the kill lands.
  const steps = plans.reduce((n, p) => n + p.steps.length, 0);
  const moments = Array.from({ length: ctx.options.killsPerTrial }, () => 1 + Math.floor(random() * (steps - 1))).sort((a, b) => a - b);
  for (const [n, begun] of moments.entries()) {
    await untilBegun(ctx, `t${ctx.trial}/`, begun);
    ctx.pool.kill(await pickMidStep(ctx, random));
    if (restart && n === 0) await ctx.server.restart();
  }
  const deadline = Date.now() + 40_000;
  while (Date.now() < deadline && !(await allEnded(ctx.journal, plans.map((p) => p.planId)))) await sleep(100);
  const killedNow = [...ctx.pool.killed].filter((pid) => !killedBefore.has(pid));
  return { ...(await judge(ctx, plans, killedNow)), trial: ctx.trial, kills: killedNow.length, redisRestarted: restart };
}

/** Waits until `count` steps of marks starting with `prefix` have begun in the world (10 s at most). */
async function untilBegun(ctx: TrialContext, prefix: string, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  const begun = () => readLines(join(ctx.dir, 'world.log')).filter((line) => line.startsWith(`begin ${prefix}`)).length;
  while (begun() < count && Date.now() < deadline) await sleep(10);
}

/** A slot whose worker has a step begun and not recorded (seeded pick), waiting up to 3 s for one; else any slot. */
async function pickMidStep(ctx: TrialContext, random: () => number): Promise<number> {
  const deadline = Date.now() + 3_000;
  let busy = busySlots(ctx);
  while (busy.length === 0 && Date.now() < deadline) busy = (await sleep(10), busySlots(ctx));
  const from = busy.length > 0 ? busy : ctx.pool.slots.map((_, slot) => slot);
  return from[Math.floor(random() * from.length)]!;
}

function busySlots(ctx: TrialContext): number[] {
  const world = readLines(join(ctx.dir, 'world.log'));
  const recorded = new Set(readLines(join(ctx.dir, 'events.log')).map((line) => JSON.parse(line) as { type: string; key?: string; pid: number }).filter((e) => e.type === 'step.recorded').map((e) => `${e.key} ${e.pid}`));
  return ctx.pool.slots.flatMap((child, slot) => {
    const last = world.filter((line) => line.endsWith(` ${child.pid}`)).at(-1)?.split(' ');
    return last && !recorded.has(`${last[1]} ${last[2]}`) ? [slot] : [];
  });
}

const readLines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

async function allEnded(journal: TrialContext['journal'], planIds: string[]): Promise<boolean> {
  const histories = await Promise.all(planIds.map((id) => journal.history(id)));
  return histories.every((h) => h.records.some((r) => r.kind === 'plan_end'));
}

type Judged = Omit<KillTrialRow, 'trial' | 'kills' | 'redisRestarted'>;

/** Compares the world (effects), the workers' reports (events.log) and the journal. */
async function judge(ctx: TrialContext, plans: ReturnType<typeof plansFor>, killed: number[]): Promise<Judged> {
  const world = readLines(join(ctx.dir, 'world.log')).map((line) => line.split(' ') as [string, string, string]);
  const events = readLines(join(ctx.dir, 'events.log')).map((line) => JSON.parse(line) as { type: string; key?: string; planId?: string; pid: number; at: number });
  const recordedBy = (pid: number, key: string) => events.some((e) => e.type === 'step.recorded' && e.pid === pid && e.key === key);
  const keys = new Set(plans.flatMap((plan) => plan.steps.map((step) => `${plan.planId}:${step.stepId}`)));
  const counted = (type: string) => events.filter((e) => e.type === type && keys.has(e.key ?? '')).length;
  let lost = 0, missingEffects = 0, doubleEffects = 0, acknowledgedLost = 0;
  for (const plan of plans) {
    const history = await ctx.journal.history(plan.planId);
    const ends = history.records.filter((r) => r.kind === 'plan_end');
    if (ends.length !== 1 || ends[0]!.status !== 'completed') lost += 1;
    const recordedKeys = new Set(history.records.flatMap((r) => (r.kind === 'step' ? [r.key] : [])));
    for (const step of plan.steps) {
      const key = `${plan.planId}:${step.stepId}`;
      const by = world.filter(([kind, mark]) => kind === 'effect' && mark === key).map(([, , pid]) => Number(pid));
      if (by.length === 0) missingEffects += 1;
      if (by.length > 1) doubleEffects += 1;
      if (events.some((e) => e.type === 'step.recorded' && e.key === key) && !recordedKeys.has(key)) acknowledgedLost += 1;
    }
  }
  const midStepKills = killed.filter((pid) => world.some(([kind, mark, by]) => kind === 'begin' && Number(by) === pid && !recordedBy(pid, mark))).length;
  const takeovers = killed.map((pid) => {
    const held = events.filter((e) => e.type === 'plan.taken' && e.pid === pid).at(-1)?.planId;
    const killedAt = ctx.pool.killedAt.get(pid)!;
    const next = events.find((e) => e.type === 'plan.taken' && e.planId === held && e.at > killedAt);
    return next ? next.at - killedAt : 0;
  });
  return { takeoverMs: Math.max(0, ...takeovers), plans: plans.length, steps: plans.reduce((n, p) => n + p.steps.length, 0), midStepKills, lost, missingEffects, doubleEffects, recovered: counted('step.recovered'), rerunAbsent: counted('step.redispatched'), acknowledgedLost };
}

/** What a paused owner did once it woke: its writes refused, the plan finished by another worker. */
export interface PauseTrialResult {
  readonly planEnds: number;
  /** Records the paused worker tried to write after its lease passed on (refused). */
  readonly fencedByPaused: number;
  /** Step records in the history (each step's key once). */
  readonly stepRecords: number;
  readonly steps: number;
}

/** SIGSTOPs the worker running a plan mid-step for twice the lease, then SIGCONTs it. */
export async function runPauseTrial(server: RedisServer, seed: number): Promise<PauseTrialResult> {
  const dir = mkdtempSync(join(tmpdir(), 'sinew-fleet-pause-'));
  const prefix = `pause-${seed}`;
  const connection = { host: '127.0.0.1', port: server.port };
  const pool = new Pool({ port: server.port, prefix, dir, pauseMs: 150, ...timing });
  const queue = createFleetQueue(connection, { prefix, lockMs: timing.lockMs, stalledCheckMs: timing.stalledCheckMs });
  const journal = createRedisJournal(connection, { prefix, leaseMs: timing.leaseMs });
  try {
    await Promise.all([pool.start(1), pool.start(2)]);
    const [plan] = plansFor(seed, 1, mulberry32(seed));
    await queue.submit(plan!);
    const ctx = { trial: 0, options: { trials: 1, seed, workers: 2, plansPerTrial: 1, killsPerTrial: 0 }, pool, server, dir, queue, journal };
    const slot = await pickMidStep(ctx, () => 0);
    const paused = pool.slots[slot]!.pid!;
    process.kill(paused, 'SIGSTOP');
    await sleep(2 * timing.leaseMs + 4 * timing.stalledCheckMs);
    process.kill(paused, 'SIGCONT');
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && !(await allEnded(journal, [plan!.planId]))) await sleep(100);
    await sleep(timing.leaseMs); // the woken worker's last write, if any, lands (or is refused) by now
    const records = (await journal.history(plan!.planId)).records;
    const events = readLines(join(dir, 'events.log')).map((line) => JSON.parse(line) as { type: string; reason?: string; pid: number });
    return {
      planEnds: records.filter((r) => r.kind === 'plan_end').length,
      fencedByPaused: events.filter((e) => e.pid === paused && e.type === 'plan.abandoned' && /fenced/.test(e.reason ?? '')).length,
      stepRecords: new Set(records.flatMap((r) => (r.kind === 'step' ? [r.key] : []))).size,
      steps: plan!.steps.length,
    };
  } finally {
    await pool.stop();
    await Promise.all([queue.close(), journal.close()]);
    rmSync(dir, { recursive: true, force: true });
  }
}
