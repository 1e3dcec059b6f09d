import { accepted, ManualClock, type StepOutcome } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, type JournalStore } from '../src/index.js';
import { defineFake, digBlock, fakeBody, registryWith } from './fake-body.js';

// A shared journal (a fleet's) is asked to claim a key only when this process knows nothing of it and the step is a
// plan's: a key completed here is answered from memory, and a preemption's reflex steps are never the fleet's business.
// The store below is a small fleet store: it answers every claim "run it" and records what it was asked.

function fleetStore(asked: string[]): JournalStore {
  return {
    append: async () => undefined,
    readAll: () => ({ records: [], skipped: 0 }),
    claim: async (key, step) => void asked.push(`${key} (${step.verb})`),
  };
}

const crouch = defineFake({ name: 'crouch', version: '1.2.0', description: 'crouches once', inputSchema: z.strictObject({}), safetyLevel: 'safe', run: async (ctx) => ctx.body.move(0), acceptance: () => accepted });

describe('the keys an executor asks a shared journal to claim', () => {
  it('a key completed in this process is answered as a duplicate from memory, without a second claim or dispatch', async () => {
    const asked: string[] = [];
    const body = fakeBody();
    const executor = createExecutor({ registry: registryWith(digBlock), body, clock: new ManualClock(), journal: fleetStore(asked) });
    const dig = { stepId: 'chop', type: 'dig_block', args: { block: 'log_3' }, idempotencyKey: 'oak@12,64,-7' };
    const first = await executor.run({ planId: 'morning', intentId: 'wood', steps: [dig] });
    const again = await executor.run({ planId: 'noon', intentId: 'wood', steps: [{ ...dig, stepId: 'chop-again' }] });
    expect([first.status, again.status]).toEqual(['completed', 'completed']);
    expect(again.steps[0]).toMatchObject({ stepId: 'chop-again', status: 'succeeded', failure: { code: 'duplicate', reason: expect.stringContaining('already completed as morning:chop') } });
    expect(asked).toEqual(['oak@12,64,-7 (dig_block)']);
    expect(body.calls).toEqual(['dig:log_3']);
  });

  it('a preemption’s steps, keyed or not, are never claimed; the plan step it interrupts was', async () => {
    const asked: string[] = [];
    const clock = new ManualClock();
    const body = fakeBody();
    const executor = createExecutor({ registry: registryWith(digBlock, crouch), body, clock, journal: fleetStore(asked) });
    let preempted: Promise<StepOutcome[]> | undefined;
    executor.on('step.dispatched', (e) => {
      if (e.stepId === 'chop') preempted = executor.preempt([{ stepId: 'duck', type: 'crouch', args: {} }, { stepId: 'duck-keyed', type: 'crouch', args: {}, idempotencyKey: 'duck@arrow-3' }], { reason: 'arrow' });
    });
    const plan = executor.run({ planId: 'p', intentId: 'wood', steps: [{ stepId: 'chop', type: 'dig_block', args: { block: 'log_1' } }] });
    await clock.advance(100);
    expect((await preempted!).map((o) => `${o.stepId}:${o.status}`)).toEqual(['duck:succeeded', 'duck-keyed:succeeded']);
    expect((await plan).status).toBe('completed');
    expect(asked).toEqual(['p:chop (dig_block)']);
  });
});
