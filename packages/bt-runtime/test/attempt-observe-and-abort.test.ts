import { accepted, effectsUnmet, ManualClock, type Logger } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createExecutorMetrics, createMemoryProvenance } from '../src/index.js';
import { defineFake, fakeBody, registryWith, type World } from './fake-body.js';
import { metric } from './metric.js';

// One attempt's edges through the public executor: an observe that throws or rejects before or after the runner,
// the first action's TTFA as the event and metric see it, a runner that ignores its abort (abandoned, its late
// result dropped, both logged), the abort reason a runner reads, and what acceptance leaves in the record.

type Def = Parameters<typeof defineFake>[0];
const base = { version: '1.0.0', description: 'test', inputSchema: z.object({}), acceptance: () => accepted } satisfies Partial<Def>;

function setup(capabilities: Parameters<typeof registryWith>[0][], policy: Parameters<typeof createExecutor>[0]['policy'] = {}) {
  const warnings: string[] = [];
  const logger: Logger = { debug() {}, info() {}, warn: (message, fields) => void warnings.push(`${message} ${JSON.stringify(fields)}`), error() {} };
  const clock = new ManualClock();
  const metrics = createExecutorMetrics();
  const memory = createMemoryProvenance();
  const executor = createExecutor({ registry: registryWith(...capabilities), body: fakeBody(), clock, metrics, logger, provenance: [memory], policy: { maxLocalRetries: 0, ...policy } });
  const run = async (type: string, advanceMs = 0) => {
    const done = executor.run({ planId: `p-${type}`, intentId: 'i', steps: [{ stepId: 's', type, args: {} }] });
    await clock.advance(advanceMs);
    return (await done).steps[0]!;
  };
  return { clock, metrics, memory, executor, warnings, run };
}

/** An observe that fails on call `failOn` (1: before the runner, 2: after), by throwing or by rejecting. */
function observer(name: string, failOn: 1 | 2, how: 'throw' | 'reject') {
  let calls = 0;
  return defineFake({
    ...base,
    name,
    observe: ({ body }) => {
      calls += 1;
      if (calls !== failOn) return body.snapshot();
      if (how === 'throw') throw new Error(`blind ${calls}`);
      return Promise.reject(new Error(`blind ${calls}`)) as unknown as World;
    },
    run: async (ctx) => ctx.body.move(1),
  });
}

describe('an observe that fails', () => {
  it('before or after the runner, thrown or rejected, ends the attempt runner_error saying which', async () => {
    const s = setup([observer('pre_throw', 1, 'throw'), observer('post_throw', 2, 'throw'), observer('pre_reject', 1, 'reject'), observer('post_reject', 2, 'reject')]);
    const reasons: string[] = [];
    for (const type of ['pre_throw', 'post_throw', 'pre_reject', 'post_reject']) {
      const step = await s.run(type);
      expect(step.failure?.code).toBe('runner_error');
      reasons.push(step.failure!.reason);
    }
    expect(reasons).toEqual(['observe (pre) of pre_throw threw: blind 1', 'observe (post) of post_throw threw: blind 2', 'observe (pre) of pre_reject threw: blind 1', 'observe (post) of post_reject threw: blind 2']);
  });
});

describe('the first action', () => {
  it('is timed from dispatch in the step.first_action event and the TTFA histogram', async () => {
    const late = defineFake({ ...base, name: 'late', run: async (ctx) => (await ctx.sleep(30), ctx.body.move(1)) });
    const s = setup([late]);
    const firsts: unknown[] = [];
    s.executor.on('step.first_action', (e) => void firsts.push(e));
    await s.clock.advance(1_000); // dispatch far from the clock's zero
    const step = await s.run('late', 30);
    expect(step.ttfaMs).toBe(30);
    // `at` is the command's time on the executor's clock: dispatched at 1,000, first command 30 ms later.
    expect(firsts).toEqual([{ planId: 'p-late', stepId: 's', verb: 'late', command: 'move', ttfaMs: 30, attempt: 1, at: 1_030 }]);
    expect(s.executor.clock).toBe(s.clock);
    expect(await metric(s.metrics.registry, 'sinew_step_ttfa_seconds_sum', { capability: 'late' })).toBeCloseTo(0.03, 9);
  });
});

