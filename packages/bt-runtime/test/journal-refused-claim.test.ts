import { ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { createExecutor, type JournalStore } from '../src/index.js';
import { craftItem, digBlock, fakeBody, registryWith } from './fake-body.js';

// A shared journal that refuses to let this process claim a step's key: the step is a failed step like any other
// (its outcome, its event), not a step with no status. The store answers the first claim and refuses the second with a
// rejection that is not an Error, as a fencing store over a wire might.

describe('a step whose key the shared journal refuses to claim', () => {
  it('ends failed with journal_unavailable, announced as step.failed, and nothing is dispatched for it', async () => {
    const claims: string[] = [];
    const shared: JournalStore = {
      append: async () => undefined,
      readAll: () => ({ records: [], skipped: 0 }),
      claim: (key) => {
        claims.push(key);
        return claims.length === 1 ? Promise.resolve(undefined) : Promise.reject({ status: 409, detail: 'lease held by node-b' });
      },
    };
    const body = fakeBody();
    const executor = createExecutor({ registry: registryWith(digBlock, craftItem), body, clock: new ManualClock(), journal: shared, policy: { maxLocalRetries: 0 } });
    const failed: string[] = [];
    executor.on('step.failed', (e) => void failed.push(`${e.stepId}:${e.status}:${e.failure?.code}`));
    const outcome = await executor.run({
      planId: 'fenced',
      intentId: 'i',
      steps: [
        { stepId: 'dig', type: 'dig_block', args: { block: 'log_2' } },
        { stepId: 'craft', type: 'craft_item', args: { item: 'planks' }, idempotencyKey: 'planks#1' },
      ],
    });
    expect(claims).toEqual(['fenced:dig', 'planks#1']);
    expect(outcome.steps.map((s) => [s.stepId, s.status, s.failure?.code, s.attempts])).toEqual([
      ['dig', 'succeeded', undefined, 1],
      ['craft', 'failed', 'journal_unavailable', 0],
    ]);
    expect(failed).toEqual(['craft:failed:journal_unavailable']);
    expect(body.calls).toEqual(['dig:log_2']);
  });
});
