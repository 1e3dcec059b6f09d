import { accepted, ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createMemoryJournal } from '../src/index.js';
import { defineFake, fakeBody, registryWith } from './fake-body.js';

// The plan journal records the steps of plans, which a restarted process resumes; a preemption's fast-path steps are
// reflexes of the moment (a flee from that creeper), never replayed, so their outcomes are not journaled — even one
// given an idempotency key of its own. Manual clock, fake body, in-memory journal.

const trudge = defineFake({
  name: 'trudge',
  version: '1.0.0',
  description: 'walks n moves, one every 100 ms',
  inputSchema: z.strictObject({ moves: z.number().int().positive() }),
  run: async (ctx, { moves }) => {
    for (let moved = 0; moved < moves && !ctx.signal.aborted; moved += 1) {
      ctx.body.move(1);
      await ctx.sleep(100);
    }
  },
  acceptance: () => accepted,
});
const duck = defineFake({ name: 'duck', version: '1.0.0', description: 'ducks', inputSchema: z.strictObject({}), safetyLevel: 'safe', run: async (ctx) => ctx.body.move(-1), acceptance: () => accepted });

describe('a journaled executor preempted mid-plan', () => {
  it('journals the plan’s steps but not the preemption’s, keyed or not', async () => {
    const clock = new ManualClock();
    const journal = createMemoryJournal();
    const executor = createExecutor({ registry: registryWith(trudge, duck), body: fakeBody(), clock, journal });
    const plan = executor.run({ planId: 'errand', intentId: 'i', steps: [{ stepId: 'go', type: 'trudge', args: { moves: 3 } }, { stepId: 'back', type: 'trudge', args: { moves: 1 }, idempotencyKey: 'back#1' }] });
    await clock.advance(150);
    const preempted = executor.preempt(
      [
        { stepId: 'duck-1', type: 'duck', args: {} },
        { stepId: 'duck-2', type: 'duck', args: {}, idempotencyKey: 'duck@creeper-7' },
      ],
      { reason: 'creeper' },
    );
    await clock.advance(1_000);
    expect((await preempted).map((o) => o.status)).toEqual(['succeeded', 'succeeded']);
    expect((await plan).status).toBe('completed');
    const stepKeys = journal.records.flatMap((record) => (record.kind === 'step' ? [record.key] : []));
    expect(stepKeys).toEqual(['errand:go', 'back#1']);
  });
});
