import { accepted, effectsUnmet, ManualClock, type RunContext } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createExecutorMetrics, createMemoryProvenance, StepAbortError } from '../src/index.js';
import { defineFake, fakeBody, registryWith, type Body, type World } from './fake-body.js';
import { metric } from './metric.js';

// The edges of one attempt, through the public executor on the manual clock: a runner that throws before it returns
// a promise, how final a verdict is in the grace period and during acceptance, the signal a runner first reads after
// the trip, activity while observing, a second first action, and the trace entries progress leaves.

type Def = Parameters<typeof defineFake>[0];
const base = { version: '0.0.7', description: 'edge', inputSchema: z.strictObject({}), acceptance: () => accepted } satisfies Partial<Def>;

function setup(capabilities: Parameters<typeof registryWith>[0][], policy: Parameters<typeof createExecutor>[0]['policy'] = {}) {
  const clock = new ManualClock();
  const body = fakeBody();
  const metrics = createExecutorMetrics();
  const memory = createMemoryProvenance();
  const executor = createExecutor({ registry: registryWith(...capabilities), body, clock, metrics, provenance: [memory], policy: { maxLocalRetries: 0, ...policy } });
  const start = (type: string) => executor.run({ planId: `plan.${type}`, intentId: 'edge', steps: [{ stepId: `${type}#1`, type, args: {} }] });
  return { clock, body, metrics, memory, executor, start };
}

