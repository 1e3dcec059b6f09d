import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { RepairHook } from '@sinew/executor-contracts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFleetQueue, createFleetWorker, createRedisJournal, type FleetEvent, type FleetJournal, type FleetQueue, type FleetWorker } from '../src/index.js';
import { fileWorldExecutor, fileWorldRecovery } from './fixtures/world.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

let server: RedisServer;
let dir: string;
const closers: (() => Promise<void>)[] = [];
// A live worker renews its lease and lock every third of them: 3 s leaves a loaded machine's stalls (a CI run saw one
// outlast the 333 ms of a 1 s lease: the plan was requeued and retaken mid-test) a full 2 s. A dead bot's lease is 1 s
// (`dead`), so an heir waits no longer for it to run out.
const timing = { leaseMs: 3_000, deadLeaseMs: 1_000, lockMs: 3_000, stalledCheckMs: 200 };

function fleet(prefix: string) {
  const connection = { host: '127.0.0.1', port: server.port };
  const queue = createFleetQueue(connection, { prefix, lockMs: timing.lockMs, stalledCheckMs: timing.stalledCheckMs });
  const journal = createRedisJournal(connection, { prefix, leaseMs: timing.leaseMs });
  /** The same journal as a bot that dies holding its lease uses it. */
  const dead = createRedisJournal(connection, { prefix, leaseMs: timing.deadLeaseMs });
  closers.push(() => queue.close(), () => journal.close(), () => dead.close());
  return { queue, journal, dead };
}

function bot(name: string, world: string, verbs: string[], parts: { queue: FleetQueue; journal: FleetJournal }, events: (FleetEvent & { bot: string })[]): FleetWorker {
  const worker = createFleetWorker({ ...parts, executor: (journal) => fileWorldExecutor(world, verbs, 5, journal), recover: fileWorldRecovery(world, verbs), id: name, pollMs: 30, onEvent: (event) => events.push({ ...event, bot: name }) });
  closers.unshift(() => worker.close());
  return worker;
}

