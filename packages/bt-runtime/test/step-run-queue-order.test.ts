import { accepted, ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor } from '../src/index.js';
import { defineFake, fakeBody, registryWith } from './fake-body.js';

// Where a step that gave the body away queues to take it back, against other plans' steps already waiting: after a
// preemption, before every plain waiter; after a higher-priority step, ahead of the waiters of its own priority and
// behind the higher ones. Manual clock, fake body; the order is read from the executor's events.

/** `laps` moves, one every 100 ms; stops when aborted. */
const lap = defineFake({
  name: 'lap',
  version: '1.0.0',
  description: 'laps',
  inputSchema: z.strictObject({ laps: z.number().int().positive() }),
  run: async (ctx, { laps }) => {
    for (let i = 0; i < laps && !ctx.signal.aborted; i += 1) {
      ctx.body.move(1);
      await ctx.sleep(100);
    }
  },
  acceptance: () => accepted,
});
const beep = defineFake({ name: 'beep', version: '1.0.0', description: 'beeps', inputSchema: z.strictObject({}), safetyLevel: 'safe', run: async (ctx) => ctx.body.chat('beep'), acceptance: () => accepted });

function setup() {
  const clock = new ManualClock();
  const executor = createExecutor({ registry: registryWith(lap, beep), body: fakeBody(), clock, policy: { maxLocalRetries: 0 } });
  const order: string[] = [];
  executor.on('step.dispatched', (e) => void order.push(`${e.stepId}:dispatched`));
  executor.on('step.resumed', (e) => void order.push(`${e.stepId}:resumed`));
  executor.on('step.succeeded', (e) => void order.push(`${e.stepId}:succeeded`));
  const plan = (stepId: string, priority?: number) => executor.run({ planId: `plan-${stepId}`, intentId: 'i', steps: [{ stepId, type: 'lap', args: { laps: 3 }, ...(priority === undefined ? {} : { priority }) }] });
  return { clock, executor, order, plan };
}

describe('a step taking the body back', () => {
  it('after a preemption, before a plan of its own priority that was already waiting', async () => {
    const s = setup();
    const first = s.plan('A');
    await s.clock.advance(50);
    const second = s.plan('C');
    await s.clock.advance(10);
    await Promise.all([s.executor.preempt([{ stepId: 'P', type: 'beep', args: {} }], { reason: 'r' }), s.clock.flush()]);
    await s.clock.advance(2_000);
    await Promise.all([first, second]);
    expect(s.order).toEqual(['A:dispatched', 'P:dispatched', 'P:succeeded', 'A:resumed', 'A:dispatched', 'A:succeeded', 'C:dispatched', 'C:succeeded']);
  });

  it('after a preemption of several steps, only once the last of them ended', async () => {
    const s = setup();
    const first = s.plan('A');
    await s.clock.advance(50);
    const steps = ['P1', 'P2', 'P3'].map((stepId) => ({ stepId, type: 'beep', args: {} }));
    await Promise.all([s.executor.preempt(steps, { reason: 'r' }), s.clock.flush()]);
    await s.clock.advance(1_000);
    await first;
    expect(s.order).toEqual(['A:dispatched', 'P1:dispatched', 'P1:succeeded', 'P2:dispatched', 'P2:succeeded', 'P3:dispatched', 'P3:succeeded', 'A:resumed', 'A:dispatched', 'A:succeeded']);
  });

  it('after a higher-priority step, ahead of the waiters of its own priority and behind higher ones', async () => {
    const s = setup();
    const runs = [s.plan('A', 1)];
    await s.clock.advance(50);
    runs.push(s.plan('C', 1));
    runs.push(s.plan('D', 0));
    await s.clock.advance(10);
    runs.push(s.plan('B', 3));
    await s.clock.advance(10);
    runs.push(s.plan('E', 2));
    await s.clock.advance(5_000);
    await Promise.all(runs);
    const dispatches = s.order.filter((e) => e.endsWith(':dispatched') || e.endsWith(':resumed'));
    expect(dispatches).toEqual(['A:dispatched', 'B:dispatched', 'E:dispatched', 'A:resumed', 'A:dispatched', 'C:dispatched', 'D:dispatched']);
  });
});

describe('a queued step whose guard fails when its turn comes', () => {
  it('fails guard_failed without running (no kept pre: nothing to check acceptance against)', async () => {
    let runs = 0;
    const locked = defineFake({ name: 'locked', version: '1.0.0', description: 'never allowed', inputSchema: z.strictObject({}), guard: () => ({ ok: false, code: 'guard_failed', reason: 'locked' }), run: async () => void (runs += 1), acceptance: () => accepted });
    const clock = new ManualClock();
    const executor = createExecutor({ registry: registryWith(lap, locked), body: fakeBody(), clock, policy: { maxLocalRetries: 0 } });
    const first = executor.run({ planId: 'a', intentId: 'i', steps: [{ stepId: 'A', type: 'lap', args: { laps: 2 } }] });
    await clock.advance(10);
    const second = executor.run({ planId: 'b', intentId: 'i', steps: [{ stepId: 'L', type: 'locked', args: {} }] });
    await clock.advance(1_000);
    await first;
    expect((await second).steps[0]).toMatchObject({ status: 'failed', attempts: 0, failure: { code: 'guard_failed', reason: 'locked' } });
    expect(runs).toBe(0);
  });
});

