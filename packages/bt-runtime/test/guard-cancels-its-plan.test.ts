import { accepted, ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor } from '../src/index.js';
import { defineFake, fakeBody, registryWith } from './fake-body.js';

// A guard (user code, run just before the attempt) that cancels its own plan: the attempt ends before it begins —
// not only is the runner never started, the world is not even observed for it (observe is user code too, and may
// be a slow read over the wire). Manual clock, fake body.

describe('a guard that cancels its own plan', () => {
  it('ends the step aborted before observe() or the runner is called', async () => {
    const cancel = new AbortController();
    const calls: string[] = [];
    const secondThoughts = defineFake({
      name: 'second_thoughts',
      version: '2.0.0-rc.1',
      description: 'its guard calls the whole thing off, then says yes',
      inputSchema: z.strictObject({ why: z.string().optional() }),
      guard: (_ctx, { why }) => (calls.push(`guard ${why ?? ''}`), cancel.abort(why), { ok: true }),
      observe: ({ body }) => (calls.push('observe'), body.snapshot()),
      run: async (ctx) => (calls.push('run'), ctx.body.move(2)),
      acceptance: () => accepted,
    });
    const body = fakeBody();
    const executor = createExecutor({ registry: registryWith(secondThoughts), body, clock: new ManualClock() });
    const outcome = await executor.run({ planId: 'maybe', intentId: 'not', steps: [{ stepId: 's', type: 'second_thoughts', args: { why: 'rain' } }] }, { signal: cancel.signal });
    expect([outcome.status, outcome.steps[0]?.status, outcome.steps[0]?.failure?.code]).toEqual(['aborted', 'failed', 'aborted']);
    expect(calls).toEqual(['guard rain']);
    expect(body.calls).toEqual([]);
  });
});
