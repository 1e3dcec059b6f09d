import { accepted, ManualClock, type StepOutcome } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor } from '../src/index.js';
import { defineFake, fakeBody, registryWith } from './fake-body.js';

// A running preemption is outranked once: the first higher tier to arrive is the one its steps name, even when a still
// higher one queues right behind it before the running step reaches its safe point; and it can be outranked while none
// of its steps is active (between two of them). Manual clock, fake body.

/** Parries until told to stop, one parry every 40 ms; a `riposte` is one parry that cannot be cut short. */
const parry = defineFake({
  name: 'parry',
  version: '0.3.1',
  description: 'parries until aborted',
  inputSchema: z.strictObject({ side: z.enum(['left', 'right']).optional() }),
  run: async (ctx, { side }) => {
    while (!ctx.signal.aborted) {
      ctx.body.chat(`parry ${side ?? 'high'}`);
      await ctx.sleep(40);
    }
  },
  acceptance: () => accepted,
});
const dash = defineFake({ name: 'dash', version: '2.0.0', description: 'one dash', inputSchema: z.strictObject({}), run: async (ctx) => ctx.body.move(3), acceptance: () => accepted });

describe('a running preemption outranked twice before its step stops', () => {
  it('names the first higher tier that took the body, not the later one', async () => {
    const clock = new ManualClock();
    const body = fakeBody();
    const executor = createExecutor({ registry: registryWith(parry, dash), body, clock, policy: { maxLocalRetries: 0 } });
    const guard: Promise<StepOutcome[]> = executor.preempt([{ stepId: 'hold-the-line', type: 'parry', args: { side: 'left' } }], { reason: 'zombie@3m', tier: 1 });
    await clock.advance(100);
    // both arrive in one job: the step ends at its safe point only after the second one queued
    const flee = executor.preempt([{ stepId: 'away', type: 'dash', args: {} }], { reason: 'hp<6', tier: 4 });
    const panic = executor.preempt([{ stepId: 'further', type: 'dash', args: {} }], { reason: 'lava', tier: 9 });
    await clock.advance(100);
    const [held] = await guard;
    expect(held).toMatchObject({ stepId: 'hold-the-line', status: 'failed', failure: { code: 'preempted', reason: expect.stringContaining('(hp<6)') } });
    expect(held?.failure?.reason).not.toContain('lava');
    expect([...(await panic), ...(await flee)].map((o) => `${o.stepId}:${o.status}`)).toEqual(['further:succeeded', 'away:succeeded']);
  });

  it('outranked between two of its steps (the first refused before it began): the rest end preempted, the higher tier runs', async () => {
    const clock = new ManualClock();
    const body = fakeBody();
    const executor = createExecutor({ registry: registryWith(parry, dash), body, clock });
    let flee: Promise<StepOutcome[]> | undefined;
    executor.on('step.failed', (e) => {
      if (e.stepId === 'typo') flee = executor.preempt([{ stepId: 'away', type: 'dash', args: {} }], { reason: 'creeper hiss', tier: 2 });
    });
    const guard = executor.preempt(
      [
        { stepId: 'typo', type: 'parry', args: { side: 'up' } },
        { stepId: 'hold', type: 'parry', args: {} },
      ],
      { reason: 'skeleton', tier: 1 },
    );
    await clock.advance(50);
    const [typo, hold] = await guard;
    expect(typo?.failure?.code).toBe('invalid_args');
    expect(hold).toMatchObject({ stepId: 'hold', status: 'failed', attempts: 0, failure: { code: 'preempted', reason: expect.stringContaining('(creeper hiss)') } });
    expect((await flee!).map((o) => `${o.stepId}:${o.status}`)).toEqual(['away:succeeded']);
    expect(body.calls).toEqual(['move:3']);
  });
});
