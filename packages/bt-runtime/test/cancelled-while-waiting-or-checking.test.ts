import { accepted, effectsUnmet, guardOk, ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor } from '../src/index.js';
import { defineFake, fakeBody, registryWith, type World } from './fake-body.js';

// A plan cancelled at two quiet moments of a step: while the step waits in the queue behind another plan's step, and
// while a resumed step (its guard no longer holds) only checks whether its effect is already in place. Either way the
// step ends `aborted` with the cancellation's own reason — not a fallback text, not the guard's failure.

/** Breaks `target` at once, then lingers 1 s for the drop (a progress note every 100 ms); its looks after the first wait for the test when told to. */
function pryFixture() {
  const pending: ((world: World) => void)[] = [];
  let holdLooks = false;
  const pry = defineFake({
    name: 'pry',
    version: '0.3.0',
    description: 'pries a block loose',
    inputSchema: z.strictObject({ target: z.string() }),
    guard: ({ body }, { target }) => (body.blocks.has(target) ? guardOk : { ok: false, code: 'guard_failed', reason: `${target} is gone` }),
    observe: ({ body }) => (holdLooks ? new Promise<World>((answer) => pending.push(answer)) : Promise.resolve(body.snapshot())),
    run: async (ctx, { target }) => {
      ctx.body.dig(target);
      for (let waited = 0; waited < 1000 && !ctx.signal.aborted; waited += 100) {
        await ctx.sleep(100);
        ctx.progress('waiting for the drop');
      }
    },
    acceptance: (pre, post, { target }) => (pre.blocks.includes(target) && !post.blocks.includes(target) ? accepted : effectsUnmet([`broken:${target}`])),
  });
  return { pry, pending, holdLooks: () => void (holdLooks = true) };
}

const shout = defineFake({ name: 'shout', version: '1.0.0', description: 'shouts', inputSchema: z.strictObject({}), safetyLevel: 'safe', run: async (ctx) => ctx.body.chat('!'), acceptance: () => accepted });

describe('a plan cancelled while its step', () => {
  it('waits in the queue behind another plan ends aborted with the cancellation as its reason', async () => {
    const clock = new ManualClock();
    const { pry } = pryFixture();
    const executor = createExecutor({ registry: registryWith(pry, shout), body: fakeBody(), clock, policy: { maxLocalRetries: 0 } });
    const first = executor.run({ planId: 'first', intentId: 'i', steps: [{ stepId: 'pry-1', type: 'pry', args: { target: 'log_1' } }] });
    const cancel = new AbortController();
    const second = executor.run({ planId: 'second', intentId: 'i', steps: [{ stepId: 'shout', type: 'shout', args: {} }] }, { signal: cancel.signal });
    await clock.advance(120);
    expect(executor.state().waiting).toBe(1);
    cancel.abort();
    await clock.flush();
    expect(executor.state().waiting).toBe(0);
    const cancelled = await second;
    expect(cancelled.steps.map((s) => [s.stepId, s.status, s.failure?.code, s.failure?.reason, s.attempts])).toEqual([['shout', 'failed', 'aborted', 'the plan was cancelled', 0]]);
    await clock.advance(2_000);
    expect((await first).status).toBe('completed');
  });

  it('is resumed and only checks its kept effect ends aborted, not on the guard it no longer passes', async () => {
    const clock = new ManualClock();
    const body = fakeBody();
    const fixture = pryFixture();
    const executor = createExecutor({ registry: registryWith(fixture.pry, shout), body, clock, policy: { maxLocalRetries: 0 } });
    const cancel = new AbortController();
    const plan = executor.run({ planId: 'quarry', intentId: 'i', steps: [{ stepId: 'pry-2', type: 'pry', args: { target: 'log_2' } }] }, { signal: cancel.signal });
    await clock.advance(250); // log_2 is broken at once; the runner lingers
    fixture.holdLooks();
    await Promise.all([executor.preempt([{ stepId: 'warn', type: 'shout', args: {} }], { reason: 'skeleton' }), clock.flush()]);
    await clock.advance(10);
    expect(fixture.pending).toHaveLength(1); // the resume's look, against the kept pre: its guard failed (log_2 is gone)
    let settled = false;
    void plan.finally(() => (settled = true));
    cancel.abort();
    await clock.flush();
    expect(settled).toBe(true);
    const ended = await plan;
    expect(ended.steps.map((s) => [s.status, s.failure?.code, s.failure?.reason])).toEqual([['failed', 'aborted', 'the plan was cancelled']]);
    expect(body.calls).toEqual(['dig:log_2', 'chat:!']);
  });
});
