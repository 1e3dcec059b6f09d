import type { JournalRecord } from '@sinew/bt-runtime';
import type { StepOutcome } from '@sinew/executor-contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisJournal, FleetWriteError, type FleetJournal } from '../src/index.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

let server: RedisServer;
const journals: FleetJournal[] = [];
/** A journal on its own connection: what another process of the fleet would hold. */
const open = (prefix: string, leaseMs = 10_000) => {
  const journal = createRedisJournal({ host: '127.0.0.1', port: server.port }, { prefix, leaseMs });
  journals.push(journal);
  return journal;
};
const outcome = (planId: string, stepId: string, status: StepOutcome['status'] = 'succeeded'): StepOutcome => ({ planId, stepId, verb: 'dig', status, attempts: 1, startedAt: 5, endedAt: 9 });
const stepRecord = (planId: string, stepId: string, status?: StepOutcome['status']): JournalRecord => ({ kind: 'step', at: 9, key: `${planId}:${stepId}`, outcome: outcome(planId, stepId, status) });
const start = (planId: string): JournalRecord => ({ kind: 'plan_start', at: 1, plan: { planId, intentId: 'i-1', steps: [{ stepId: 'a', type: 'dig', args: { x: -3 } }] } });

beforeAll(async () => void (server = await startRedisServer()));
afterAll(async () => {
  await Promise.all(journals.map((j) => j.close()));
  await server.dispose();
});

describe('the Redis fleet journal', () => {
  it('keeps an append-only history per plan and refuses a second owner while the lease holds', async () => {
    const [first, second] = [open('h'), open('h')];
    const lease = (await first.acquire('p/1', 'bot-a'))!;
    await first.append(lease, start('p/1'));
    await first.append(lease, stepRecord('p/1', 'a'));
    expect(await second.acquire('p/1', 'bot-b')).toBeUndefined();
    const read = await second.history('p/1');
    expect(read.records.map((r) => r.kind)).toEqual(['plan_start', 'step']);
    expect(read.skipped).toBe(0);
  });

  it('answers a completed key duplicate from another connection, with the recorded outcome', async () => {
    const [first, second] = [open('d'), open('d')];
    const lease = (await first.acquire('dig-7', 'bot-a'))!;
    expect(await first.claimStep(lease, 'dig-7:a')).toEqual({ state: 'acquired' });
    await first.append(lease, stepRecord('dig-7', 'a'));
    await first.release(lease);
    const other = (await second.acquire('dig-7', 'bot-b'))!;
    expect(await second.claimStep(other, 'dig-7:a')).toEqual({ state: 'duplicate', outcome: outcome('dig-7', 'a') });
    expect(await second.completed('dig-7:a')).toEqual(outcome('dig-7', 'a'));
  });

  it('forgets nothing for a failed step: the key stays claimable and is not completed', async () => {
    const journal = open('f');
    const lease = (await journal.acquire('q', 'bot-a'))!;
    await journal.claimStep(lease, 'q:a');
    await journal.append(lease, stepRecord('q', 'a', 'failed'));
    expect(await journal.completed('q:a')).toBeUndefined();
    expect(await journal.claimStep(lease, 'q:a')).toEqual({ state: 'acquired' });
  });

  it('refuses the late write of an owner whose lease expired and passed on, and reports the re-dispatch', async () => {
    const [old, next] = [open('x', 150), open('x', 150)];
    const stale = (await old.acquire('x1', 'bot-old'))!;
    await old.append(stale, start('x1'));
    await old.claimStep(stale, 'x1:a');
    let taken = await next.acquire('x1', 'bot-new');
    while (taken === undefined) taken = (await new Promise((r) => setTimeout(r, 20)), await next.acquire('x1', 'bot-new'));
    expect(taken.token).toBeGreaterThan(stale.token);
    expect(taken.length).toBe(1);
    await expect(old.append(stale, stepRecord('x1', 'a'))).rejects.toMatchObject({ code: 'fenced', planId: 'x1', what: 'step' });
    expect(await old.renew(stale)).toBe(false);
    expect(await old.claimStep(stale, 'x1:b')).toEqual({ state: 'fenced' });
    expect(await next.claimStep(taken, 'x1:a')).toEqual({ state: 'acquired', previous: { worker: 'bot-old' } });
    expect((await next.history('x1')).records).toHaveLength(1);
  });

  it('answers busy for a key another live plan has in flight', async () => {
    const journal = open('b');
    const one = (await journal.acquire('plan-one', 'bot-a'))!;
    const two = (await journal.acquire('plan-two', 'bot-b'))!;
    expect((await journal.claimStep(one, 'shared-key')).state).toBe('acquired');
    expect(await journal.claimStep(two, 'shared-key')).toEqual({ state: 'busy' });
    await journal.release(one);
    expect(await journal.claimStep(two, 'shared-key', { seen: ['dirt', 3] })).toEqual({ state: 'acquired', previous: { worker: 'bot-a' } });
    // The evidence goes with the claim: the next claimer of the key gets it back.
    await journal.release(two);
    const three = (await journal.acquire('plan-three', 'bot-c'))!;
    expect(await journal.claimStep(three, 'shared-key')).toEqual({ state: 'acquired', previous: { worker: 'bot-b', evidence: { seen: ['dirt', 3] } } });
  });

  it('takes a resent record once and refuses a writer whose view of the history is behind', async () => {
    const journal = open('r');
    const lease = (await journal.acquire('r1', 'bot-a'))!;
    await journal.append(lease, start('r1'));
    lease.length -= 1; // the reply was lost: the same record goes again
    await journal.append(lease, start('r1'));
    expect((await journal.history('r1')).records).toHaveLength(1);
    lease.length -= 1;
    const error = await journal.append(lease, stepRecord('r1', 'a')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FleetWriteError);
    expect(error).toMatchObject({ code: 'conflict' });
  });

  it('refuses bad options when built', () => {
    expect(() => createRedisJournal({ port: 1, lazyConnect: true }, { prefix: 'a b', leaseMs: 5 })).toThrow(/prefix[\s\S]*leaseMs|leaseMs[\s\S]*prefix/);
  });

  it('loses nothing it acknowledged when redis-server is killed and restarted', async () => {
    const journal = open('k');
    const lease = (await journal.acquire('k1', 'bot-a'))!;
    await journal.append(lease, start('k1'));
    await journal.append(lease, stepRecord('k1', 'a'));
    await server.restart();
    expect((await journal.history('k1')).records.map((r) => r.kind)).toEqual(['plan_start', 'step']);
    expect(await journal.completed('k1:a')).toEqual(outcome('k1', 'a'));
    await journal.append(lease, { kind: 'plan_end', at: 12, planId: 'k1', status: 'completed' });
    expect((await journal.history('k1')).records).toHaveLength(3);
  });
});
