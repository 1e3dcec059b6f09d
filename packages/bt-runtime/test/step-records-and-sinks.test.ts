import { accepted, effectsUnmet, ManualClock, type Logger } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCallbackProvenance, createExecutor, createExecutorMetrics, createMemoryProvenance, type ProvenanceRecord, type ProvenanceSink } from '../src/index.js';
import { defineFake, fakeBody, registryWith } from './fake-body.js';
import { metric } from './metric.js';

// What a step leaves behind when it ends: its event, its provenance record (only the fields that apply), its
// duration in seconds, and what happens when a provenance sink fails to write, flush or close.

const lines: string[] = [];
const log: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: (message, fields) => void lines.push(`${message} ${JSON.stringify(fields ?? {})}`),
};

/** Hauls for 250 ms of executor time, then moves one block; acceptance needs the body moved. */
const haul = defineFake({
  name: 'haul',
  version: '3.2.1',
  description: 'slow move',
  inputSchema: z.object({ crates: z.number().int() }),
  observe: ({ body }) => body.snapshot(),
  run: async (ctx) => {
    ctx.body.move(0);
    await ctx.sleep(250);
    ctx.body.move(1);
  },
  acceptance: (pre, post) => (post.x > pre.x ? accepted : effectsUnmet(['x:+1'], 'did not move')),
});

/** Runs, moves nothing, so acceptance fails. */
const loiter = defineFake({
  name: 'loiter',
  version: '0.0.1',
  description: 'moves nowhere',
  inputSchema: z.object({}),
  observe: ({ body }) => body.snapshot(),
  run: async (ctx) => ctx.body.move(0),
  acceptance: (pre, post) => (post.x > pre.x ? accepted : effectsUnmet(['x:+1'], 'did not move')),
});

function setup(sinks: ProvenanceSink[] = [createMemoryProvenance()]) {
  lines.length = 0;
  const clock = new ManualClock();
  const metrics = createExecutorMetrics();
  const executor = createExecutor({ registry: registryWith(haul, loiter), body: fakeBody(), clock, metrics, provenance: sinks, logger: log, policy: { maxLocalRetries: 0 } });
  const events: string[] = [];
  executor.on('step.succeeded', (outcome) => void events.push(`succeeded:${outcome.stepId}`));
  executor.on('step.failed', (outcome) => void events.push(`failed:${outcome.stepId}`));
  return { clock, metrics, executor, events };
}

async function runToEnd(s: ReturnType<typeof setup>, plan: unknown) {
  const done = s.executor.run(plan);
  await s.clock.advance(250);
  return done;
}

describe('a step that ends', () => {
  it('announces step.succeeded or step.failed, never both', async () => {
    const s = setup();
    await runToEnd(s, { planId: 'p', intentId: 'i', steps: [{ stepId: 'a', type: 'haul', args: { crates: 2 } }] });
    await runToEnd(s, { planId: 'q', intentId: 'i', steps: [{ stepId: 'b', type: 'loiter', args: {} }] });
    expect(s.events).toEqual(['succeeded:a', 'failed:b']);
  });

  it('observes its duration in seconds, per capability and outcome', async () => {
    const s = setup();
    await runToEnd(s, { planId: 'p', intentId: 'i', steps: [{ stepId: 'a', type: 'haul', args: { crates: 2 } }] });
    await runToEnd(s, { planId: 'p2', intentId: 'i', steps: [{ stepId: 'b', type: 'haul', args: { crates: 1 } }] });
    const labels = { capability: 'haul', version: '3.2.1', outcome: 'succeeded' };
    expect(await metric(s.metrics.registry, 'sinew_step_duration_seconds_sum', labels)).toBeCloseTo(0.5, 9);
    expect(await metric(s.metrics.registry, 'sinew_step_duration_seconds_count', labels)).toBe(2);
  });
});

describe('its provenance record', () => {
  it('has args, key, acceptance and config hash when the step had them, zero counters, no failures', async () => {
    const memory = createMemoryProvenance();
    const s = setup([memory]);
    await runToEnd(s, { planId: 'p', intentId: 'i', configHash: 'cfg-9', steps: [{ stepId: 'a', type: 'haul', args: { crates: 2 }, idempotencyKey: 'haul-2' }] });
    expect(memory.records()[0]).toMatchObject({ capability: 'haul@3.2.1', args: { crates: 2 }, idempotencyKey: 'haul-2', acceptance: { ok: true }, configHash: 'cfg-9', preemptions: 0, traceDropped: 0, failures: [] });
    expect(Object.keys(memory.records()[0]!)).not.toContain('preemptReason');
  });

  it('leaves out what a refused step never had', async () => {
    const memory = createMemoryProvenance();
    const s = setup([memory]);
    await runToEnd(s, { planId: 'p', intentId: 'i', steps: [{ stepId: 'a', type: 'fly' }] });
    const record = memory.records()[0]!;
    expect(record).toMatchObject({ verb: 'fly', failures: [{ code: 'unknown_verb' }] });
    expect(Object.keys(record).filter((key) => ['args', 'acceptance', 'preemptReason', 'configHash', 'capability'].includes(key))).toEqual([]);
  });
});

describe('a provenance sink that fails', () => {
  it('a throwing write is logged and the next sink still gets the record', async () => {
    const kept: ProvenanceRecord[] = [];
    const s = setup([
      {
        write: () => {
          throw new Error('disk full');
        },
      },
      createCallbackProvenance((record) => void kept.push(record)),
    ]);
    expect(await runToEnd(s, { planId: 'p', intentId: 'i', steps: [{ stepId: 'a', type: 'haul', args: { crates: 1 } }] })).toMatchObject({ status: 'completed' });
    expect(kept.map((record) => record.stepId)).toEqual(['a']);
    expect(lines).toEqual(['provenance sink write failed {"error":"disk full"}']);
  });

  it('a sink without flush or close is fine; a throwing flush (when the plan ends) and a rejecting close are logged', async () => {
    const s = setup([
      { write: () => {} },
      {
        write: () => {},
        flush: () => {
          throw new Error('flush broke');
        },
        close: () => Promise.reject(new Error('close broke')),
      },
    ]);
    expect(await runToEnd(s, { planId: 'p', intentId: 'i', steps: [{ stepId: 'a', type: 'haul', args: { crates: 1 } }] })).toMatchObject({ status: 'completed' });
    await s.executor.close();
    expect(lines).toEqual(['provenance sink flush failed {"error":"flush broke"}', 'provenance sink close failed {"error":"close broke"}']);
  });
});
