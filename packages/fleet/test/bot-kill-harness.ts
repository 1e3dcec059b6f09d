// The real-bot kill test's harness (the vitest file runs a few trials, bench/fleet-bots-kill.bench.ts many):
// worker processes, each a real mineflayer bot on the testkit server, dig dirt blocks the test placed and craft oak
// planks from the logs each was given; one that has a step dispatched is SIGKILLed at a seeded moment and replaced,
// and in chosen trials redis-server is SIGKILLed and restarted (same port and data dir; append-only, fsync always).
// The world is watched from outside the workers: an observer bot sees every block go dirt → air exactly once, the
// server counts the planks in every player's inventory (a killed one's as it left); every plan must end once
// (completed, or a craft refused `duplicate` when the world cannot show whether the killed bot crafted it), no block
// may be dug twice and no craft made twice, no acknowledged record may be lost.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '@sinew/executor-contracts';
import { connectBot, setBlock, type TestServer } from '@sinew/testkit';
import { createFleetQueue, createRedisJournal } from '../src/index.js';
import type { RedisServer } from './redis-server.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const childFile = fileURLToPath(new URL('./fixtures/bot-child.ts', import.meta.url));
// Longer than the file-world test's 1 s: a bot process stalls its event loop for more than a second on a loaded
// machine (chunk parsing, physics), and a live worker whose lease lapses is the paused-owner case, not a kill.
const timing = { leaseMs: 3_000, lockMs: 3_000, stalledCheckMs: 500 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const until = async (check: () => boolean, ms = 15_000) => {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await sleep(20);
};
const readLines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

/** One trial's row of the real-bot kill table. */
export interface BotKillRow {
  readonly trial: number;
  readonly plans: number;
  readonly steps: number;
  readonly kills: number;
  /** Plans without exactly one `plan_end`, or ended otherwise than completed or refused. */
  readonly lost: number;
  /** Plans ended failed because a step the killed worker claimed could not be confirmed from here (`step.refused`). */
  readonly refused: number;
  /** Blocks the observer saw go dirt → air more than once. */
  readonly blocksDugTwice: number;
  /** Blocks still not air at the end (as the observer sees them). */
  readonly blocksLeft: number;
  /** Blocks that are air at the end but whose dirt → air the observer did not see (a missed update, not a dig). */
  readonly blocksUnseen: number;
  /** Crafts the server saw this trial (planks taken from a crafting grid, as inventories show them), crafts planned, craft plans completed. */
  readonly crafts: number;
  readonly craftPlans: number;
  readonly craftsCompleted: number;
  /** Crafts beyond one per craft plan (the world shows a craft made twice). */
  readonly craftedTwice: number;
  readonly redisRestarted: boolean;
  /** Step outcomes a worker reported (after Redis acknowledged them) that the journal no longer has. */
  readonly acknowledgedLost: number;
  /** Steps dispatched by more than one process: each must be a takeover that found the effect absent (`rerunAbsent`). */
  readonly redispatches: number;
  /** Takeovers of a step claimed and unrecorded: recorded from the world (`step.recovered`), run again because absent. */
  readonly recovered: number;
  readonly rerunAbsent: number;
  /** Steps one process dispatched more than once: the executor's retry of an attempt that failed (a dig the server refused). */
  readonly retried: number;
}

/** Options of `runBotKillTrials`. */
export interface BotKillOptions {
  readonly trials: number;
  readonly seed: number;
  readonly workers: number;
  readonly plansPerTrial: number;
  /** Craft plans per trial (one `craft_item` of 4 oak planks from 1 log each). */
  readonly craftsPerTrial: number;
  /** Trials (0-based) in which redis-server is SIGKILLed and restarted right after the worker is killed. */
  readonly redisRestartTrials?: readonly number[];
}

/** The parts of the embedded flying-squid server this harness reads (untyped JS upstream). */
interface Squid {
  on(event: 'newPlayer', listener: (player: SquidPlayer) => void): void;
  off(event: 'newPlayer', listener: (player: SquidPlayer) => void): void;
  commands: { use(command: string, ctx: object, op: boolean): Promise<unknown> };
}
interface SquidPlayer {
  username: string;
  inventory: { slots: ({ name: string; count: number } | null)[] };
}

const LOGS_PER_WORKER = 32;

/** Oak planks in every inventory the server ever held this run (a killed player's as it was when it left). */
function plankCounter(squid: Squid) {
  const players: SquidPlayer[] = [];
  const joined = (player: SquidPlayer) => void players.push(player);
  squid.on('newPlayer', joined);
  return {
    planks: () => players.reduce((n, p) => n + p.inventory.slots.reduce((m, item) => m + (item?.name === 'oak_planks' ? item.count : 0), 0), 0),
    stop: () => squid.off('newPlayer', joined),
  };
}

/** Dirt spots around spawn, within reach of a bot standing there. */
function spots(server: TestServer) {
  const offsets = [-3, -2, 2, 3].flatMap((dx) => [-3, -2, 2, 3].map((dz) => [dx, dz] as const));
  return offsets.map(([dx, dz]) => server.spawn.offset(dx, 0, dz).floored());
}

/** Runs the trials with `options.workers` bot processes; one row per trial. */
export async function runBotKillTrials(mc: TestServer, redis: RedisServer, options: BotKillOptions): Promise<BotKillRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sinew-fleet-bots-'));
  const prefix = `bots-${options.seed}`;
  const connection = { host: '127.0.0.1', port: redis.port };
  const queue = createFleetQueue(connection, { prefix, lockMs: timing.lockMs, stalledCheckMs: timing.stalledCheckMs });
  const journal = createRedisJournal(connection, { prefix, leaseMs: timing.leaseMs });
  const observer = await connectBot(mc, { username: 'observer' });
  const squid = mc.serv as unknown as Squid;
  const counter = plankCounter(squid);
  const children: ChildProcess[] = [];
  const killed = new Set<number>();
  let born = 0;
  const start = (slot: number): Promise<void> => {
    const config = { redisPort: redis.port, mcPort: mc.port, version: mc.version, username: `w${slot}_${(born += 1)}`, prefix, dir, ...timing };
    const child = spawn(process.execPath, ['--import', 'tsx', childFile, JSON.stringify(config)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    children[slot] = child;
    return new Promise((resolve, reject) => {
      // Ready means spawned: the server gives it the logs its crafts take, before it takes a plan (it waits for them).
      child.stdout!.once('data', () => void squid.commands.use(`give ${config.username} oak_log ${LOGS_PER_WORKER}`, {}, true).then(() => resolve(), reject));
      child.once('exit', (code, signal) => reject(new Error(`bot worker exited before it was ready (${code ?? signal})`)));
    });
  };
  try {
    await Promise.all(Array.from({ length: options.workers }, (_, slot) => start(slot)));
    const rows: BotKillRow[] = [];
    for (let trial = 0; trial < options.trials; trial += 1) {
      const random = mulberry32(options.seed * 1_000 + trial);
      const targets = spots(mc).slice(0, 2 * options.plansPerTrial);
      for (const target of targets) await setBlock(mc, target, 'dirt');
      // The observer must see the dirt before any bot digs it, or it could not see the block go.
      await until(() => targets.every((t) => observer.blockAt(t)?.name === 'dirt'));
      const transitions = new Map<string, number>();
      const watch = (before: { name: string } | null, after: { name: string; position: { toString(): string } }) => {
        if (before?.name === 'dirt' && after.name === 'air') transitions.set(after.position.toString(), (transitions.get(after.position.toString()) ?? 0) + 1);
      };
      observer.on('blockUpdate', watch);
      const digs = Array.from({ length: options.plansPerTrial }, (_, n) => {
        const mine = targets.slice(2 * n, 2 * n + 2);
        return { planId: `b${trial}/dig:${n}`, intentId: `trial-${trial}`, steps: mine.map((p, s) => ({ stepId: `d${s}`, type: 'dig_block', args: { position: { x: p.x, y: p.y, z: p.z } } })) };
      });
      const crafts = Array.from({ length: options.craftsPerTrial }, (_, n) => ({ planId: `b${trial}/craft·${n}`, intentId: `trial-${trial}`, steps: [{ stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 } }] }));
      // Crafts between the digs, so kills land on both kinds.
      const plans = digs.flatMap((dig, n) => (crafts[n] ? [dig, crafts[n]] : [dig]));
      const planksBefore = counter.planks();
      await queue.submitAll(plans);
      // The seeded moment: the k-th step dispatched in this trial, then a seeded 0-600 ms into it.
      const stepCount = plans.reduce((n, plan) => n + plan.steps.length, 0);
      const moment = 1 + Math.floor(random() * (stepCount - 1));
      const dispatched = () => readLines(join(dir, 'dispatch.log')).filter((l) => l.startsWith(`dispatch b${trial}/`));
      const deadline = Date.now() + 30_000;
      while (dispatched().length < moment && Date.now() < deadline) await sleep(10);
      await sleep(Math.floor(random() * 600));
      const victim = Number(dispatched().at(-1)?.split(' ')[2]);
      const slot = children.findIndex((child) => child.pid === victim);
      if (slot >= 0) {
        process.kill(victim, 'SIGKILL');
        killed.add(victim);
        void start(slot).catch(() => undefined);
      }
      const restart = options.redisRestartTrials?.includes(trial) ?? false;
      if (restart) await redis.restart();
      const endBy = Date.now() + 40_000;
      const ends = async () => Promise.all(plans.map(async (plan) => (await journal.history(plan.planId)).records.filter((r) => r.kind === 'plan_end')));
      while ((await ends()).some((e) => e.length === 0) && Date.now() < endBy) await sleep(100);
      await until(() => targets.every((t) => observer.blockAt(t)?.name === 'air'));
      observer.off('blockUpdate', watch);
      const events = readLines(join(dir, 'events.log')).map((l) => JSON.parse(l) as { type: string; key?: string; planId?: string; pid: number });
      const recorded = events.filter((e) => e.type === 'step.recorded');
      const refusedPlans = new Set(events.filter((e) => e.type === 'step.refused').map((e) => e.planId));
      const endOf = (await ends()).map((e, n) => (e.length === 1 && e[0]!.kind === 'plan_end' ? (e[0]!.status === 'completed' ? 'completed' : refusedPlans.has(plans[n]!.planId) ? 'refused' : 'other') : 'lost'));
      const ofKind = (kind: string) => events.filter((e) => e.type === kind && e.planId?.startsWith(`b${trial}/`)).length;
      const lines = dispatched().map((l) => l.split(' '));
      const keys = plans.flatMap((plan) => plan.steps.map((step) => `${plan.planId}:${step.stepId}`));
      // The processes that dispatched a key, in order: an executor's own retry of a failed attempt is one process.
      const by = (key: string) => [...new Set(lines.filter(([, k]) => k === key).map(([, , pid]) => Number(pid)))];
      const doubles = keys.filter((key) => by(key).length > 1);
      const crafted = (counter.planks() - planksBefore) / 4;
      const histories = await Promise.all(plans.map((plan) => journal.history(plan.planId)));
      const inJournal = new Set(histories.flatMap((h) => h.records.flatMap((r) => (r.kind === 'step' ? [r.key] : []))));
      rows.push({
        trial,
        plans: plans.length,
        steps: keys.length,
        kills: slot >= 0 ? 1 : 0,
        crafts: crafted,
        craftPlans: crafts.length,
        craftsCompleted: crafts.filter((plan) => endOf[plans.indexOf(plan)] === 'completed').length,
        craftedTwice: Math.max(0, crafted - crafts.length),
        redisRestarted: restart,
        acknowledgedLost: new Set(recorded.filter((e) => e.key !== undefined && keys.includes(e.key) && !inJournal.has(e.key)).map((e) => e.key)).size,
        lost: endOf.filter((end) => end === 'lost' || end === 'other').length,
        refused: endOf.filter((end) => end === 'refused').length,
        blocksDugTwice: targets.filter((t) => (transitions.get(t.toString()) ?? 0) > 1).length,
        blocksLeft: targets.filter((t) => observer.blockAt(t)?.name !== 'air').length,
        blocksUnseen: targets.filter((t) => !transitions.has(t.toString()) && observer.blockAt(t)?.name === 'air').length,
        redispatches: doubles.length,
        recovered: ofKind('step.recovered'),
        rerunAbsent: ofKind('step.redispatched'),
        retried: keys.filter((key) => lines.filter(([, k]) => k === key).length > by(key).length).length,
      });
    }
    return rows;
  } finally {
    for (const child of children) if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
    observer.quit();
    counter.stop();
    await Promise.all([queue.close(), journal.close()]);
    rmSync(dir, { recursive: true, force: true });
  }
}
