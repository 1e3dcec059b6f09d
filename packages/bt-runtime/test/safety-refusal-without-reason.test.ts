import { ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { createExecutor } from '../src/index.js';
import { fakeBody, registryWith, walker } from './fake-body.js';

// An intent a safety layer refused without saying why (`reason` is optional): the refusal says so and stops there — no
// dangling colon, no filler. Manual clock, fake body.

describe('an intent refused by safety with no reason given', () => {
  it('fails the plan with guard_failed naming the intent only, and nothing runs', async () => {
    const body = fakeBody();
    const executor = createExecutor({ registry: registryWith(walker), body, clock: new ManualClock() });
    const outcome = await executor.run(
      { planId: 'night-walk', intentId: 'wander#2', steps: [{ stepId: 'w', type: 'walker' }] },
      { intent: { id: 'wander#2', source: 'user', goal: 'walk at night', urgency: 0.1, safety: { allowed: false } } },
    );
    expect(outcome).toMatchObject({ status: 'failed', steps: [], failure: { code: 'guard_failed', reason: 'intent wander#2 refused by safety' } });
    expect(body.calls).toEqual([]);
  });
});