describe('a runner that ignores its abort', () => {
  it('is abandoned after the grace period and its late result dropped, both logged and counted; the abort reason names the step and code', async () => {
    let release!: () => void;
    const reasons: string[] = [];
    const stubborn = defineFake({
      ...base,
      name: 'stubborn',
      run: async (ctx) => {
        ctx.body.move(1);
        ctx.signal.addEventListener('abort', () => void reasons.push(String((ctx.signal.reason as Error).message)));
        await new Promise<void>((resolve) => (release = resolve));
      },
    });
    const s = setup([stubborn], { defaultTimeoutMs: 100, stuckMs: 60_000, abortGraceMs: 50 });
    const step = await s.run('stubborn', 150);
    expect(step.failure).toMatchObject({ code: 'timeout' });
    expect(reasons).toEqual(['step s aborted: timeout']);
    release();
    await s.clock.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(s.warnings).toEqual([
      'runner ignored abort; abandoned {"stepId":"s","capability":"stubborn","code":"timeout"}',
      'late runner result dropped {"capability":"stubborn","stepId":"s"}',
    ]);
    expect(await metric(s.metrics.registry, 'sinew_runners_abandoned_total', { capability: 'stubborn' })).toBe(1);
    expect(await metric(s.metrics.registry, 'sinew_late_results_dropped_total', { capability: 'stubborn' })).toBe(1);
    expect(await metric(s.metrics.registry, 'sinew_watchdog_trips_total', { capability: 'stubborn', code: 'timeout' })).toBe(1);
  });
});

describe('acceptance', () => {
  it('that fails leaves its unmet effects in the record; a failure without a list leaves an empty one', async () => {
    // Plain JavaScript can return a refusal without its list.
    const noList = (() => ({ ok: false, reason: 'no list' })) as unknown as Def['acceptance'];
    const listed = defineFake({ ...base, name: 'listed', observe: ({ body }) => body.snapshot(), run: async (ctx) => ctx.body.move(1), acceptance: () => effectsUnmet(['x:+2'], 'short') });
    const bare = defineFake({ ...base, name: 'bare', observe: ({ body }) => body.snapshot(), run: async (ctx) => ctx.body.move(1), acceptance: noList });
    const s = setup([listed, bare]);
    await s.run('listed');
    await s.run('bare');
    expect(s.memory.records().map((r) => r.acceptance)).toStrictEqual([{ ok: false, unmet: ['x:+2'] }, { ok: false, unmet: [] }]);
  });

  it('that passes records ok, with the observables the runner returned in the outcome', async () => {
    const told = defineFake({ ...base, name: 'told', run: async (ctx) => (ctx.body.move(1), { ok: true as const, observables: { moved: 1 } }) });
    const s = setup([told]);
    expect(await s.run('told')).toMatchObject({ status: 'succeeded', observables: { moved: 1 } });
    expect(s.memory.records()[0]!.acceptance).toStrictEqual({ ok: true });
  });
});

describe('a preemption', () => {
  it('is not a watchdog trip', async () => {
    const walk = defineFake({
      ...base,
      name: 'walk',
      run: async (ctx) => {
        for (let i = 0; i < 3; i += 1) {
          ctx.body.move(1);
          await ctx.sleep(100);
        }
      },
    });
    const flee = defineFake({ ...base, name: 'flee', run: async (ctx) => ctx.body.move(-1) });
    const s = setup([walk, flee]);
    const done = s.executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 'w', type: 'walk', args: {} }] });
    await s.clock.advance(150);
    const fast = s.executor.preempt([{ stepId: 'f', type: 'flee', args: {} }], { reason: 'zombie' });
    await s.clock.flush();
    await fast;
    await s.clock.advance(1_000);
    expect((await done).status).toBe('completed');
    expect(await metric(s.metrics.registry, 'sinew_watchdog_trips_total', { capability: 'walk' })).toBe(0);
  });
});
