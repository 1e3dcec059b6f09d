import { accepted, ManualClock } from '@sinew/executor-contracts';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createExecutorMetrics } from '../src/index.js';
import { defineFake, fakeBody, registryWith } from './fake-body.js';
import { metric } from './metric.js';

// A preemption's step whose idempotency key is the one the interrupted step holds: joining it would wait on a step
// that waits for the preemption, so it is refused at once; a key that already completed is answered as usual.

/** Walks `steps` moves, one every 100 ms. */
const walk = defineFake({
  name: 'walk',
  version: '1.0.0',
  description: 'walks n moves',
  inputSchema: z.object({ steps: z.number().int() }),
  run: async (ctx, { steps }) => {
    for (let moved = 0; moved < steps; moved += 1) {
      ctx.body.move(1);
      await ctx.sleep(100);
    }
  },
  acceptance: () => accepted,
});

it('a preemption step holding the interrupted step’s key is refused as a duplicate, not joined; a completed key is answered', async () => {
  const clock = new ManualClock();
  const body = fakeBody();
  const metrics = createExecutorMetrics();
  const executor = createExecutor({ registry: registryWith(walk), body, clock, metrics, policy: { maxLocalRetries: 0 } });
  const done = executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 'long', type: 'walk', args: { steps: 3 }, idempotencyKey: 'walk-home' }] });
  await clock.advance(150);
  const fast = executor.preempt([{ stepId: 'same', type: 'walk', args: { steps: 1 }, idempotencyKey: 'walk-home' }], { reason: 'hurry' });
  await clock.flush();
  const [same] = await fast;
  expect(same).toMatchObject({ stepId: 'same', status: 'failed', attempts: 0, failure: { code: 'duplicate', reason: 'idempotency key "walk-home" is in flight in the interrupted step; not dispatched again' } });
  await clock.advance(1_000);
  expect((await done).status).toBe('completed');
  const [again] = await executor.preempt([{ stepId: 'again', type: 'walk', args: { steps: 1 }, idempotencyKey: 'walk-home' }], { reason: 'hurry' });
  expect(again).toMatchObject({ status: 'succeeded', failure: { code: 'duplicate', reason: 'idempotency key "walk-home" already completed as p:long; not dispatched again' } });
  expect(await metric(metrics.registry, 'sinew_steps_total', { capability: 'walk', outcome: 'failed', code: 'duplicate' })).toBe(1);
});
