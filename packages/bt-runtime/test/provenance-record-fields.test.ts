import { accepted, ManualClock, type IntentInput } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createExecutorMetrics, createMemoryProvenance } from '../src/index.js';
import { defineFake, digBlock, fakeBody, registryWith } from './fake-body.js';
import { metric } from './metric.js';

// The fields of a provenance record that only some steps have: a preemption's reason, the intent's provenance ref,
// the preemptions a resumed step went through, the trace entries past the limit; and the step series' labels.

/** Walks `steps` moves, one every 100 ms; succeeds once it moved that far since it started. */
const walk = defineFake({
  name: 'walk',
  version: '2.0.0',
  description: 'walks n moves',
  inputSchema: z.object({ steps: z.number().int() }),
  observe: ({ body }) => body.snapshot(),
  run: async (ctx, { steps }) => {
    for (let moved = 0; moved < steps; moved += 1) {
      ctx.body.move(1);
      await ctx.sleep(100);
    }
  },
  acceptance: (pre, post, { steps }) => (post.x - pre.x >= steps ? accepted : { ok: false, code: 'effects_unmet', reason: 'short', unmet: [] }),
});

/** Steps back at once. */
const flee = defineFake({ name: 'flee', version: '1.0.0', description: 'steps back', inputSchema: z.object({}), run: async (ctx) => ctx.body.move(-1), acceptance: () => accepted });

function setup(policy: Parameters<typeof createExecutor>[0]['policy'] = {}) {
  const clock = new ManualClock();
  const memory = createMemoryProvenance();
  const metrics = createExecutorMetrics();
  const executor = createExecutor({ registry: registryWith(walk, flee, digBlock), body: fakeBody(), clock, metrics, provenance: [memory], policy: { maxLocalRetries: 0, ...policy } });
  const record = (stepId: string) => memory.records().find((r) => r.stepId === stepId)!;
  return { clock, executor, metrics, record };
}

describe('a provenance record', () => {
  it('of a preemption’s step names its reason; the step it interrupted counts the preemption', async () => {
    const s = setup();
    const done = s.executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 'walk', type: 'walk', args: { steps: 4 }, idempotencyKey: 'walk-4' }] });
    await s.clock.advance(150);
    const fast = s.executor.preempt([{ stepId: 'flee', type: 'flee', args: {} }], { reason: 'creeper' });
    await s.clock.flush();
    await fast;
    await s.clock.advance(2_000);
    expect((await done).status).toBe('completed');
    expect(s.record('flee')).toMatchObject({ preemptReason: 'creeper', capability: 'flee@1.0.0', acceptance: { ok: true }, preemptions: 0 });
    expect(s.record('walk')).toMatchObject({ preemptions: 1, idempotencyKey: 'walk-4', acceptance: { ok: true } });
    expect(Object.keys(s.record('walk'))).not.toContain('preemptReason');
  });

  it('carries the intent’s provenance ref', async () => {
    const s = setup();
    const intent: IntentInput = { id: 'i', source: 'user', goal: 'dig', urgency: 0.5, provenanceRef: 'ticket-42' };
    await s.executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 'd', type: 'dig_block', args: { block: 'log_1' } }] }, { intent });
    expect(s.record('d')).toMatchObject({ provenanceRef: 'ticket-42', capability: 'dig_block@1.0.0', idempotencyKey: 'p:d', acceptance: { ok: true } });
  });

  it('counts the trace entries past the policy’s limit as dropped', async () => {
    const s = setup({ traceLimit: 2 });
    const done = s.executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 'w', type: 'walk', args: { steps: 5 } }] });
    await s.clock.advance(1_000);
    await done;
    expect(s.record('w').trace.map((entry) => entry.name)).toEqual(['move', 'move']);
    expect(s.record('w').traceDropped).toBe(3);
  });

  it('of a refused step has no key a run step has, not even one set to undefined', async () => {
    const s = setup();
    await s.executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 'x', type: 'levitate', args: {} }] });
    expect(Object.keys(s.record('x')).sort()).toEqual(['attempts', 'failures', 'intentId', 'outcome', 'planId', 'preemptions', 'stepId', 'trace', 'traceDropped', 'verb']);
  });
});

describe('every provenance record', () => {
  it('leaves out a field the step did not have instead of setting it to undefined, whatever way it ended', async () => {
    const s = setup();
    const ends = [
      { stepId: 'guarded', type: 'dig_block', args: { block: 'no_such_block' } },
      { stepId: 'bad_args', type: 'dig_block', args: { block: 7 } },
      { stepId: 'unknown', type: 'levitate' },
      { stepId: 'dug', type: 'dig_block', args: { block: 'log_1' } },
    ];
    for (const [i, step] of ends.entries()) await s.executor.run({ planId: `p${i}`, intentId: 'i', steps: [step] });
    for (const { stepId } of ends) expect(Object.entries(s.record(stepId)).filter(([, value]) => value === undefined).map(([key]) => `${stepId}.${key}`)).toEqual([]);
    expect(Object.keys(s.record('guarded'))).not.toContain('acceptance');
    expect(s.record('dug')).toMatchObject({ acceptance: { ok: true }, idempotencyKey: 'p3:dug' });
  });
});

describe('the step series', () => {
  it('label a step by capability, version, outcome and code (none for a success), each duration under its own capability', async () => {
    const s = setup();
    const done = s.executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 'w', type: 'walk', args: { steps: 3 } }, { stepId: 'f', type: 'flee', args: {} }] });
    await s.clock.advance(1_000);
    await done;
    const registry = s.metrics.registry;
    expect(await metric(registry, 'sinew_steps_total', { capability: 'walk', version: '2.0.0', outcome: 'succeeded', code: 'none' })).toBe(1);
    expect(await metric(registry, 'sinew_steps_total', { capability: 'flee', version: '1.0.0', outcome: 'succeeded', code: 'none' })).toBe(1);
    expect(await metric(registry, 'sinew_step_duration_seconds_sum', { capability: 'walk', version: '2.0.0', outcome: 'succeeded' })).toBeCloseTo(0.3, 9);
    expect(await metric(registry, 'sinew_step_duration_seconds_sum', { capability: 'flee', version: '1.0.0', outcome: 'succeeded' })).toBe(0);
    expect(await metric(registry, 'sinew_step_duration_seconds_count', { capability: 'flee', version: '1.0.0', outcome: 'succeeded' })).toBe(1);
  });
});
