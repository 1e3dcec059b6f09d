import { accepted, ManualClock, type Logger, type RepairHook } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createExecutorMetrics, createMemoryProvenance } from '../src/index.js';
import { defineFake, fakeBody, registryWith } from './fake-body.js';
import { metric } from './metric.js';

// What a caller of the executor sees at the edges of a plan's life: why a plan stopped (cancelled, out of
// budget), what became of a repair hook that hung, threw or answered nothing, what a runner's progress
// notes look like in provenance, and how event listeners behave when added twice, removed, or throwing.

/** A logger that keeps what it was told, for the assertions. */
function keptLog(): Logger & { readonly lines: string[] } {
  const lines: string[] = [];
  const keep = (level: string) => (message: string, fields?: Record<string, unknown>) => void lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  return { lines, debug: () => {}, info: () => {}, warn: keep('warn'), error: keep('error') };
}

/** Moves one block, reports progress three ways, then waits on the clock until aborted. */
const trudge = defineFake({
  name: 'trudge',
  version: '1.0.0',
  description: 'moves, notes progress, then waits',
  inputSchema: z.object({}),
  run: async (ctx) => {
    ctx.body.move(1);
    ctx.progress('first leg');
    ctx.progress();
    ctx.progress(7 as never);
    while (!ctx.signal.aborted) await ctx.sleep(100).catch(() => {});
  },
  acceptance: () => accepted,
});

/** Fails at once with a retryable runner error, so the repair hook is asked. */
const slip = defineFake({
  name: 'slip',
  version: '1.0.0',
  description: 'moves and throws',
  inputSchema: z.object({}),
  run: async (ctx) => {
    ctx.body.move(1);
    throw new Error('slipped on ice');
  },
  acceptance: () => accepted,
});

function setup(options: { repair?: RepairHook; repairTimeoutMs?: number } = {}) {
  const clock = new ManualClock();
  const metrics = createExecutorMetrics();
  const provenance = createMemoryProvenance();
  const log = keptLog();
  const executor = createExecutor({
    registry: registryWith(trudge, slip),
    body: fakeBody(),
    clock,
    metrics,
    provenance,
    logger: log,
    policy: { maxLocalRetries: 0, stuckMs: 60_000, ...(options.repairTimeoutMs ? { repairTimeoutMs: options.repairTimeoutMs } : {}) },
    ...(options.repair ? { repair: options.repair } : {}),
  });
  return { clock, metrics, provenance, log, executor };
}

const plan = (type: string, planId = `plan-${type}`) => ({ planId, intentId: 'i-7', steps: [{ stepId: `${type}-1`, type }] });
const intent = (timeBudgetMs: number) => ({ id: 'i-7', source: 'user' as const, goal: 'get home', urgency: 0.2, timeBudgetMs });

describe('why a plan stopped', () => {
  it('out of budget: a non-retryable timeout naming the budget', async () => {
    const s = setup();
    const done = s.executor.run(plan('trudge'), { intent: intent(750) });
    await s.clock.advance(750);
    expect(await done).toMatchObject({ status: 'failed', failure: { code: 'timeout', retryable: false, reason: 'the plan ran past its time budget of 750 ms' } });
  });

  it('cancelled by the caller: aborted, and the plan says so', async () => {
    const s = setup();
    const cancel = new AbortController();
    const done = s.executor.run(plan('trudge'), { signal: cancel.signal });
    await s.clock.advance(200);
    cancel.abort();
    await s.clock.advance(0);
    expect(await done).toMatchObject({ status: 'aborted', failure: { code: 'aborted', reason: 'the plan was cancelled' } });
  });
});

