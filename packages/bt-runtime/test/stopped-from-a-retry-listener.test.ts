import { accepted, ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor } from '../src/index.js';
import { defineFake, fakeBody, registryWith } from './fake-body.js';

// A `step.retry` listener (a dashboard's kill switch, an operator's cancel) that closes the executor or cancels the plan
// as the retry is announced: the step's backoff never starts — the step ends at once, without the clock moving, and
// the retry is never dispatched.

/** Always slips: a retryable failure after one move. */
const slip = defineFake({
  name: 'slip',
  version: '1.0.0',
  description: 'loses its footing',
  inputSchema: z.strictObject({}),
  run: async (ctx) => {
    ctx.body.move(1);
    return { ok: false as const, code: 'stuck' as const, reason: 'lost footing' };
  },
  acceptance: () => accepted,
});

function setup() {
  const clock = new ManualClock();
  const body = fakeBody();
  const executor = createExecutor({ registry: registryWith(slip), body, clock, policy: { maxLocalRetries: 2, backoff: { initialMs: 5_000, maxMs: 5_000 } } });
  return { clock, body, executor };
}

describe('a retry announced to a listener that stops everything', () => {
  it('by closing the executor ends the step aborted at once; its backoff never starts', async () => {
    const s = setup();
    s.executor.on('step.retry', () => void s.executor.close());
    let settled = false;
    const plan = s.executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 'up', type: 'slip', args: {} }] }).finally(() => (settled = true));
    await s.clock.flush();
    expect(settled).toBe(true);
    const outcome = await plan;
    expect(outcome.steps.map((st) => [st.status, st.failure?.code, st.attempts])).toEqual([['failed', 'aborted', 1]]);
    expect(s.body.calls).toEqual(['move:1']);
  });

  it('by cancelling the plan ends the step aborted at once; its backoff never starts', async () => {
    const s = setup();
    const cancel = new AbortController();
    s.executor.on('step.retry', (e) => (e.attempt === 2 ? cancel.abort(new Error('operator said stop')) : undefined));
    let settled = false;
    const plan = s.executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 'up', type: 'slip', args: {} }] }, { signal: cancel.signal }).finally(() => (settled = true));
    await s.clock.flush();
    expect(settled).toBe(true);
    const outcome = await plan;
    expect([outcome.status, outcome.steps[0]?.failure?.code, outcome.steps[0]?.attempts]).toEqual(['aborted', 'aborted', 1]);
    expect(s.body.calls).toEqual(['move:1']);
    expect(s.executor.state()).toMatchObject({ status: 'idle', waiting: 0 });
  });
});
