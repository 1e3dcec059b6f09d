import { ManualClock, MAX_TIMER_MS } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { createExecutor } from '../src/index.js';
import { digBlock, fakeBody, registryWith } from './fake-body.js';

function setup() {
  const body = fakeBody();
  const executor = createExecutor({ registry: registryWith(digBlock), body, clock: new ManualClock() });
  return { body, executor };
}

const dig = { stepId: 's1', type: 'dig_block', args: { block: 'log_1' } };
const intent = (extra: object = {}) => ({ id: 'i1', source: 'user' as const, goal: 'wood', urgency: 0.5, ...extra });

describe('plan admission (what run() refuses before any step)', () => {
  it('names the ids of a malformed plan, read from the input, and explains it as a malformed plan', async () => {
    const { executor, body } = setup();
    const outcome = await executor.run({ planId: 'p-bad', intentId: 'i-bad', steps: [{ stepId: 's1' }] });
    expect(outcome).toMatchObject({ planId: 'p-bad', intentId: 'i-bad', status: 'failed', steps: [], failure: { code: 'invalid_args' } });
    expect(outcome.failure?.reason).toMatch(/^malformed plan:\n/);
    expect(outcome.failure?.issues?.length).toBeGreaterThan(0);
    expect(body.calls).toEqual([]);
  });

  it('reads an id that is missing, empty, not a string or unreadable as `invalid`, and cuts a long one at 256 characters', async () => {
    const { executor } = setup();
    const hostile = Object.defineProperty({ intentId: '' }, 'planId', { get: () => { throw new Error('no'); } });
    expect(await executor.run(hostile)).toMatchObject({ planId: 'invalid', intentId: 'invalid' });
    expect(await executor.run({ planId: 42, steps: [] })).toMatchObject({ planId: 'invalid', intentId: 'invalid' });
    expect(await executor.run('not a plan')).toMatchObject({ planId: 'invalid', intentId: 'invalid' });
    const long = await executor.run({ planId: 'p'.repeat(300), intentId: 'i'.repeat(10) });
    expect(long).toMatchObject({ planId: 'p'.repeat(256), intentId: 'i'.repeat(10) });
  });

  it('refuses every plan once the executor is closed, without reading the plan', async () => {
    const { executor, body } = setup();
    await executor.close();
    const outcome = await executor.run({ planId: 'p1', intentId: 'i1', steps: [dig] });
    expect(outcome).toMatchObject({ planId: 'p1', intentId: 'i1', status: 'aborted', failure: { code: 'aborted', reason: 'the executor was closed' } });
    const malformed = await executor.run({ planId: 'p2', steps: 'not steps' });
    expect(malformed.failure).toMatchObject({ code: 'aborted', reason: 'the executor was closed' });
    expect(body.calls).toEqual([]);
  });

  it('refuses a malformed intent as a malformed intent', async () => {
    const { executor, body } = setup();
    const outcome = await executor.run({ planId: 'p1', intentId: 'i1', steps: [dig] }, { intent: intent({ urgency: 'high' }) as never });
    expect(outcome).toMatchObject({ planId: 'p1', intentId: 'i1', failure: { code: 'invalid_args' } });
    expect(outcome.failure?.reason).toMatch(/^malformed intent:\n/);
    expect(body.calls).toEqual([]);
  });

  it('refuses an intent the plan does not serve, naming both, with the plan\'s own ids on the outcome', async () => {
    const { executor } = setup();
    const outcome = await executor.run({ planId: 'p1', intentId: 'i1', steps: [dig] }, { intent: intent({ id: 'i2' }) });
    expect(outcome).toMatchObject({ planId: 'p1', intentId: 'i1', failure: { code: 'invalid_args', reason: 'plan p1 serves intent "i1", not "i2"' } });
  });

  it('refuses a time budget no timer can hold, and runs one of exactly MAX_TIMER_MS', async () => {
    const { executor, body } = setup();
    const tooLong = await executor.run({ planId: 'p1', intentId: 'i1', steps: [dig] }, { intent: intent({ timeBudgetMs: MAX_TIMER_MS + 1 }) });
    expect(tooLong).toMatchObject({ status: 'failed', failure: { code: 'invalid_args', reason: `intent.timeBudgetMs must be <= ${MAX_TIMER_MS} ms` } });
    expect(body.calls).toEqual([]);
    const longest = await executor.run({ planId: 'p2', intentId: 'i1', steps: [dig] }, { intent: intent({ timeBudgetMs: MAX_TIMER_MS }) });
    expect(longest.status).toBe('completed');
    expect(body.calls).toEqual(['dig:log_1']);
  });
});