describe('a repair hook that does not help', () => {
  it('one that never answers is given up after repairTimeoutMs, with a warning naming the step', async () => {
    const s = setup({ repair: { repair: () => new Promise(() => {}) }, repairTimeoutMs: 400 });
    const done = s.executor.run(plan('slip'));
    await s.clock.advance(400);
    expect(await done).toMatchObject({ status: 'failed', failure: { code: 'runner_error' }, repairs: 0 });
    expect(s.log.lines).toContain('warn repair hook did not answer in time {"stepId":"slip-1","timeoutMs":400}');
    expect(await metric(s.metrics.registry, 'sinew_plan_repairs_total', { reason: 'runner_error', result: 'timeout' })).toBe(1);
    expect(s.clock.pending()).toBe(0);
  });

  it('one whose wait is cut short by the plan budget is not counted as a repair timeout', async () => {
    const s = setup({ repair: { repair: () => new Promise(() => {}) }, repairTimeoutMs: 10_000 });
    const done = s.executor.run(plan('slip'), { intent: intent(300) });
    await s.clock.advance(300);
    expect(await done).toMatchObject({ status: 'failed', failure: { code: 'timeout' } });
    expect(s.log.lines.filter((line) => line.startsWith('warn repair'))).toEqual([]);
    expect(await metric(s.metrics.registry, 'sinew_plan_repairs_total', { reason: 'runner_error', result: 'timeout' })).toBe(0);
  });

  it('one that throws is logged as an error with the step, and counted', async () => {
    const s = setup({
      repair: {
        repair: () => {
          throw new Error('planner offline');
        },
      },
    });
    expect(await s.executor.run(plan('slip'))).toMatchObject({ status: 'failed', failure: { code: 'runner_error' } });
    expect(s.log.lines).toContain('error repair hook threw {"error":"planner offline","stepId":"slip-1"}');
    expect(await metric(s.metrics.registry, 'sinew_plan_repairs_total', { reason: 'runner_error', result: 'error' })).toBe(1);
  });

  it('one that answers an empty list of steps is no repair', async () => {
    const s = setup({ repair: { repair: () => ({ steps: [], replace: true, reason: 'nothing comes to mind' }) } });
    expect(await s.executor.run(plan('slip'))).toMatchObject({ status: 'failed', repairs: 0 });
    expect(await metric(s.metrics.registry, 'sinew_plan_repairs_total', { reason: 'runner_error', result: 'none' })).toBe(1);
    expect(await metric(s.metrics.registry, 'sinew_plan_repairs_total', { reason: 'runner_error', result: 'steps' })).toBe(0);
    expect(s.log.lines).toContain('warn repair hook refused {"stepId":"slip-1","reason":"nothing comes to mind"}');
  });

  it('one whose refusal reason throws when read is no repair, counted once as none, and logs no refusal', async () => {
    const answer = {
      steps: [],
      get reason(): string {
        throw new Error('reason unavailable');
      },
    };
    const s = setup({ repair: { repair: () => answer } });
    expect(await s.executor.run(plan('slip'))).toMatchObject({ status: 'failed', failure: { code: 'runner_error' }, repairs: 0 });
    expect(await metric(s.metrics.registry, 'sinew_plan_repairs_total', { reason: 'runner_error', result: 'none' })).toBe(1);
    expect(await metric(s.metrics.registry, 'sinew_plan_repairs_total', { reason: 'runner_error', result: 'error' })).toBe(0);
    expect(s.log.lines.filter((line) => line.includes('repair hook'))).toEqual([]);
  });
});

describe('failures the repair hook is never asked about', () => {
  it('an unknown verb, bad args and a cancelled plan end the plan without asking', async () => {
    let asked = 0;
    const s = setup({ repair: { repair: () => ((asked += 1), { steps: [{ stepId: 'x', type: 'trudge', args: {} }], reason: 'try walking' }) } });
    expect(await s.executor.run(plan('teleport'))).toMatchObject({ status: 'failed', failure: { code: 'unknown_verb' } });
    expect(await s.executor.run({ planId: 'p-args', intentId: 'i-7', steps: [{ stepId: 'a', type: 'slip', args: { speed: 3 } }] })).toMatchObject({ failure: { code: 'invalid_args' } });
    const cancel = new AbortController();
    const done = s.executor.run(plan('trudge'), { signal: cancel.signal });
    await s.clock.advance(100);
    cancel.abort();
    await s.clock.advance(0);
    expect(await done).toMatchObject({ status: 'aborted' });
    expect(asked).toBe(0);
  });
});

describe("a runner's progress notes", () => {
  it('are kept in the step trace as given, or as `progress` when the note is missing or not text', async () => {
    const s = setup();
    const cancel = new AbortController();
    const done = s.executor.run(plan('trudge'), { signal: cancel.signal });
    await s.clock.advance(100);
    cancel.abort();
    await s.clock.advance(0);
    await done;
    const trace = s.provenance.records()[0]!.trace.filter((entry) => entry.kind === 'progress').map((entry) => entry.name);
    expect(trace).toEqual(['first leg', 'progress', 'progress']);
  });
});

describe('event listeners', () => {
  it('one added twice is called once, and one unsubscribe removes it for good', async () => {
    const s = setup();
    const calls: string[] = [];
    const listener = (outcome: { planId: string }) => void calls.push(`a:${outcome.planId}`);
    const off = s.executor.on('plan.failed', listener);
    s.executor.on('plan.failed', listener);
    const offOther = s.executor.on('plan.failed', (outcome) => void calls.push(`b:${outcome.planId}`));
    await s.executor.run(plan('slip', 'first'));
    off();
    off();
    await s.executor.run(plan('slip', 'second'));
    offOther();
    await s.executor.run(plan('slip', 'third'));
    expect(calls).toEqual(['a:first', 'b:first', 'b:second']);
    expect(s.log.lines).toEqual([]);
  });

  it('one that throws is logged with the event, and the listeners after it still run', async () => {
    const s = setup();
    const calls: string[] = [];
    s.executor.on('plan.failed', () => {
      throw new Error('dashboard down');
    });
    s.executor.on('plan.failed', (outcome) => void calls.push(outcome.planId));
    expect(await s.executor.run(plan('slip', 'p-1'))).toMatchObject({ status: 'failed' });
    expect(calls).toEqual(['p-1']);
    expect(s.log.lines).toContain('error executor event listener threw {"event":"plan.failed","error":"dashboard down"}');
  });
});
