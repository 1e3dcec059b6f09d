import { accepted, guardOk, ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createMemoryProvenance } from '../src/index.js';
import { defineFake, fakeBody, registryWith } from './fake-body.js';

// How a caution step's wait for a self-preservation hold ends: run out, it is dispatched as a plain start (no
// preemption announced or counted); cut short by its plan's cancellation, it ends before its guard or any dispatch.

function setup() {
  const guards: string[] = [];
  const sidle = defineFake({
    name: 'sidle',
    version: '1.2.0',
    description: 'edges along a ledge',
    inputSchema: z.strictObject({ by: z.number().int() }),
    safetyLevel: 'caution',
    guard: (_ctx, { by }) => (guards.push(`sidle ${by}`), guardOk),
    run: async (ctx, { by }) => ctx.body.move(by),
    acceptance: () => accepted,
  });
  const jump = defineFake({ name: 'jump', version: '1.0.0', description: 'jumps clear', inputSchema: z.strictObject({}), safetyLevel: 'safe', run: async (ctx) => ctx.body.move(-2), acceptance: () => accepted });
  const clock = new ManualClock();
  const body = fakeBody();
  const memory = createMemoryProvenance();
  const executor = createExecutor({ registry: registryWith(sidle, jump), body, clock, provenance: [memory], policy: { maxLocalRetries: 0 } });
  const events: string[] = [];
  for (const name of ['step.dispatched', 'step.preempted', 'step.resumed'] as const) executor.on(name, (e) => void events.push(`${name}:${e.stepId}`));
  return { clock, body, memory, executor, events, guards };
}

describe('a caution step waiting out a self-preservation hold', () => {
  it('is dispatched once the hold runs out, as a plain start: no preemption announced or recorded', async () => {
    const s = setup();
    await Promise.all([s.executor.preempt([{ stepId: 'clear', type: 'jump', args: {} }], { reason: 'fall', holdMs: 300 }), s.clock.flush()]);
    const plan = s.executor.run({ planId: 'ledge', intentId: 'i', steps: [{ stepId: 'edge', type: 'sidle', args: { by: 3 } }] });
    await s.clock.advance(299);
    expect(s.body.calls).toEqual(['move:-2']);
    await s.clock.advance(5);
    expect((await plan).status).toBe('completed');
    expect(s.events).toEqual(['step.dispatched:clear', 'step.dispatched:edge']);
    expect(s.memory.records().find((r) => r.stepId === 'edge')).toMatchObject({ preemptions: 0, attempts: 1 });
    expect(s.body.calls).toEqual(['move:-2', 'move:3']);
  });

  it('whose plan is cancelled during the hold ends aborted at once, never guarded or dispatched', async () => {
    const s = setup();
    await Promise.all([s.executor.preempt([{ stepId: 'clear', type: 'jump', args: {} }], { reason: 'fall', holdMs: 300 }), s.clock.flush()]);
    const cancel = new AbortController();
    const plan = s.executor.run({ planId: 'ledge', intentId: 'i', steps: [{ stepId: 'edge', type: 'sidle', args: { by: -4 } }] }, { signal: cancel.signal });
    await s.clock.advance(120);
    cancel.abort();
    await s.clock.flush();
    const ended = await plan;
    expect(ended.steps.map((st) => [st.status, st.failure?.code, st.failure?.reason, st.attempts])).toEqual([['failed', 'aborted', 'the plan was cancelled', 0]]);
    expect(s.guards).toEqual([]);
    expect(s.events).toEqual(['step.dispatched:clear']);
    expect(s.body.calls).toEqual(['move:-2']);
  });
});
