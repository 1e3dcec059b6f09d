import { accepted, effectsUnmet, ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor } from '../src/index.js';
import { defineFake, fakeBody, registryWith } from './fake-body.js';

// A step interrupted by a preemption resumes as the same attempt: the resumed runner starts from the interrupted
// attempt's `pre` (no second observe), and acceptance measures the whole step from it. A runner that keeps a
// baseline from observe (as `gather` does) therefore stops at its count, not at what it had plus its count.
let baseline = 0;
let observes = 0;
const chop = defineFake({
  name: 'chop',
  version: '1.0.0',
  description: 'digs logs, one per 100 ms, until `count` more than observe saw',
  inputSchema: z.strictObject({ count: z.number().int().positive() }),
  observe: ({ body }) => {
    observes += 1;
    baseline = body.inventory.log ?? 0;
    return body.snapshot();
  },
  run: async (ctx, { count }) => {
    while ((ctx.body.inventory.log ?? 0) - baseline < count) {
      ctx.body.blocks.add('oak');
      ctx.body.dig('oak');
      await ctx.sleep(100);
      if (ctx.signal.aborted) return;
    }
  },
  acceptance: (pre, post, { count }) => ((post.inventory.log ?? 0) - (pre.inventory.log ?? 0) >= count ? accepted : effectsUnmet([`has_item:log:+${count}`])),
});
const shout = defineFake({ name: 'shout', version: '1.0.0', description: 'one chat line', inputSchema: z.strictObject({}), safetyLevel: 'safe', run: async (ctx) => void ctx.body.chat('!'), acceptance: () => accepted });

describe('resume after a preemption', () => {
  it('keeps the interrupted attempt\'s pre: a 3-log step interrupted after its first log ends with 3 logs, observed twice (pre, post)', async () => {
    const body = fakeBody();
    const clock = new ManualClock();
    const executor = createExecutor({ registry: registryWith(chop, shout), body, clock });
    const done = executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 'logs', type: 'chop', args: { count: 3 } }] });
    await clock.advance(50);
    expect(body.inventory.log).toBe(1);
    const fast = await Promise.all([executor.preempt([{ stepId: 'shout', type: 'shout' }], { reason: 'test' }), clock.flush()]);
    expect(fast[0].map((o) => o.status)).toEqual(['succeeded']);
    await clock.advance(1000);
    const outcome = await done;
    expect(outcome.steps[0]).toMatchObject({ stepId: 'logs', status: 'succeeded', attempts: 1 });
    expect(body.inventory.log).toBe(3);
    expect(observes).toBe(2);
  });
});
