import { accepted, ManualClock, systemClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createMemoryJournal, createMemoryProvenance } from '../src/index.js';
import { defineFake, fakeBody, registryWith } from './fake-body.js';

// What `resume()` hands the plan it finds unfinished in the journal: the caller's options (a cancelled signal stops
// it before anything moves) and the journaled intent (its time budget holds again). And a plan without a time budget
// gets no deadline at all, on the real clock too. Fake body; the manual clock except where the real one is the point.

const stroll = defineFake({
  name: 'stroll',
  version: '3.0.1',
  description: 'a step, a wait, and another step unless aborted',
  inputSchema: z.strictObject({ waitMs: z.number().int().nonnegative() }),
  run: async (ctx, { waitMs }) => {
    ctx.body.move(1);
    await ctx.sleep(waitMs);
    if (!ctx.signal.aborted) ctx.body.move(1);
  },
  acceptance: () => accepted,
});

const intent = { id: 'walk.intent', source: 'planner' as const, goal: 'walk a little', urgency: 0.3, timeBudgetMs: 400 };

/** A journal a crashed process left behind: the plan started (with its intent), nothing of it ended. */
function leftBehind(withIntent: boolean) {
  const store = createMemoryJournal();
  const plan = { planId: 'walk-7', intentId: 'walk.intent', steps: [{ stepId: 'w1', type: 'stroll', args: { waitMs: 1_000 } }] };
  store.append({ kind: 'plan_start', at: 12, plan, ...(withIntent ? { intent } : {}) });
  return store;
}

function restarted(withIntent: boolean) {
  const clock = new ManualClock();
  const body = fakeBody();
  const provenance = createMemoryProvenance();
  const executor = createExecutor({ registry: registryWith(stroll), body, clock, journal: leftBehind(withIntent), provenance, policy: { stuckMs: 5_000, defaultTimeoutMs: 60_000 } });
  return { clock, body, executor };
}

describe('resume()', () => {
  it('passes the caller’s options: a cancelled signal ends the unfinished plan aborted, the body untouched', async () => {
    const s = restarted(false);
    const outcome = await s.executor.resume({ signal: AbortSignal.abort('shutting down') });
    expect(outcome).toMatchObject({ planId: 'walk-7', status: 'aborted' });
    expect(s.body.calls).toEqual([]);
  });

  it('a signal cancelled while the resumed plan runs stops its step', async () => {
    const s = restarted(false);
    const controller = new AbortController();
    const done = s.executor.resume({ signal: controller.signal });
    await s.clock.advance(100);
    controller.abort();
    await s.clock.flush();
    const outcome = await done;
    expect(outcome?.steps[0]).toMatchObject({ stepId: 'w1', status: 'failed', failure: { code: 'aborted' } });
    expect(s.body.calls).toEqual(['move:1']);
  });

  it('runs the plan under its journaled intent: the time budget ends it again', async () => {
    const s = restarted(true);
    const done = s.executor.resume();
    await s.clock.advance(1_500);
    const outcome = await done;
    expect(outcome?.steps[0]).toMatchObject({ status: 'failed', failure: { code: 'timeout', reason: 'the plan ran past its time budget of 400 ms' } });
    expect(s.body.calls).toEqual(['move:1']);
  });

  it('without a journaled intent there is no budget: the same plan completes', async () => {
    const s = restarted(false);
    const done = s.executor.resume();
    await s.clock.advance(1_500);
    expect((await done)?.status).toBe('completed');
    expect(s.body.calls).toEqual(['move:1', 'move:1']);
  });
});

describe('a plan without a time budget on the real clock', () => {
  it('is not cut short: a step that waits a real timer completes', async () => {
    const executor = createExecutor({ registry: registryWith(stroll), body: fakeBody(), clock: systemClock, policy: { ttfaMs: 60_000, stuckMs: 60_000, defaultTimeoutMs: 60_000 } });
    const outcome = await executor.run({ planId: 'real', intentId: 'real.intent', steps: [{ stepId: 'r1', type: 'stroll', args: { waitMs: 25 } }] });
    expect(outcome.status).toBe('completed');
    await executor.close();
  });
});
