import { ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { createExecutor, createExecutorMetrics } from '../src/index.js';
import { digBlock, fakeBody, registryWith } from './fake-body.js';
import { metric } from './metric.js';

function setup() {
  const metrics = createExecutorMetrics();
  const executor = createExecutor({ registry: registryWith(digBlock), body: fakeBody(), clock: new ManualClock(), metrics, policy: { maxLocalRetries: 0 } });
  const events: string[] = [];
  executor.on('plan.completed', (outcome) => events.push(`completed:${outcome.planId}`));
  executor.on('plan.failed', (outcome) => events.push(`failed:${outcome.planId}:${outcome.status}`));
  return { metrics, executor, events };
}

describe('how a plan ends', () => {
  it('announces plan.completed for a completed plan and plan.failed for a failed or refused one', async () => {
    const { executor, events } = setup();
    await executor.run({ planId: 'ok', intentId: 'i', steps: [{ stepId: 's', type: 'dig_block', args: { block: 'log_1' } }] });
    await executor.run({ planId: 'no-block', intentId: 'i', steps: [{ stepId: 's', type: 'dig_block', args: { block: 'stone' } }] });
    await executor.run({ planId: 'bad', intentId: 'i', steps: 'nope' });
    expect(events).toEqual(['completed:ok', 'failed:no-block:failed', 'failed:bad:failed']);
  });

  it('observes the steps to success of completed plans only, under `unspecified` without a goal', async () => {
    const { executor, metrics } = setup();
    await executor.run({ planId: 'ok', intentId: 'i', steps: [{ stepId: 'a', type: 'dig_block', args: { block: 'log_1' } }, { stepId: 'b', type: 'dig_block', args: { block: 'log_2' } }] });
    await executor.run({ planId: 'no-block', intentId: 'i', steps: [{ stepId: 's', type: 'dig_block', args: { block: 'stone' } }] });
    expect(await metric(metrics.registry, 'sinew_plan_steps_to_success_count', { goal: 'unspecified' })).toBe(1);
    expect(await metric(metrics.registry, 'sinew_plan_steps_to_success_sum', { goal: 'unspecified' })).toBe(2);
    expect([await metric(metrics.registry, 'sinew_plans_total', { status: 'completed' }), await metric(metrics.registry, 'sinew_plans_total', { status: 'failed' })]).toEqual([1, 1]);
  });
});
