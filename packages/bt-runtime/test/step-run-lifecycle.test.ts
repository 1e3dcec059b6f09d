import { accepted, effectsUnmet, ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createExecutorMetrics, createMemoryProvenance } from '../src/index.js';
import { defineFake, digBlock, fakeBody, registryWith } from './fake-body.js';
import { metric } from './metric.js';

// A step's life between its attempts, through the public executor on the manual clock: a caution hold, a queued
// step whose plan is cancelled, retries (what they count, what they keep, what they observe afresh) and a step
// interrupted more often than maxResumes allows.

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

const flee = defineFake({ name: 'flee', version: '1.0.0', description: 'steps back', inputSchema: z.object({}), run: async (ctx) => ctx.body.move(-1), acceptance: () => accepted });

/** Moves one block per attempt; its first attempt then reports itself `firstCode` (a retryable failure). Accepts exactly one block of progress. */
const stumbler = (firstCode: 'stuck' | 'runner_error') => {
  let attempts = 0;
  return defineFake({
    name: 'stumble',
    version: '1.0.0',
    description: 'moves, sometimes trips',
    inputSchema: z.object({}),
    observe: ({ body }) => body.snapshot(),
    run: async (ctx) => {
      ctx.body.move(1);
      attempts += 1;
      return attempts === 1 ? { ok: false as const, code: firstCode, reason: 'tripped' } : undefined;
    },
    acceptance: (pre, post) => (post.x - pre.x === 1 ? accepted : effectsUnmet(['x:+1'], `moved ${post.x - pre.x}`)),
  });
};

/** Never moves enough on its first attempt (acceptance fails), throws on the next. */
const sloppy = () => {
  let attempts = 0;
  return defineFake({
    name: 'sloppy',
    version: '1.0.0',
    description: 'misses, then breaks',
    inputSchema: z.object({}),
    observe: ({ body }) => body.snapshot(),
    run: async (ctx) => {
      ctx.body.move(0);
      attempts += 1;
      if (attempts > 1) throw new Error('broke on the retry');
    },
    acceptance: (pre, post) => (post.x > pre.x ? accepted : effectsUnmet(['x:+1'], 'stood still')),
  });
};

function setup(extra: Parameters<typeof registryWith>[0][] = [], policy: Parameters<typeof createExecutor>[0]['policy'] = {}) {
  const clock = new ManualClock();
  const body = fakeBody();
  const metrics = createExecutorMetrics();
  const memory = createMemoryProvenance();
  const executor = createExecutor({ registry: registryWith(walk, flee, digBlock, ...extra), body, clock, metrics, provenance: [memory], policy: { maxLocalRetries: 0, ...policy } });
  const events: string[] = [];
  const record = (name: 'step.retry' | 'step.preempted' | 'step.failed') => executor.on(name, (e) => void events.push(`${name} ${JSON.stringify(e)}`));
  return { clock, body, metrics, memory, executor, events, record };
}

describe('a caution step after a self-preservation preemption', () => {
  it('waits out the hold before it is dispatched; a safe step does not', async () => {
    const s = setup();
    await s.executor.preempt([{ stepId: 'flee', type: 'flee', args: {} }], { reason: 'lava', holdMs: 500 });
    const safe = await s.executor.run({ planId: 'safe', intentId: 'i', steps: [{ stepId: 'd', type: 'dig_block', args: { block: 'log_1' } }] });
    expect(safe.status).toBe('completed');
    const careful = s.executor.run({ planId: 'careful', intentId: 'i', steps: [{ stepId: 'd', type: 'dig_block', args: { block: 'log_2' }, safetyLevel: 'caution' }] });
    await s.clock.advance(499);
    expect(s.body.calls).toEqual(['move:-1', 'dig:log_1']);
    await s.clock.advance(1);
    expect((await careful).status).toBe('completed');
    expect(s.body.calls).toEqual(['move:-1', 'dig:log_1', 'dig:log_2']);
  });
});

