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
});
