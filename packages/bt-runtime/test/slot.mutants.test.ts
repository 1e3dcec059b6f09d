import { describe, expect, it } from 'vitest';
import { StepSlot } from '../src/executor/slot.js';

/** Queues a waiter and records, in `order`, its name when the slot is granted (or `name:refused`). */
function queue(slot: StepSlot, order: string[], name: string, options: Parameters<StepSlot['acquire']>[0] = {}) {
  return slot.acquire(options).then((granted) => void order.push(granted ? name : `${name}:refused`));
}

/** Releases the slot `times` times, letting each grant settle. */
async function releaseAll(slot: StepSlot, times: number): Promise<void> {
  for (let i = 0; i < times; i += 1) {
    slot.release();
    await Promise.resolve();
    await Promise.resolve();
  }
}

describe('StepSlot', () => {
  it('grants a free slot at once, refuses tryAcquire while held, and frees on the last release', async () => {
    const slot = new StepSlot();
    await expect(slot.acquire()).resolves.toBe(true);
    expect(slot.tryAcquire()).toBe(false);
    slot.release();
    expect(slot.tryAcquire()).toBe(true);
    expect(slot.tryAcquire()).toBe(false);
    slot.release();
    expect(slot.waiting()).toBe(0);
  });

  it('serves priority waiters first (first come first served among them), then plain ones by rank, FIFO within a rank', async () => {
    const slot = new StepSlot();
    slot.tryAcquire();
    const order: string[] = [];
    const all = [
      queue(slot, order, 'plain-0'),
      queue(slot, order, 'rank-5', { rank: 5 }),
      queue(slot, order, 'preempt-1', { priority: true }),
      queue(slot, order, 'plain-0-b', { rank: 0 }),
      queue(slot, order, 'rank-5-b', { rank: 5 }),
      queue(slot, order, 'preempt-2', { priority: true, rank: -3 }),
      queue(slot, order, 'rank-9', { rank: 9 }),
      queue(slot, order, 'negative', { rank: -1 }),
    ];
    expect(slot.waiting()).toBe(8);
    await releaseAll(slot, 8);
    await Promise.all(all);
    expect(order).toEqual(['preempt-1', 'preempt-2', 'rank-9', 'rank-5', 'rank-5-b', 'plain-0', 'plain-0-b', 'negative']);
  });

  it('queues a waiter `ahead` of the waiters of its own rank, but behind higher ranks', async () => {
    const slot = new StepSlot();
    slot.tryAcquire();
    const order: string[] = [];
    const all = [
      queue(slot, order, 'high', { rank: 3 }),
      queue(slot, order, 'same-1', { rank: 1 }),
      queue(slot, order, 'same-2', { rank: 1 }),
      queue(slot, order, 'low', { rank: 0 }),
      queue(slot, order, 'resumed', { rank: 1, ahead: true }),
    ];
    await releaseAll(slot, 5);
    await Promise.all(all);
    expect(order).toEqual(['high', 'resumed', 'same-1', 'same-2', 'low']);
  });

  it('refuses an already aborted signal without queueing, even when the slot is free', async () => {
    const slot = new StepSlot();
    await expect(slot.acquire({ signal: AbortSignal.abort() })).resolves.toBe(false);
    expect(slot.waiting()).toBe(0);
    expect(slot.tryAcquire()).toBe(true);
  });

  it('drops a waiter whose signal aborts (the first or a later one) and grants the next one instead', async () => {
    const slot = new StepSlot();
    slot.tryAcquire();
    const order: string[] = [];
    const first = new AbortController();
    const third = new AbortController();
    const all = [
      queue(slot, order, 'first', { signal: first.signal }),
      queue(slot, order, 'second'),
      queue(slot, order, 'third', { signal: third.signal }),
    ];
    first.abort();
    third.abort();
    await Promise.all([all[0], all[2]]);
    expect(order).toEqual(['first:refused', 'third:refused']);
    expect(slot.waiting()).toBe(1);
    await releaseAll(slot, 1);
    await all[1];
    expect(order).toEqual(['first:refused', 'third:refused', 'second']);
    slot.release();
    expect(slot.tryAcquire()).toBe(true);
  });

  it('ignores an abort after the grant: the holder keeps the slot and no later waiter is dropped', async () => {
    const slot = new StepSlot();
    slot.tryAcquire();
    const controller = new AbortController();
    const granted = slot.acquire({ signal: controller.signal });
    const later = slot.acquire();
    slot.release();
    await expect(granted).resolves.toBe(true);
    controller.abort();
    expect(slot.waiting()).toBe(1);
    slot.release();
    await expect(later).resolves.toBe(true);
  });

  it('says whether the first waiter takes over: a preemption always, a plain waiter only with a higher rank', () => {
    const slot = new StepSlot();
    slot.tryAcquire();
    expect(slot.takeover(0)).toBeUndefined();
    void slot.acquire({ rank: 2 });
    expect([slot.takeover(1), slot.takeover(2), slot.takeover(3)]).toEqual(['priority', undefined, undefined]);
    void slot.acquire({ priority: true, rank: -10 });
    expect(slot.takeover(100)).toBe('preemption');
  });
});