describe('a step queued behind another plan’s step', () => {
  it('whose plan is cancelled ends aborted without ever holding the body, and the body stays with the running step', async () => {
    const s = setup();
    const walking = s.executor.run({ planId: 'walking', intentId: 'i', steps: [{ stepId: 'w', type: 'walk', args: { steps: 3 } }] });
    const cancel = new AbortController();
    const waiting = s.executor.run({ planId: 'waiting', intentId: 'i', steps: [{ stepId: 'd', type: 'dig_block', args: { block: 'log_1' } }] }, { signal: cancel.signal });
    await s.clock.advance(50);
    cancel.abort();
    const cancelled = await waiting;
    expect(cancelled.status).toBe('aborted');
    expect(cancelled.steps[0]).toMatchObject({ status: 'failed', attempts: 0, failure: { code: 'aborted' } });
    // The walk still holds the body, as state() and the active-steps gauge show.
    expect(s.executor.state()).toMatchObject({ activeStep: { stepId: 'w' }, waiting: 0 });
    expect(await metric(s.metrics.registry, 'sinew_active_steps')).toBe(1);
    // A third plan still waits for the walk: the cancelled step gave back no slot it never held.
    const third = s.executor.run({ planId: 'third', intentId: 'i', steps: [{ stepId: 'd', type: 'dig_block', args: { block: 'log_3' } }] });
    await s.clock.advance(100);
    expect(s.body.calls).toEqual(['move:1', 'move:1']);
    await s.clock.advance(500);
    expect((await walking).status).toBe('completed');
    expect((await third).status).toBe('completed');
    expect(s.body.calls).toEqual(['move:1', 'move:1', 'move:1', 'dig:log_3']);
  });
});

describe('a retried step', () => {
  it('observes afresh for its retry, announces the next attempt, and is no preemption', async () => {
    const s = setup([stumbler('stuck')], { maxLocalRetries: 1, backoff: { initialMs: 40, maxMs: 40 } });
    s.record('step.retry');
    s.record('step.preempted');
    const done = s.executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 'st', type: 'stumble', args: {} }] });
    await s.clock.advance(40);
    const outcome = await done;
    expect(outcome.steps[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(s.events).toEqual([`step.retry ${JSON.stringify({ planId: 'p', stepId: 'st', verb: 'stumble', attempt: 2, failure: { code: 'stuck', reason: 'tripped', retryable: true }, backoffMs: 40 })}`]);
    expect(s.memory.records()[0]).toMatchObject({ preemptions: 0, attempts: 2 });
    expect(await metric(s.metrics.registry, 'sinew_step_stuck_total', { capability: 'stumble' })).toBe(1);
  });

  it('counts as stuck only a stuck failure', async () => {
    const s = setup([stumbler('runner_error')], { maxLocalRetries: 1, backoff: { initialMs: 40, maxMs: 40 } });
    const done = s.executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 'st', type: 'stumble', args: {} }] });
    await s.clock.advance(40);
    expect((await done).steps[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(await metric(s.metrics.registry, 'sinew_step_stuck_total', { capability: 'stumble' })).toBe(0);
  });

  it('keeps the last acceptance verdict in its record when a later attempt ends before acceptance', async () => {
    const s = setup([sloppy()], { maxLocalRetries: 1, backoff: { initialMs: 10, maxMs: 10 } });
    const done = s.executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 'sl', type: 'sloppy', args: {} }] });
    await s.clock.advance(10);
    expect((await done).steps[0]).toMatchObject({ status: 'failed', attempts: 2, failure: { code: 'runner_error' } });
    const record = s.memory.records()[0]!;
    expect(record.acceptance).toMatchObject({ ok: false });
    expect(record.failures.map((f) => f.code)).toEqual(['effects_unmet', 'runner_error']);
  });
});

describe('a step interrupted more often than maxResumes', () => {
  it('ends preempted, saying how often, in its step.preempted event too', async () => {
    const s = setup([], { maxResumes: 0 });
    s.record('step.preempted');
    s.record('step.failed');
    const done = s.executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 'w', type: 'walk', args: { steps: 5 } }] });
    await s.clock.advance(150);
    const fast = s.executor.preempt([{ stepId: 'flee', type: 'flee', args: {} }], { reason: 'arrow' });
    await s.clock.flush();
    await fast;
    const outcome = await done;
    expect(outcome.steps[0]).toMatchObject({ status: 'preempted', failure: { code: 'preempted', reason: 'interrupted 1 times (maxResumes 0)' } });
    // Preempted is not failed: no step.failed for it.
    expect(s.events).toHaveLength(1);
    expect(JSON.parse(s.events[0]!.slice('step.preempted '.length))).toMatchObject({ planId: 'p', stepId: 'w', verb: 'walk', reason: 'arrow', resumes: 1, outcome: { stepId: 'w', status: 'preempted' } });
  });
});

describe('a preemption’s step with the interrupted step’s idempotency key', () => {
  // Joining the key would wait on a step that waits for the preemption: it is refused at once.
  it('a preemption step holding the interrupted step’s key is refused as a duplicate, not joined; a completed key is answered', async () => {
    const { clock, metrics, executor } = setup();
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
});
