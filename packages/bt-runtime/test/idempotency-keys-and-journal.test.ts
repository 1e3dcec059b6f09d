import { ManualClock, type Logger, type StepOutcome } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { IdempotencyStore, settled, whenDurable } from '../src/executor/idempotency.js';
import { PlanJournal } from '../src/journal/journal.js';
import { createMemoryJournal, type JournalRecord, type JournalStore } from '../src/journal/records.js';

// The idempotency store over a journal: keys replayed at start, a durable step's outcome written before its joiners
// hear it, a shared (fleet) journal's claims and asynchronous writes, and which completed keys it keeps.

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const done = (stepId: string, status: StepOutcome['status'] = 'succeeded'): StepOutcome => ({ planId: 'p', stepId, verb: 'dig', status, attempts: 1, startedAt: 3, endedAt: 9 });
const stepRecord = (key: string, status: StepOutcome['status'] = 'succeeded'): JournalRecord => ({ kind: 'step', at: 1, key, outcome: done(key, status) });

/** A memory journal whose history starts with `records`. */
function journalOf(records: JournalRecord[], capacity = 10) {
  const store = createMemoryJournal();
  store.records.push(...records);
  return { store, journal: new PlanJournal(store, new ManualClock(), silent, { capacity }) };
}

/** A shared store (it answers claims) whose appends land when the test says so. */
function sharedStore(answers: Record<string, StepOutcome | Error> = {}) {
  const records: JournalRecord[] = [];
  const pending: (() => void)[] = [];
  const store: JournalStore = {
    append: (record) =>
      new Promise<void>((resolve) => {
        pending.push(() => {
          records.push(record);
          resolve();
        });
      }),
    readAll: () => ({ records: [], skipped: 0 }),
    claim: async (key) => {
      const answer = answers[key];
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  const land = async () => {
    for (const write of pending.splice(0)) write();
    await Promise.resolve();
  };
  return { store, records, land };
}

const states = (store: IdempotencyStore, keys: string[]) => keys.map((key) => `${key}:${store.get(key)?.state ?? '-'}`);

describe('keys replayed from a journal', () => {
  it('start completed, with their recorded outcome; a key that failed last is not one of them', () => {
    const { journal } = journalOf([stepRecord('a'), stepRecord('b'), stepRecord('b', 'failed'), stepRecord('c')]);
    const store = new IdempotencyStore(10, journal);
    expect(states(store, ['a', 'b', 'c'])).toEqual(['a:completed', 'b:-', 'c:completed']);
    expect(store.get('c')).toStrictEqual({ state: 'completed', outcome: done('c') });
  });

  it('are kept up to the store’s own capacity, oldest forgotten first', () => {
    const { journal } = journalOf([stepRecord('a'), stepRecord('b'), stepRecord('c'), stepRecord('d')]);
    const store = new IdempotencyStore(2, journal);
    expect(states(store, ['a', 'b', 'c', 'd'])).toEqual(['a:-', 'b:-', 'c:completed', 'd:completed']);
    store.begin('e').end(done('e'));
    expect(states(store, ['c', 'd', 'e'])).toEqual(['c:-', 'd:completed', 'e:completed']);
  });
});

describe('a step that ends under a synchronous journal', () => {
  it('writes a durable key’s outcome, success or failure, and answers at once', () => {
    const { store: memory, journal } = journalOf([]);
    const store = new IdempotencyStore(10, journal);
    expect(store.shared).toBe(false);
    const ok = store.begin('ok');
    expect(ok.awaitsJournal).toBe(false);
    expect(ok.end(done('ok'))).toBeUndefined();
    store.begin('bad').end(done('bad', 'failed'));
    expect(memory.records.map((r) => (r.kind === 'step' ? `${r.key}:${r.outcome.status}` : r.kind))).toEqual(['ok:succeeded', 'bad:failed']);
    expect(states(store, ['ok', 'bad'])).toEqual(['ok:completed', 'bad:-']);
  });

  it('writes nothing for a key that is not durable (a preemption’s step), yet remembers it', () => {
    const { store: memory, journal } = journalOf([]);
    const store = new IdempotencyStore(10, journal);
    const flight = store.begin('preempting', false);
    expect([flight.durable, flight.awaitsJournal]).toEqual([false, false]);
    flight.end(done('preempting'));
    expect(memory.records).toEqual([]);
    expect(states(store, ['preempting'])).toEqual(['preempting:completed']);
  });

  it('without a journal, claims nothing and is not shared', async () => {
    const store = new IdempotencyStore(10);
    expect(store.shared).toBe(false);
    expect(['S', 'k'].map((key) => store.get(key))).toEqual([undefined, undefined]);
    expect(await store.claim('k', { planId: 'p', stepId: 's', verb: 'dig', args: {} })).toBeUndefined();
  });
});

describe('a shared, asynchronous journal (a fleet’s)', () => {
  it('answers a claim with the outcome recorded elsewhere, nothing, or the failure that keeps the step from running here', async () => {
    const { store: shared } = sharedStore({ elsewhere: done('elsewhere'), refused: new Error('owned by bot-2') });
    const store = new IdempotencyStore(10, new PlanJournal(shared, new ManualClock(), silent, { capacity: 10 }));
    const step = { planId: 'p', stepId: 's', verb: 'dig', args: {} };
    expect(store.shared).toBe(true);
    expect(await store.claim('elsewhere', step)).toStrictEqual({ state: 'completed', outcome: done('elsewhere') });
    expect(await store.claim('fresh', step)).toBeUndefined();
    expect(await store.claim('refused', step)).toMatchObject({ code: 'journal_unavailable', reason: expect.stringContaining('owned by bot-2') });
  });

  it('holds a durable step’s end and its joiners until the write lands', async () => {
    const { store: shared, records, land } = sharedStore();
    const store = new IdempotencyStore(10, new PlanJournal(shared, new ManualClock(), silent, { capacity: 10 }));
    const flight = store.begin('k');
    expect(flight.awaitsJournal).toBe(true);
    const heard: string[] = [];
    void flight.join().then((o) => heard.push(`joiner:${o.stepId}`));
    const running = whenDurable(flight, Promise.resolve(done('k')));
    void running.then((o) => heard.push(`step:${o.stepId}`));
    const ended = flight.end(done('k'));
    expect(ended).toBeInstanceOf(Promise);
    // A second end while the write is in flight hands back the same write.
    expect(flight.end(done('other', 'failed'))).toBe(ended);
    await Promise.resolve();
    await Promise.resolve();
    expect([heard, store.get('k')?.state, records.length]).toEqual([[], 'in_flight', 0]);
    await land();
    await ended;
    await running;
    expect(heard.sort()).toEqual(['joiner:k', 'step:k']);
    expect(store.get('k')).toStrictEqual({ state: 'completed', outcome: done('k') });
    expect(records).toHaveLength(1);
  });

  it('a key two claims raced for, completed twice, moves to the newest end: the capacity forgets the others first', async () => {
    const { store: shared, land } = sharedStore();
    const store = new IdempotencyStore(3, new PlanJournal(shared, new ManualClock(), silent, { capacity: 10 }));
    const end = async (flight: ReturnType<IdempotencyStore['begin']>, key: string) => {
      const ended = flight.end(done(key));
      await land();
      await ended;
    };
    // Two owners began `a` (their claims raced); the first ends before `c`, the second after it.
    const [first, second] = [store.begin('a'), store.begin('a')];
    await end(store.begin('b'), 'b');
    await end(first, 'a');
    await end(store.begin('c'), 'c');
    await end(second, 'a');
    await end(store.begin('d'), 'd');
    expect(states(store, ['a', 'b', 'c', 'd'])).toEqual(['a:completed', 'b:-', 'c:completed', 'd:completed']);
    await end(store.begin('e'), 'e');
    await end(store.begin('f'), 'f');
    expect(states(store, ['a', 'c', 'd', 'e', 'f'])).toEqual(['a:-', 'c:-', 'd:completed', 'e:completed', 'f:completed']);
    // Past many more keys (the queue compacted on the way) the three newest stay.
    for (let i = 0; i < 40; i += 1) await end(store.begin(`k${i}`), `k${i}`);
    expect(states(store, ['f', 'k36', 'k37', 'k38', 'k39'])).toEqual(['f:-', 'k36:-', 'k37:completed', 'k38:completed', 'k39:completed']);
  });
});

describe('settled', () => {
  it('is the outcome itself without a write in flight, and the outcome once a write lands', async () => {
    const outcome = done('x');
    expect(settled(undefined, outcome)).toBe(outcome);
    let land!: () => void;
    const write = new Promise<void>((resolve) => (land = resolve));
    const later = settled(write, outcome);
    expect(later).toBeInstanceOf(Promise);
    land();
    expect(await later).toBe(outcome);
  });
});