/** A promise the test settles. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

describe('a runner that throws before returning a promise', () => {
  it('is a runner_error naming the capability and the error, like a rejection', async () => {
    const sync = defineFake({
      ...base,
      name: 'sync_throw',
      run: ((ctx: RunContext<Body>) => {
        ctx.body.move(1);
        throw new RangeError('off the map');
      }) as never,
    });
    const s = setup([sync]);
    const outcome = await s.start('sync_throw');
    expect(outcome.steps[0]).toMatchObject({ status: 'failed', attempts: 1, failure: { code: 'runner_error', reason: 'sync_throw runner threw: off the map' } });
  });
});

describe('a verdict in the grace period', () => {
  it('stands against the runner’s later result, but close() ends the attempt at once', async () => {
    const late = gate();
    let settledAt: number | undefined;
    const deaf = defineFake({ ...base, name: 'deaf', run: async (ctx) => (ctx.body.move(1), await late.promise) });
    const s = setup([deaf], { stuckMs: 500, abortGraceMs: 10_000 });
    const done = s.start('deaf').then((o) => ((settledAt = s.clock.now()), o));
    await s.clock.advance(600); // stuck at 500: in grace until 10 500
    expect(settledAt).toBeUndefined();
    await s.executor.close();
    await s.clock.flush();
    const outcome = await done;
    expect(settledAt).toBe(600);
    expect(outcome.steps[0]).toMatchObject({ status: 'failed', failure: { code: 'aborted', reason: 'the executor was closed' } });
    late.open();
    await s.clock.flush();
    expect(await metric(s.metrics.registry, 'sinew_late_results_dropped_total', { capability: 'deaf' })).toBe(1);
  });

  it('a plan cancelled in the grace period of an open executor does not cut the grace short: the watchdog verdict stands', async () => {
    const late = gate();
    const deaf = defineFake({ ...base, name: 'deaf', run: async (ctx) => (ctx.body.move(1), await late.promise) });
    const s = setup([deaf], { stuckMs: 500, abortGraceMs: 1_000 });
    const controller = new AbortController();
    const done = s.executor.run({ planId: 'c', intentId: 'i', steps: [{ stepId: 'd', type: 'deaf', args: {} }] }, { signal: controller.signal });
    await s.clock.advance(600);
    controller.abort();
    late.open();
    await s.clock.flush();
    const outcome = await done;
    expect(outcome.steps[0]).toMatchObject({ status: 'failed', failure: { code: 'stuck' } });
  });
});

describe('a preemption while the attempt checks acceptance', () => {
  it('does not take it: the runner is done, the step succeeds without a resume', async () => {
    const looked = gate<World>();
    let observes = 0;
    const careful = defineFake({
      ...base,
      name: 'careful',
      observe: ({ body }) => ((observes += 1), observes === 1 ? body.snapshot() : looked.promise),
      run: async (ctx) => ctx.body.move(2),
      acceptance: (pre, post) => (post.x - pre.x === 2 ? accepted : effectsUnmet(['x:+2'])),
    });
    const shout = defineFake({ ...base, name: 'shout', safetyLevel: 'safe', run: async (ctx) => ctx.body.chat('!') });
    const s = setup([careful, shout]);
    const done = s.start('careful');
    await s.clock.advance(10);
    expect(s.executor.state().activeStep).toMatchObject({ stepId: 'careful#1', phase: 'running' });
    const preempted: string[] = [];
    s.executor.on('step.preempted', (e) => void preempted.push(e.stepId));
    const fast = s.executor.preempt([{ stepId: 'shout', type: 'shout', args: {} }], { reason: 'now' });
    await s.clock.advance(10);
    looked.open(s.body.snapshot());
    await Promise.all([fast, s.clock.flush()]);
    const outcome = await done;
    expect(outcome.steps[0]).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(preempted).toEqual([]);
    expect(s.memory.records().find((r) => r.stepId === 'careful#1')!.preemptions).toBe(0);
  });
});

describe('the signal a runner first reads after the trip', () => {
  it('is already aborted, with the trip’s StepAbortError as its reason', async () => {
    const resumeRunner = gate();
    let seen: { aborted: boolean; reason: unknown } | undefined;
    const slow = defineFake({
      ...base,
      name: 'slow_reader',
      run: async (ctx) => {
        ctx.body.move(1);
        await resumeRunner.promise;
        seen = { aborted: ctx.signal.aborted, reason: ctx.signal.reason };
      },
    });
    const s = setup([slow], { stuckMs: 300, abortGraceMs: 5_000 });
    const done = s.start('slow_reader');
    await s.clock.advance(400);
    resumeRunner.open();
    await s.clock.flush();
    expect((await done).steps[0]!.failure?.code).toBe('stuck');
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBeInstanceOf(StepAbortError);
    expect(seen?.reason).toMatchObject({ code: 'stuck', message: 'step slow_reader#1 aborted: stuck' });
  });
});

describe('activity around the runner', () => {
  it('a command while the attempt still observes is not its first action; the runner’s own commands are, once', async () => {
    const looked = gate<World>();
    let observes = 0;
    const firsts: string[] = [];
    const late = defineFake({
      ...base,
      name: 'late_start',
      observe: ({ body }) => ((observes += 1), observes === 1 ? looked.promise : body.snapshot()),
      run: async (ctx) => {
        await ctx.sleep(40);
        ctx.body.move(3);
        ctx.body.chat('there');
      },
    });
    const s = setup([late]);
    s.executor.on('step.first_action', (e) => void firsts.push(`${e.command}@${e.ttfaMs}`));
    const done = s.start('late_start');
    await s.clock.advance(20);
    s.body.move(-1); // the raw body moves while the pre observation is pending
    await s.clock.advance(30);
    looked.open(s.body.snapshot());
    await s.clock.advance(100);
    const outcome = await done;
    expect(outcome.steps[0]).toMatchObject({ status: 'succeeded', ttfaMs: 40 });
    expect(firsts).toEqual(['move@40']);
    const trace = s.memory.records()[0]!.trace;
    expect(trace.map((e) => `${e.kind}:${e.name}@${e.atMs}`)).toEqual(['command:move@90', 'command:chat@90']);
  });

  it('progress leaves an entry without a detail; a transition one with its state', async () => {
    const noted = defineFake({
      ...base,
      name: 'noted',
      run: async (ctx) => {
        ctx.body.chat('go');
        await ctx.sleep(5);
        ctx.progress('halfway');
        ctx.transition('root/seq/dig', 'running');
      },
    });
    const s = setup([noted]);
    const done = s.start('noted');
    await s.clock.advance(10);
    await done;
    expect(s.memory.records()[0]!.trace).toStrictEqual([
      { atMs: 0, kind: 'command', name: 'chat', detail: '"go"' },
      { atMs: 5, kind: 'progress', name: 'halfway' },
      { atMs: 5, kind: 'transition', name: 'root/seq/dig', detail: 'running' },
    ]);
  });
});

describe('an attempt whose plan is cancelled by its own guard', () => {
  it('never starts its runner: the cancellation was there before the attempt began', async () => {
    const controller = new AbortController();
    let runs = 0;
    const meddler = defineFake({
      ...base,
      name: 'meddler',
      // an odd guard: it cancels the very plan it guards, then says yes
      guard: () => (controller.abort(), { ok: true }),
      run: async (ctx) => ((runs += 1), ctx.body.move(1)),
    });
    const s = setup([meddler]);
    const outcome = await s.executor.run({ planId: 'm', intentId: 'i', steps: [{ stepId: 'm1', type: 'meddler', args: {} }] }, { signal: controller.signal });
    expect(outcome.steps[0]).toMatchObject({ status: 'failed', failure: { code: 'aborted', reason: 'the plan was cancelled' } });
    expect(runs).toBe(0);
    expect(s.body.calls).toEqual([]);
  });
});

describe('an observe that never answers', () => {
  it('before or after the runner, ends the attempt at its deadline with timeout', async () => {
    const hangs = (name: string, on: 1 | 2) => {
      let observes = 0;
      return defineFake({ ...base, name, observe: ({ body }) => ((observes += 1), observes === on ? new Promise<World>(() => {}) : body.snapshot()), run: async (ctx) => ctx.body.move(1) });
    };
    const s = setup([hangs('blank_pre', 1), hangs('blank_post', 2)], { defaultTimeoutMs: 700 });
    for (const type of ['blank_pre', 'blank_post']) {
      let endedAt: number | undefined;
      const done = s.start(type).then((o) => ((endedAt = s.clock.now()), o));
      const from = s.clock.now();
      await s.clock.advance(699);
      expect(endedAt).toBeUndefined();
      await s.clock.advance(1);
      // The post-observe hangs after the runner's one command: the reason says where the step stopped.
      const last = type === 'blank_pre' ? 'nothing traced since the step started' : 'the last activity was command "move" (1) at 0 ms into the step';
      expect((await done).steps[0]).toMatchObject({ status: 'failed', failure: { code: 'timeout', reason: `attempt ran past its 700 ms deadline; ${last}` } });
      expect(endedAt! - from).toBe(700);
    }
  });
});

