import { accepted, ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createExecutorMetrics } from '../src/index.js';
import { defineFake, fakeBody, registryWith, walker } from './fake-body.js';
import { metric } from './metric.js';

// A step that gave the body to a preemption and whose plan is cancelled while it waits to take it back ends there,
// without touching the preemption's step: that step stays the active one (state(), the active-steps gauge) and its own
// commands keep feeding its watchdogs. Manual clock, fake body.

/** Looks around for 100 ms before its first move, then steps back twice. */
const duck = defineFake({
  name: 'duck',
  version: '1.0.0',
  description: 'ducks after a look',
  inputSchema: z.strictObject({}),
  safetyLevel: 'safe',
  run: async (ctx) => {
    await ctx.sleep(100);
    ctx.body.move(-1);
    await ctx.sleep(100);
    ctx.body.move(-1);
  },
  acceptance: () => accepted,
});

describe('a preempted step whose plan is cancelled while it waits to resume', () => {
  it('ends aborted and leaves the preemption step active, its commands still counted by its watchdogs', async () => {
    const clock = new ManualClock();
    const metrics = createExecutorMetrics();
    const body = fakeBody();
    const executor = createExecutor({ registry: registryWith(walker, duck), body, clock, metrics, policy: { ttfaMs: 150, maxLocalRetries: 0 } });
    const cancel = new AbortController();
    const plan = executor.run({ planId: 'errand', intentId: 'i', steps: [{ stepId: 'walk', type: 'walker', args: {} }] }, { signal: cancel.signal });
    await clock.advance(50);
    const preempted = executor.preempt([{ stepId: 'duck', type: 'duck', args: {} }], { reason: 'arrow' });
    await clock.advance(30);
    expect(executor.state().activeStep?.stepId).toBe('duck');
    let settled = false;
    void plan.finally(() => (settled = true));
    cancel.abort();
    await clock.flush();
    expect(settled, 'the cancelled plan ended without the clock moving').toBe(true);
    const ended = await plan;
    expect([ended.status, ended.steps[0]?.status, ended.steps[0]?.failure?.code, ended.steps[0]?.failure?.reason]).toEqual(['aborted', 'failed', 'aborted', 'the plan was cancelled']);
    expect(executor.state().activeStep).toMatchObject({ stepId: 'duck', phase: 'running' });
    expect(await metric(metrics.registry, 'sinew_active_steps')).toBe(1);
    await clock.advance(300);
    const [duckOutcome] = await preempted;
    expect([duckOutcome?.status, duckOutcome?.failure?.code]).toEqual(['succeeded', undefined]);
    expect(body.calls.filter((call) => call === 'move:-1')).toHaveLength(2);
    expect(await metric(metrics.registry, 'sinew_active_steps')).toBe(0);
  });
});