async function until(what: string, check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
const ended = async (journal: FleetJournal, planId: string) => (await journal.history(planId)).records.filter((r) => r.kind === 'plan_end');
const effects = (world: string) => readFileSync(world, 'utf8').split('\n').filter((line) => line.startsWith('effect '));

beforeAll(async () => {
  server = await startRedisServer();
  dir = mkdtempSync(join(tmpdir(), 'sinew-fleet-'));
});
afterAll(async () => {
  for (const close of closers) await close();
  await server.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('fleet workers', () => {
  it('hand each plan to a bot whose registry has all its verbs, once, recording every step before reporting it', async () => {
    const parts = fleet('caps');
    const world = join(dir, 'caps.log');
    const events: (FleetEvent & { bot: string })[] = [];
    bot('digger', world, ['dig'], parts, events);
    bot('crafter', world, ['dig', 'craft'], parts, events);
    const plans = [
      { planId: 'mixed/ü-1', intentId: 'tools', steps: [{ stepId: 'log', type: 'dig', args: { mark: 'oak@3,64,-2' } }, { stepId: 'pick', type: 'craft', args: { mark: 'wooden_pickaxe#1' } }] },
      ...[1, 2, 3, 4].map((n) => ({ planId: `dig:${n}`, intentId: 'clear', steps: [{ stepId: `s${n}`, type: 'dig', args: { mark: `stone@${n},12,${-n}` } }] })),
    ];
    for (const plan of plans) await parts.queue.submit(plan);
    await parts.queue.submit(plans[1]!); // the same planId again queues nothing new
    await until('every plan to end', async () => (await Promise.all(plans.map((p) => ended(parts.journal, p.planId)))).every((e) => e.length === 1));
    expect(events.filter((e) => e.type === 'plan.taken' && e.planId === 'mixed/ü-1').map((e) => e.bot)).toEqual(['crafter']);
    expect(effects(world).map((line) => line.split(' ')[1]).sort()).toEqual(['oak@3,64,-2', 'stone@1,12,-1', 'stone@2,12,-2', 'stone@3,12,-3', 'stone@4,12,-4', 'wooden_pickaxe#1'].sort());
    const history = await parts.journal.history('mixed/ü-1');
    expect(history.records.map((r) => (r.kind === 'step' ? `${r.kind}:${r.outcome.status}` : r.kind))).toEqual(['plan_start', 'step:succeeded', 'step:succeeded', 'plan_end']);
    const recorded = events.filter((e) => e.type === 'step.recorded').length;
    expect(recorded).toBe(6);
  });

  it('resumes a plan from the durable history: a step another process completed is answered duplicate, not run', async () => {
    const parts = fleet('resume');
    const world = join(dir, 'resume.log');
    const plan = { planId: 'half-done', intentId: 'i', steps: [{ stepId: 'a', type: 'dig', args: { mark: 'first' } }, { stepId: 'b', type: 'dig', args: { mark: 'second' } }] };
    const dead = (await parts.dead.acquire('half-done', 'dead-bot'))!;
    await parts.dead.append(dead, { kind: 'plan_start', at: 1, plan });
    await parts.dead.claimStep(dead, 'half-done:a');
    await parts.dead.append(dead, { kind: 'step', at: 2, key: 'half-done:a', outcome: { planId: 'half-done', stepId: 'a', verb: 'dig', status: 'succeeded', attempts: 1, startedAt: 1, endedAt: 2 } });
    await parts.dead.claimStep(dead, 'half-done:b'); // dispatched, then the process died: its lease runs out
    const events: (FleetEvent & { bot: string })[] = [];
    bot('heir', world, ['dig'], parts, events);
    await parts.queue.submit(plan);
    await until('the plan to end', async () => (await ended(parts.journal, 'half-done')).length === 1);
    await until('the worker to report the end', async () => events.some((e) => e.type === 'plan.ended'));
    expect(effects(world).map((line) => line.split(' ')[1])).toEqual(['second']);
    expect(events.map((e) => e.type)).toEqual(['plan.taken', 'step.duplicate', 'step.redispatched', 'step.recorded', 'plan.ended']);
  });

  /** A plan whose first step `dead-bot` recorded and whose second it claimed (with `evidence`), then died. */
  async function diedMidStep(parts: { dead: FleetJournal }, planId: string, evidence?: unknown, verb = 'dig') {
    const plan = { planId, intentId: 'i', steps: [{ stepId: 'a', type: 'dig', args: { mark: `${planId}#a` } }, { stepId: 'b', type: verb, args: { mark: `${planId}#b` } }] };
    const dead = (await parts.dead.acquire(planId, 'dead-bot'))!;
    await parts.dead.append(dead, { kind: 'plan_start', at: 1, plan });
    await parts.dead.claimStep(dead, `${planId}:a`);
    await parts.dead.append(dead, { kind: 'step', at: 2, key: `${planId}:a`, outcome: { planId, stepId: 'a', verb: 'dig', status: 'succeeded', attempts: 1, startedAt: 1, endedAt: 2 } });
    await parts.dead.claimStep(dead, `${planId}:b`, evidence);
    return plan;
  }

  it('records from the world, and does not run again, a step whose earlier owner died after its act and before its record', async () => {
    const parts = fleet('recovered');
    const world = join(dir, 'recovered.log');
    const plan = await diedMidStep(parts, 'acted/then died');
    writeFileSync(world, `effect acted/then died#b ${process.pid}\n`); // the dead owner's act, in the world
    const events: (FleetEvent & { bot: string })[] = [];
    bot('heir', world, ['dig'], parts, events);
    await parts.queue.submit(plan);
    await until('the plan to end', async () => (await ended(parts.journal, plan.planId)).length === 1);
    await until('the worker to report the end', async () => events.some((e) => e.type === 'plan.ended')); // it follows the durable end
    expect(effects(world)).toHaveLength(1);
    expect(events.map((e) => e.type)).toEqual(['plan.taken', 'step.duplicate', 'step.recovered', 'plan.ended']);
    const records = (await parts.journal.history(plan.planId)).records;
    expect(records.at(-1)).toMatchObject({ kind: 'plan_end', status: 'completed' });
    expect(records.find((r) => r.kind === 'step' && r.key.endsWith(':b'))).toMatchObject({ outcome: { status: 'succeeded', attempts: 0, observables: { recoveredFromWorld: 'the world has acted/then died#b', previousWorker: 'dead-bot' } } });
    // Completed for every process now: a later claim of the key is answered from the record.
    expect(await parts.journal.completed(`${plan.planId}:b`)).toMatchObject({ status: 'succeeded' });
  });

  it('refuses (duplicate, failed), and does not run, such a step when the world cannot tell: no recovery for its verb, or a verifier that answers nonsense', async () => {
    const parts = fleet('refused');
    const world = join(dir, 'refused.log');
    const blind = await diedMidStep(parts, 'blind', undefined, 'craft');
    const confused = await diedMidStep(parts, 'confused', { body: 'w1', planks: 3 });
    const seen: unknown[] = [];
    const events: FleetEvent[] = [];
    const worker = createFleetWorker({
      ...parts,
      executor: (journal) => fileWorldExecutor(world, ['dig', 'craft'], 1, journal),
      recover: [{ verb: 'dig', verify: (_args, previous) => (seen.push(previous), { state: 'maybe' } as never) }],
      pollMs: 30,
      onEvent: (event) => events.push(event),
    });
    closers.unshift(() => worker.close());
    await parts.queue.submitAll([blind, confused]);
    await until('both plans to end', async () => (await Promise.all([ended(parts.journal, 'blind'), ended(parts.journal, 'confused')])).every((e) => e.length === 1));
    expect(existsSync(world) ? effects(world) : []).toEqual([]);
    expect(seen).toEqual([{ worker: 'dead-bot', evidence: { body: 'w1', planks: 3 } }]);
    expect([...(await ended(parts.journal, 'blind')), ...(await ended(parts.journal, 'confused'))]).toMatchObject([{ status: 'failed' }, { status: 'failed' }]);
    const refused = events.flatMap((e) => (e.type === 'step.refused' ? [e.reason] : [])).sort();
    expect(refused).toHaveLength(2);
    expect(refused[0]).toMatch(/blind:b \(craft\) .*: no recovery is declared for craft/);
    expect(refused[1]).toMatch(/^step confused:b \(dig\) was claimed by worker dead-bot, which stopped before recording it, and may have taken effect: its recovery answered \{"state":"maybe"\}, not a verdict \(.*state.*\); not dispatched again$/);
    // Not recorded: the key stays claimed, so a later owner is refused too rather than running it on a guess.
    expect(await parts.journal.completed('confused:b')).toBeUndefined();
  });

  it('refuses a recover list that names a verb twice, or a verb the bot does not have, when the worker is built', () => {
    const parts = fleet('bad-recover');
    const build = (recover: { verb: string; verify: () => { state: 'absent' } }[]) => createFleetWorker({ ...parts, executor: (journal) => fileWorldExecutor(join(dir, 'x.log'), ['dig'], 1, journal), recover });
    expect(() => build([{ verb: 'dig', verify: () => ({ state: 'absent' }) }, { verb: 'dig', verify: () => ({ state: 'absent' }) }])).toThrow(/two recoveries for dig/);
    expect(() => build([{ verb: 'smelt', verify: () => ({ state: 'absent' }) }])).toThrow(/smelt, which this bot's registry does not have/);
  });

  it('ends a plan failed at the step that failed, without running the rest', async () => {
    const parts = fleet('fail');
    const world = join(dir, 'fail.log');
    const events: (FleetEvent & { bot: string })[] = [];
    bot('strict', world, ['dig'], parts, events);
    await parts.queue.submit({ planId: 'bad-args', intentId: 'i', steps: [{ stepId: 'a', type: 'dig', args: { mark: '' } }, { stepId: 'b', type: 'dig', args: { mark: 'never' } }] });
    await until('the plan to end', async () => (await ended(parts.journal, 'bad-args')).length === 1);
    expect(await ended(parts.journal, 'bad-args')).toMatchObject([{ status: 'failed' }]);
    // Refused before dispatch (V2): nothing ran, so no step record; the rest of the plan never ran either.
    expect((await parts.journal.history('bad-args')).records.map((r) => r.kind)).toEqual(['plan_start', 'plan_end']);
    expect(existsSync(world) ? effects(world) : []).toEqual([]);
  });

  it('runs the whole plan through the executor: the repair hook sees the plan, and its repair steps are claimed and recorded like any step', async () => {
    const parts = fleet('repair');
    const world = join(dir, 'repair.log');
    const seen: string[][] = [];
    const repair: RepairHook = {
      repair: ({ plan, step }) => (seen.push(plan.steps.map((s) => s.stepId)), { steps: [{ stepId: `${step.stepId}-fixed`, type: 'dig', args: { mark: 'fixed' } }], replace: true, reason: 'dig elsewhere' }),
    };
    const events: FleetEvent[] = [];
    const worker = createFleetWorker({ ...parts, executor: (journal) => fileWorldExecutor(world, ['dig'], 1, journal, repair), onEvent: (event) => events.push(event) });
    closers.unshift(() => worker.close());
    const steps = ['one', '!blocked', 'three'].map((mark, n) => ({ stepId: `s${n}`, type: 'dig', args: { mark } }));
    await parts.queue.submit({ planId: 'repaired', intentId: 'i', steps });
    await until('the plan to end', async () => (await ended(parts.journal, 'repaired')).length === 1);
    expect(seen).toEqual([['s0', 's1', 's2']]);
    expect(await ended(parts.journal, 'repaired')).toMatchObject([{ status: 'completed' }]);
    const history = (await parts.journal.history('repaired')).records.flatMap((r) => (r.kind === 'step' ? [`${r.key}:${r.outcome.status}`] : []));
    expect(history).toEqual(['repaired:s0:succeeded', 'repaired:s1:failed', 'repaired:s1-fixed:succeeded', 'repaired:s2:succeeded']);
    expect(effects(world).map((line) => line.split(' ')[1])).toEqual(['one', 'fixed', 'three']);
    expect(events.filter((e) => e.type === 'step.recorded').length).toBe(4);
  });

  it('fails a job it cannot read (an older job shape) once, loudly, instead of taking it back after every lock expiry', async () => {
    const parts = fleet('poison');
    await parts.queue.submit({ planId: 'fine', intentId: 'i', steps: [{ stepId: 'a', type: 'dig', args: { mark: 'fine' } }] });
    const { Queue } = await import('bullmq');
    const raw = new Queue('plans.dig', { connection: { host: '127.0.0.1', port: server.port }, prefix: 'poison:bull' });
    closers.push(() => raw.close());
    await raw.add('plan', { planId: 'old-shape', intentId: 'i', steps: [] }, { jobId: 'old-shape' });
    bot('reader', join(dir, 'poison.log'), ['dig'], parts, []);
    await until('the unreadable job to fail', async () => (await raw.getJobState('old-shape')) === 'failed');
    expect((await raw.getJob('old-shape'))?.failedReason).toMatch(/^not a fleet job: .*plan/s);
    await until('the readable plan to end', async () => (await ended(parts.journal, 'fine')).length === 1);
  });

  it('queues a batch of plans in one call across verb sets; one bad plan in it queues none', async () => {
    const parts = fleet('batch');
    const world = join(dir, 'batch.log');
    const batch = [
      { planId: 'b/α', intentId: 'i', steps: [{ stepId: 'x', type: 'dig', args: { mark: 'α' } }] },
      { planId: 'b/β', intentId: 'i', steps: [{ stepId: 'x', type: 'craft', args: { mark: 'β' } }, { stepId: 'y', type: 'dig', args: { mark: 'β2' } }] },
      { planId: 'b/γ', intentId: 'i', steps: [{ stepId: 'x', type: 'dig', args: { mark: 'γ' } }] },
    ];
    await expect(parts.queue.submitAll([...batch, { planId: 'b/bad', intentId: 'i', steps: [{ stepId: 'x', type: 'dig', args: {} }], stray: true } as never])).rejects.toThrow(/stray/);
    expect(await parts.queue.queueNames()).toEqual([]);
    const submitted = await parts.queue.submitAll([...batch, batch[0]!]);
    expect(submitted.map((s) => `${s.planId} ${s.queue}`)).toEqual(['b/α plans.dig', 'b/β plans.craft+dig', 'b/γ plans.dig', 'b/α plans.dig']);
    expect(new Set(submitted.map((s) => s.traceParent.split('-')[1])).size).toBe(4);
    bot('batcher', world, ['dig', 'craft'], parts, []);
    await until('the batch to end', async () => (await Promise.all(batch.map((p) => ended(parts.journal, p.planId)))).every((e) => e.length === 1));
    expect(effects(world).map((line) => line.split(' ')[1]).sort()).toEqual(['α', 'β', 'β2', 'γ'].sort());
  });

  it('refuses a plan that is not a plan, with the field that is wrong', async () => {
    const { queue } = fleet('refuse');
    await expect(queue.submit({ planId: 'x', intentId: 'i', steps: [{ stepId: 'a', type: 'dig' }], extra: 1 } as never)).rejects.toThrow(/extra/);
    expect(() => createFleetQueue({ port: 1, lazyConnect: true }, { lockMs: 10 })).toThrow(/lockMs/);
  });
});
