import { accepted, ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createExecutorMetrics, createMemoryProvenance } from '../src/index.js';
import { defineFake, fakeBody, registryWith } from './fake-body.js';
import { metric } from './metric.js';

// What the reporter writes for steps of two capabilities side by side (each counted under its own name), and the
// provenance record's fields for the steps that are not a plain run step: a refusal, a preemption's step, a plan with
// a config hash. Manual clock, fake body.

const fails = (name: string) => defineFake({ name, version: '2.0.0', description: name, inputSchema: z.strictObject({ ok: z.boolean() }), run: async (ctx, { ok }) => (ctx.body.chat(name), ok ? undefined : { ok: false as const, code: 'runner_error' as const, reason: `${name} slipped` }), acceptance: () => accepted });

function setup() {
  const metrics = createExecutorMetrics();
  const memory = createMemoryProvenance();
  const executor = createExecutor({ registry: registryWith(fails('saw'), fails('hammer')), body: fakeBody(), clock: new ManualClock(), metrics, provenance: [memory], policy: { maxLocalRetries: 0 } });
  return { metrics, memory, executor };
}

describe('step series', () => {
  it('count each capability under its own name, for every outcome and code', async () => {
    const s = setup();
    const runs = [['saw', true], ['hammer', true], ['saw', false], ['hammer', false], ['hammer', false]] as const;
    for (const [index, [type, ok]] of runs.entries()) await s.executor.run({ planId: `p${index}`, intentId: 'i', steps: [{ stepId: 's', type, args: { ok } }] });
    const steps = (capability: string, outcome: string, code: string) => metric(s.metrics.registry, 'sinew_steps_total', { capability, outcome, code });
    expect([await steps('saw', 'succeeded', 'none'), await steps('hammer', 'succeeded', 'none')]).toEqual([1, 1]);
    expect([await steps('saw', 'failed', 'runner_error'), await steps('hammer', 'failed', 'runner_error')]).toEqual([1, 2]);
  });
});

describe('a provenance record', () => {
  it('of a refusal has no capability, args, key or acceptance', async () => {
    const s = setup();
    await s.executor.run({ planId: 'r', intentId: 'i', steps: [{ stepId: 'x', type: 'chisel', args: {} }] });
    const record = s.memory.records()[0]!;
    expect(Object.keys(record).sort()).toEqual(['attempts', 'failures', 'intentId', 'outcome', 'planId', 'preemptions', 'stepId', 'trace', 'traceDropped', 'verb']);
  });

  it('of a preemption’s step names the reason; of a plan with a config hash carries it', async () => {
    const s = setup();
    await s.executor.preempt([{ stepId: 'q', type: 'saw', args: { ok: true } }], { reason: 'mode:drowning' });
    await s.executor.run({ planId: 'h', intentId: 'i', configHash: 'sha256:feed', steps: [{ stepId: 'h1', type: 'hammer', args: { ok: true } }] });
    const [preempted, hashed] = s.memory.records();
    expect(preempted).toMatchObject({ stepId: 'q', preemptReason: 'mode:drowning', capability: 'saw@2.0.0', acceptance: { ok: true } });
    expect(hashed).toMatchObject({ stepId: 'h1', configHash: 'sha256:feed', capability: 'hammer@2.0.0' });
  });
});
