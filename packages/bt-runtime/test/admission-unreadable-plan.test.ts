import { ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { createExecutor } from '../src/index.js';
import { digBlock, fakeBody, registryWith } from './fake-body.js';

// A plan or intent that throws while it is read is refused with a reason that says what went wrong, not an empty one:
// the caller (an LLM's tool call, a proxy over a remote object) has to see why nothing ran.

describe('a plan that cannot be read', () => {
  it('is refused invalid_args with what threw, whether the plan, a step or the intent threw', async () => {
    const body = fakeBody();
    const executor = createExecutor({ registry: registryWith(digBlock), body, clock: new ManualClock() });
    const keysRefused = new Proxy({ planId: 'p', intentId: 'i', steps: [] }, { ownKeys: () => { throw new RangeError('ownKeys trapped'); } });
    const stepTrap = { planId: 'p', intentId: 'i', steps: [new Proxy({ stepId: 's' }, { get: () => { throw new Error('step went away'); } })] };
    const reasons = [];
    for (const input of [keysRefused, stepTrap]) reasons.push((await executor.run(input)).failure);
    const intent = new Proxy({ id: 'i' }, { get: (_target, key) => { throw new Error(`intent.${String(key)} unreadable`); } });
    reasons.push((await executor.run({ planId: 'p', intentId: 'i', steps: [] }, { intent: intent as never })).failure);
    expect(reasons).toEqual([
      { code: 'invalid_args', reason: 'the plan cannot be read: ownKeys trapped', retryable: false },
      { code: 'invalid_args', reason: 'the plan cannot be read: step went away', retryable: false },
      { code: 'invalid_args', reason: expect.stringMatching(/^the plan cannot be read: intent\.\S+ unreadable$/), retryable: false },
    ]);
    expect(body.calls).toEqual([]);
  });
});
