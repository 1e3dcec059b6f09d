import type { StepOutcome } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { IdempotencyStore } from '../src/executor/idempotency.js';

// The store's completion queue when a caller begins a key that already completed (the executor never does: it answers
// the key as a duplicate; a caller of the store may): the key leaves its old place, so its next completion is not
// forgotten early by that place, and a key in flight is never forgotten by it.

const outcome = (stepId: string, status: StepOutcome['status'] = 'succeeded'): StepOutcome => ({ planId: 'q7', stepId, verb: 'till', status, attempts: 2, startedAt: 40, endedAt: 41 });
const states = (store: IdempotencyStore, keys: string[]) => keys.map((key) => `${key}:${store.get(key)?.state ?? '-'}`);

describe('a completed key begun again', () => {
  it('completes into one place in the queue: with capacity 2, it and the next key are both kept', () => {
    const store = new IdempotencyStore(2);
    store.begin('row/1').end(outcome('row/1'));
    store.begin('row/1').end(outcome('row/1'));
    store.begin('row 2').end(outcome('row 2'));
    expect(states(store, ['row/1', 'row 2'])).toEqual(['row/1:completed', 'row 2:completed']);
    store.begin('row#3').end(outcome('row#3'));
    expect(states(store, ['row/1', 'row 2', 'row#3'])).toEqual(['row/1:-', 'row 2:completed', 'row#3:completed']);
  });

  it('stays in flight while later keys complete past the capacity (its old place forgets nothing)', () => {
    const store = new IdempotencyStore(1);
    store.begin('A').end(outcome('A'));
    const again = store.begin('A');
    store.begin('b').end(outcome('b'));
    store.begin('c').end(outcome('c'));
    expect(store.get('A')).toBe(again);
    again.end(outcome('A'));
    expect(states(store, ['A', 'b', 'c'])).toEqual(['A:completed', 'b:-', 'c:-']);
  });

  it('that fails this time is forgotten, and the capacity counts only the keys still completed', () => {
    const store = new IdempotencyStore(2);
    store.begin('x').end(outcome('x'));
    store.begin('x').end(outcome('x', 'failed'));
    store.begin('y').end(outcome('y'));
    store.begin('z').end(outcome('z'));
    expect(states(store, ['x', 'y', 'z'])).toEqual(['x:-', 'y:completed', 'z:completed']);
  });
});
