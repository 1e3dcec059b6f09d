import { accepted, guardOk, ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor } from '../src/index.js';
import { defineFake, fakeBody, registryWith, type World } from './fake-body.js';

// The executor's own code failing mid-step — here the injected clock, user code like any other, throwing on one read —
// still ends the step with a code and frees the body for the next plan (A2: never silent, never a rejection of run()).
// Which read fails is chosen by user code that runs just before it: the guard (the runner's start), an asynchronous
// observe (the runner's start, one job later), an acceptance (the step's outcome, first attempt or a retry).

/** A manual clock whose next `now()` reads throw, when armed. */
class FailingClock extends ManualClock {
  #failReads = 0;
  failNextRead(): void {
    this.#failReads = 1;
  }
  override now(): number {
    if (this.#failReads > 0) {
      this.#failReads -= 1;
      throw new Error('clock read failed: RTC unavailable');
    }
    return super.now();
  }
}

type Arm = 'guard' | 'observe' | 'acceptance' | 'second acceptance';

/** Moves once per attempt; arms the clock from `arm`, once, and fails its first attempt retryably when a retry is wanted. */
function setup(arm: Arm) {
  const clock = new FailingClock();
  let armed = false;
  let attempts = 0;
  let observed = 0;
  const once = (when: boolean) => {
    if (when && !armed) (armed = true), clock.failNextRead();
  };
  const hop = defineFake({
    name: 'hop',
    version: '1.0.0',
    description: 'hops one block',
    inputSchema: z.object({ to: z.number() }),
    guard: () => (once(arm === 'guard'), guardOk),
    observe: ({ body }) => {
      observed += 1;
      if (arm !== 'observe') return body.snapshot();
      return Promise.resolve().then((): World => (once(observed === 1), body.snapshot()));
    },
    run: async (ctx, { to }) => {
      attempts += 1;
      ctx.body.move(to);
      if (arm === 'second acceptance' && attempts === 1) return { ok: false as const, code: 'stuck' as const, reason: 'slid back' };
      return undefined;
    },
    acceptance: () => (once(arm === 'acceptance' || (arm === 'second acceptance' && attempts === 2)), accepted),
  });
  const body = fakeBody();
  const executor = createExecutor({ registry: registryWith(hop), body, clock, policy: { maxLocalRetries: 1, backoff: { initialMs: 10, maxMs: 10 } } });
  const plan = (planId: string) => executor.run({ planId, intentId: 'i', steps: [{ stepId: 'h', type: 'hop', args: { to: 1 } }] });
  return { clock, body, executor, plan, attempts: () => attempts };
}

/** Runs a plan through 100 ms of the clock; a plan still running then is a hang (the test fails at once, not on a timeout). */
async function runThrough(s: ReturnType<typeof setup>, planId: string) {
  let ended = false;
  const outcome = s.plan(planId).finally(() => (ended = true));
  await s.clock.advance(100);
  expect(ended, `plan ${planId} still running after 100 ms`).toBe(true);
  return outcome;
}

describe('a clock read that fails inside the executor', () => {
  it.each(['guard', 'observe'] as const)('as the runner starts (armed by the %s) ends that attempt runner_error before the runner runs; the retry runs it', async (arm) => {
    const s = setup(arm);
    const retries: unknown[] = [];
    s.executor.on('step.retry', (e) => void retries.push({ attempt: e.attempt, failure: e.failure }));
    const outcome = await runThrough(s, 'p1');
    expect(retries).toEqual([{ attempt: 2, failure: { code: 'runner_error', reason: 'executor error: clock read failed: RTC unavailable', retryable: true } }]);
    expect(outcome.steps[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(s.attempts()).toBe(1);
    expect(s.body.calls).toEqual(['move:1']);
  });

  it.each(['acceptance', 'second acceptance'] as const)('as the step ends (armed by the %s) ends the step runner_error at once, not retried', async (arm) => {
    const s = setup(arm);
    const outcome = await runThrough(s, 'p1');
    expect(outcome.status).toBe('failed');
    expect(outcome.steps[0]).toMatchObject({ status: 'failed', failure: { code: 'runner_error', reason: 'executor error: clock read failed: RTC unavailable' } });
    expect(s.attempts()).toBe(arm === 'acceptance' ? 1 : 2);
    expect(s.executor.state()).toMatchObject({ status: 'idle', waiting: 0 });
    const next = await runThrough(s, 'p2');
    expect([next.status, next.steps[0]?.status]).toEqual(['completed', 'succeeded']);
  });
});
