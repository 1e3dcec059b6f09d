import { accepted, ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, type Executor } from '../src/index.js';
import { defineFake, fakeBody, registryWith, type Body } from './fake-body.js';

// close() is final even when it is called from inside a step: a guard (user code, run just before the attempt) that
// closes the executor stops that very step before its runner starts, as a guard that cancels its own plan does; and
// a body that drops while the guard runs (a guard that reads the world over the wire) is not acted on either.

describe('a guard that closes the executor', () => {
  it('the runner never starts: the step ends aborted and the body gets no command', async () => {
    let executor!: Executor<Body>;
    let runs = 0;
    const closer = defineFake({
      name: 'closer',
      version: '0.3.0',
      description: 'its guard shuts the executor down, then says yes',
      inputSchema: z.strictObject({}),
      guard: () => (void executor.close(), { ok: true }),
      run: async (ctx) => ((runs += 1), ctx.body.move(5)),
      acceptance: () => accepted,
    });
    const body = fakeBody();
    executor = createExecutor({ registry: registryWith(closer), body, clock: new ManualClock() });
    const outcome = await executor.run({ planId: 'shut', intentId: 'down', steps: [{ stepId: 'c1', type: 'closer', args: {} }] });
    expect(outcome.steps[0]).toMatchObject({ status: 'failed', failure: { code: 'aborted', reason: 'the executor was closed' } });
    expect(runs).toBe(0);
    expect(body.calls).toEqual([]);
  });

  it('a body that disconnects during the guard: the runner never starts, the step ends body_disconnected', async () => {
    let runs = 0;
    const body = fakeBody();
    const reader = defineFake({
      name: 'wire_reader',
      version: '0.3.0',
      description: 'its guard is where the connection drops',
      inputSchema: z.strictObject({}),
      guard: ({ body: seen }) => (seen.disconnect('read ECONNRESET'), { ok: true }),
      run: async (ctx) => ((runs += 1), ctx.body.move(5)),
      acceptance: () => accepted,
    });
    const executor = createExecutor({ registry: registryWith(reader), body, clock: new ManualClock() });
    const outcome = await executor.run({ planId: 'wire', intentId: 'read', steps: [{ stepId: 'r1', type: 'wire_reader', args: {} }] });
    expect(outcome.steps[0]).toMatchObject({ status: 'failed', failure: { code: 'body_disconnected', reason: 'the body disconnected: read ECONNRESET' } });
    expect(runs).toBe(0);
    expect(body.calls).toEqual([]);
  });
});
