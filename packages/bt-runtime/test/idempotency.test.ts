import type { StepOutcome } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { IdempotencyStore } from '../src/executor/idempotency.js';

const outcome = (stepId: string, status: StepOutcome['status'] = 'succeeded'): StepOutcome => ({ planId: 'p', stepId, verb: 'v', status, attempts: 1, startedAt: 0, endedAt: 1 });
const complete = (store: IdempotencyStore, key: string, status: StepOutcome['status'] = 'succeeded') => store.begin(key).end(outcome(key, status));

describe('IdempotencyStore (FM-05)', () => {
  it('keeps the latest `capacity` completed keys, oldest forgotten first, through many evictions; keys in flight are never evicted', () => {
    const store = new IdempotencyStore(3);
    const held = store.begin('held');
    for (let i = 0; i < 5000; i += 1) complete(store, `k${i}`);
    expect(['k4996', 'k4997', 'k4998', 'k4999'].map((key) => store.get(key)?.state)).toEqual([undefined, 'completed', 'completed', 'completed']);
    expect(store.get('held')).toBe(held);
    held.end(outcome('held', 'failed'));
    expect(store.get('held')).toBeUndefined(); // a failed key is forgotten, so it can run again
    expect(store.get('k4997')?.state).toBe('completed'); // ... and was never one of the remembered three
  });

  it('answers every step that joined a key in flight once, with the outcome that settled it', async () => {
    const store = new IdempotencyStore(10);
    const flight = store.begin('k');
    const joined = [flight.join(), flight.join()];
    flight.end(outcome('k'));
    flight.end(outcome('again', 'failed')); // a second end changes nothing
    expect((await Promise.all(joined)).map((o) => o.stepId)).toEqual(['k', 'k']);
    expect(store.get('k')).toEqual({ state: 'completed', outcome: outcome('k') });
  });

  it('keeps several keys in flight at once (a preemption over a step, a concurrent plan), each found until it ends, whatever order they end in', () => {
    const store = new IdempotencyStore(2);
    const planId = ['plan', 7].join('-'); // keys built at run time, asked for by literals
    const flights = ['a', 'b', 'c', 'd'].map((stepId) => store.begin(`${planId}:${stepId}`));
    flights[1]!.end(outcome('b', 'failed')); // one in the middle ends first, failed
    expect(store.get('plan-7:b')).toBeUndefined(); // forgotten at once, so it can run again
    expect(store.get('plan-7:d')).toBe(flights[3]); // the others are still in flight
    flights[3]!.end(outcome('d')); // then the last one
    expect(store.get('plan-7:a')).toBe(flights[0]);
    expect(store.get('plan-7:c')).toBe(flights[2]);
    expect(store.get('plan-7:d')?.state).toBe('completed');
    flights[2]!.end(outcome('c'));
    flights[0]!.end(outcome('a'));
    // completed d, c, a: a capacity of 2 forgets d
    expect(['plan-7:a', 'plan-7:b', 'plan-7:c', 'plan-7:d'].map((key) => store.get(key)?.state)).toEqual(['completed', undefined, 'completed', undefined]);
    expect(store.begin('plan-7:b')).toBe(store.get('plan-7:b')); // the failed key runs again
  });
});
