import { accepted, effectsUnmet, ManualClock } from '@sinew/executor-contracts';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor } from '../src/index.js';
import { defineFake, fakeBody, registryWith } from './fake-body.js';

// A step whose idempotency key another step holds (in flight) or held (completed) is answered with that step's
// result, never dispatched: its status, its failure (or `duplicate` when it succeeded), its TTFA and observables.

/** Digs after 30 ms; reports what it dug; `miss` digs nothing, so acceptance fails. */
const slowDig = defineFake({
  name: 'slow_dig',
  version: '1.0.0',
  description: 'digs after a pause',
  inputSchema: z.object({ block: z.string(), miss: z.boolean().optional() }),
  observe: ({ body }) => body.snapshot(),
  run: async (ctx, { block, miss }) => {
    await ctx.sleep(30);
    if (miss) ctx.body.move(0);
    else ctx.body.dig(block);
    return { ok: true as const, observables: { dug: miss ? null : block } };
  },
  acceptance: (pre, post, { block }) => (pre.blocks.includes(block) && !post.blocks.includes(block) ? accepted : effectsUnmet([`removed:${block}`], 'still there')),
});

function setup() {
  const clock = new ManualClock();
  const body = fakeBody();
  const executor = createExecutor({ registry: registryWith(slowDig), body, clock, policy: { maxLocalRetries: 0 } });
  const step = (planId: string, args: Record<string, unknown>) => executor.run({ planId, intentId: 'i', steps: [{ stepId: 's', type: 'slow_dig', args, idempotencyKey: 'K' }] });
  return { clock, body, step };
}

it('a step joining a key in flight gets its success as a duplicate, with its TTFA and observables; a later one gets it as completed', async () => {
  const s = setup();
  const first = s.step('pa', { block: 'log_1' });
  const joined = s.step('pb', { block: 'log_1' });
  await s.clock.advance(30);
  const [a, b] = [(await first).steps[0]!, (await joined).steps[0]!];
  expect(a).toMatchObject({ status: 'succeeded', ttfaMs: 30, observables: { dug: 'log_1' } });
  expect(a.failure).toBeUndefined();
  expect(b).toMatchObject({ planId: 'pb', status: 'succeeded', attempts: 1, ttfaMs: 30, observables: { dug: 'log_1' }, failure: { code: 'duplicate', reason: 'idempotency key "K" was in flight as pa:s; not dispatched again' } });
  const later = (await s.step('pc', { block: 'log_1' })).steps[0]!;
  expect(later).toMatchObject({ status: 'succeeded', ttfaMs: 30, observables: { dug: 'log_1' }, failure: { code: 'duplicate', reason: 'idempotency key "K" already completed as pa:s; not dispatched again' } });
  expect(s.body.calls).toEqual(['dig:log_1']);
});

it('a step joining a key whose step fails gets that failure, not a duplicate; the key is then free to run again', async () => {
  const s = setup();
  const first = s.step('pa', { block: 'log_1', miss: true });
  const joined = s.step('pb', { block: 'log_1', miss: true });
  await s.clock.advance(30);
  const [a, b] = [(await first).steps[0]!, (await joined).steps[0]!];
  expect(a).toMatchObject({ status: 'failed', failure: { code: 'effects_unmet', reason: 'still there' } });
  expect(b).toMatchObject({ status: 'failed', ttfaMs: 30, failure: { code: 'effects_unmet', reason: 'still there' } });
  const retried = s.step('pc', { block: 'log_1' });
  await s.clock.advance(30);
  expect((await retried).steps[0]).toMatchObject({ status: 'succeeded' });
  expect(s.body.calls).toEqual(['move:0', 'dig:log_1']);
});
