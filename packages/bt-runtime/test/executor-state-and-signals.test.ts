import { accepted, ManualClock, type Logger, type RepairHook } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createExecutorMetrics, createMemoryProvenance, instrumentMethods, type ProvenanceSink } from '../src/index.js';
import { defineFake, fakeBody, registryWith, walker } from './fake-body.js';
import { metric } from './metric.js';

// What the executor object itself answers, through its public API on the manual clock: state() at each moment of a
// plan and a preemption, the plan preempt() runs its steps under, the body's disconnect reason as the steps see it,
// the constructor's body check, close() twice, the plan.started event and the repair hook's boundaries.

/** Paces `moves` moves, one every 100 ms; honours abort. */
const pace = defineFake({
  name: 'pace',
  version: '3.0.0-rc.1',
  description: 'paces',
  inputSchema: z.strictObject({ moves: z.number().int().min(1) }),
  run: async (ctx, { moves }) => {
    for (let i = 0; i < moves && !ctx.signal.aborted; i += 1) {
      ctx.body.move(1);
      await ctx.sleep(100);
    }
  },
  acceptance: () => accepted,
});

/** The fast path: one chat line, or (`drop`) the body's connection drops while it speaks. */
const yell = defineFake({
  name: 'yell',
  version: '1.0.0',
  description: 'yells',
  inputSchema: z.strictObject({ drop: z.unknown().optional() }),
  safetyLevel: 'safe',
  run: async (ctx, { drop }) => {
    ctx.body.chat('!');
    if (drop !== undefined) ctx.body.disconnect(drop as string);
  },
  acceptance: () => accepted,
});

/** Moves once, then reports a retryable runner failure (repairable once retries are used up). */
const fumble = defineFake({
  name: 'fumble',
  version: '1.0.0',
  description: 'drops what it holds',
  inputSchema: z.strictObject({}),
  run: async (ctx) => (ctx.body.move(1), { ok: false as const, code: 'runner_error' as const, reason: 'slipped' }),
  acceptance: () => accepted,
});

function setup(options: { repair?: RepairHook; logger?: Logger; provenance?: ProvenanceSink[] } = {}) {
  const clock = new ManualClock();
  const body = fakeBody();
  const metrics = createExecutorMetrics();
  const memory = createMemoryProvenance();
  const executor = createExecutor({ registry: registryWith(pace, yell, walker, fumble), body, clock, metrics, provenance: [memory, ...(options.provenance ?? [])], policy: { maxLocalRetries: 0 }, ...(options.repair ? { repair: options.repair } : {}), ...(options.logger ? { logger: options.logger } : {}) });
  return { clock, body, metrics, memory, executor };
}

describe('executor.state()', () => {
  it('idle, then running with its active step, preempting only while a preemption holds the body, and idle again', async () => {
    const s = setup();
    expect(s.executor.state()).toStrictEqual({ status: 'idle', waiting: 0, plansRunning: 0, preempting: false });
    const done = s.executor.run({ planId: 'lap', intentId: 'i', steps: [{ stepId: 'p', type: 'pace', args: { moves: 3 } }] });
    await s.clock.advance(30);
    expect(s.executor.state()).toStrictEqual({
      status: 'running',
      activeStep: { planId: 'lap', stepId: 'p', verb: 'pace', capability: 'pace@3.0.0-rc.1', attempt: 1, phase: 'running', sinceMs: 0, atomic: false },
      waiting: 0,
      plansRunning: 1,
      preempting: false,
    });
    const states: unknown[] = [];
    s.executor.on('step.dispatched', (e) => void (e.verb === 'yell' && states.push(s.executor.state())));
    const fast = s.executor.preempt([{ stepId: 'y', type: 'yell', args: {} }], { reason: 'creeper' });
    expect(s.executor.state().preempting).toBe(true);
    await Promise.all([fast, s.clock.flush()]);
    expect(states).toMatchObject([{ status: 'running', preempting: true, plansRunning: 1, activeStep: { planId: 'preempt-1', verb: 'yell' } }]);
    expect(s.executor.state().preempting).toBe(false);
    await s.clock.advance(1_000);
    await done;
    expect(s.executor.state()).toStrictEqual({ status: 'idle', waiting: 0, plansRunning: 0, preempting: false });
  });

  it('in a backoff, shows the step since its failed attempt began, not since the step was queued', async () => {
    const clock = new ManualClock();
    const executor = createExecutor({ registry: registryWith(pace, fumble), body: fakeBody(), clock, policy: { maxLocalRetries: 1, backoff: { initialMs: 400 } } });
    const first = executor.run({ planId: 'lap', intentId: 'i', steps: [{ stepId: 'p', type: 'pace', args: { moves: 3 } }] });
    await clock.advance(10);
    const second = executor.run({ planId: 'slip', intentId: 'i', steps: [{ stepId: 'f', type: 'fumble', args: {} }] });
    await clock.advance(340);
    expect(executor.state().activeStep).toMatchObject({ stepId: 'f', phase: 'backoff', attempt: 1, sinceMs: 300 });
    await clock.advance(2_000);
    await Promise.all([first, second]);
  });

  it('is running while a plan waits for its repair hook (no active step), closed once closed, with the plan still counted until it ends', async () => {
    let asked = 0;
    const s = setup({ repair: { repair: () => ((asked += 1), new Promise(() => {})) } });
    const waiting = s.executor.run({ planId: 'r2', intentId: 'i', steps: [{ stepId: 'f', type: 'fumble', args: {} }] });
    await s.clock.advance(0);
    expect(asked).toBe(1);
    expect(s.executor.state()).toStrictEqual({ status: 'running', waiting: 0, plansRunning: 1, preempting: false });
    await s.executor.close();
    expect(s.executor.state()).toStrictEqual({ status: 'closed', waiting: 0, plansRunning: 1, preempting: false });
    await s.clock.advance(60_000);
    await waiting;
    expect(s.executor.state()).toStrictEqual({ status: 'closed', waiting: 0, plansRunning: 0, preempting: false });
  });
});

describe('executor.preempt()', () => {
  it('runs its steps under a numbered plan whose intent names the reason (cut to 256 characters)', async () => {
    const s = setup();
    const long = `lava:${'~'.repeat(400)}`;
    const first = await s.executor.preempt([{ stepId: 'a', type: 'yell', args: {} }], { reason: 'mode:drowning' });
    const second = await s.executor.preempt([{ stepId: 'b', type: 'yell', args: {} }], { reason: long });
    expect(first[0]).toMatchObject({ planId: 'preempt-1', stepId: 'a', status: 'succeeded' });
    expect(second[0]).toMatchObject({ planId: 'preempt-2', stepId: 'b', status: 'succeeded' });
    const [a, b] = s.memory.records();
    expect(a).toMatchObject({ intentId: 'preempt:mode:drowning', preemptReason: 'mode:drowning' });
    expect(b!.intentId).toBe(`preempt:${long}`.slice(0, 256));
    expect(b!.intentId).toHaveLength(256);
    expect(b!.preemptReason).toBe(long);
    expect(await metric(s.metrics.registry, 'sinew_preemptions_total', { reason: 'mode:drowning' })).toBe(1);
  });

  it('a reason that is not a string is "unspecified"; no steps or a closed executor run nothing and interrupt nothing', async () => {
    const s = setup();
    const done = s.executor.run({ planId: 'lap', intentId: 'i', steps: [{ stepId: 'p', type: 'pace', args: { moves: 2 } }] });
    await s.clock.advance(30);
    expect(await s.executor.preempt([], { reason: 'nothing' })).toEqual([]);
    expect(await s.executor.preempt('yell' as never, { reason: 'not a list' })).toEqual([]);
    const odd = await Promise.all([s.executor.preempt([{ stepId: 'q', type: 'yell', args: {} }], { reason: 42 } as never), s.clock.flush()]);
    expect(odd[0]).toHaveLength(1);
    expect(s.memory.records().find((r) => r.stepId === 'q')).toMatchObject({ intentId: 'preempt:unspecified', preemptReason: 'unspecified' });
    expect(await metric(s.metrics.registry, 'sinew_preemptions_total', { reason: 'unspecified' })).toBe(1);
    expect(await metric(s.metrics.registry, 'sinew_preemptions_total')).toBe(1);
    await s.clock.advance(1_000);
    // interrupted once (by the one preemption that had steps)
    expect((await done).steps[0]).toMatchObject({ status: 'succeeded' });
    expect(s.memory.records().find((r) => r.stepId === 'p')!.preemptions).toBe(1);
    await s.executor.close();
    expect(await s.executor.preempt([{ stepId: 'late', type: 'yell', args: {} }], { reason: 'after close' })).toEqual([]);
    expect(await metric(s.metrics.registry, 'sinew_preemptions_total')).toBe(1);
  });

  it('given no options at all, runs its steps for an unspecified reason', async () => {
    const s = setup();
    const outcomes = await s.executor.preempt([{ stepId: 'bare', type: 'yell', args: {} }], undefined as never);
    expect(outcomes.map((o) => o.status)).toEqual(['succeeded']);
    expect(s.memory.records()[0]).toMatchObject({ preemptReason: 'unspecified' });
  });

  it('stops between its steps once the body disconnected', async () => {
    const s = setup();
    const outcomes = await s.executor.preempt(
      [
        { stepId: 'one', type: 'yell', args: { drop: 'cable' } },
        { stepId: 'two', type: 'yell', args: {} },
      ],
      { reason: 'r' },
    );
    expect(outcomes.map((o) => o.stepId)).toEqual(['one']);
    expect(s.body.calls).toEqual(['chat:!']);
  });
});

describe('the body disconnects', () => {
  const warnings: [string, unknown][] = [];
  const logger: Logger = { debug() {}, info() {}, warn: (message, fields) => void warnings.push([message, fields]), error() {} };

  async function disconnectDuring(reason: unknown) {
    warnings.length = 0;
    const s = setup({ logger });
    const done = s.executor.run({ planId: 'lap', intentId: 'i', steps: [{ stepId: 'p', type: 'pace', args: { moves: 5 } }] });
    await s.clock.advance(150);
    s.body.disconnect(reason as string);
    await s.clock.flush();
    return { s, outcome: await done };
  }

  it('ends the active step body_disconnected with the reason, cut to 500 characters, logged and counted once', async () => {
    const { s, outcome } = await disconnectDuring(`kicked: ${'z'.repeat(600)}`);
    const expected = `kicked: ${'z'.repeat(600)}`.slice(0, 500);
    expect(outcome.steps[0]).toMatchObject({ status: 'failed', failure: { code: 'body_disconnected', reason: `the body disconnected: ${expected}` } });
    expect(warnings).toContainEqual(['body disconnected', { reason: expected }]);
    s.body.disconnect('again');
    expect(await metric(s.metrics.registry, 'sinew_body_disconnects_total')).toBe(1);
    const later = await s.executor.run({ planId: 'after', intentId: 'i', steps: [{ stepId: 'q', type: 'pace', args: { moves: 1 } }] });
    expect(later).toMatchObject({ status: 'failed', steps: [], failure: { code: 'body_disconnected', reason: `the body disconnected: ${expected}` } });
  });

  it('an empty or unreadable reason is "unknown reason"', async () => {
    for (const reason of ['', undefined, { toString: () => 'object' }]) {
      const { outcome } = await disconnectDuring(reason);
      expect(outcome.steps[0]!.failure).toMatchObject({ code: 'body_disconnected', reason: 'the body disconnected: unknown reason' });
      expect(warnings.filter(([message]) => message === 'body disconnected')).toEqual([['body disconnected', { reason: 'unknown reason' }]]);
    }
  });

  it('while idle is not thrown back at the body, and the next plan is refused with the reason', async () => {
    const s = setup();
    expect(() => s.body.disconnect('server restart')).not.toThrow();
    const next = await s.executor.run({ planId: 'n', intentId: 'i', steps: [{ stepId: 'q', type: 'pace', args: { moves: 1 } }] });
    expect(next).toMatchObject({ status: 'failed', steps: [], failure: { code: 'body_disconnected', reason: 'the body disconnected: server restart' } });
  });

  it('after close() is not counted', async () => {
    const s = setup();
    await s.executor.close();
    s.body.disconnect('late');
    expect(await metric(s.metrics.registry, 'sinew_body_disconnects_total')).toBe(0);
  });
});

describe('createExecutor and close()', () => {
  it('refuses a body without sinew.onActuate, naming instrumentMethods', () => {
    const registry = registryWith(pace);
    for (const body of [{}, { sinew: {} }, { sinew: { onActuate: 'yes' } }, undefined]) {
      expect(() => createExecutor({ registry, body: body as never })).toThrow(/body has no sinew\.onActuate\(\); instrument it with instrumentMethods/);
    }
  });

  it('takes a body that cannot tell it disconnected (no sinew.onDisconnect) and runs on it', async () => {
    const lamp = instrumentMethods({ lit: false, toggle() { this.lit = !this.lit; } }, ['toggle']);
    const flick = defineFake({ name: 'flick', version: '1.0.0', description: 'flicks', inputSchema: z.strictObject({}), run: async (ctx) => void (ctx.body as unknown as typeof lamp).toggle(), acceptance: () => accepted });
    const executor = createExecutor({ registry: registryWith(flick), body: lamp as never, clock: new ManualClock() });
    expect((await executor.run({ planId: 'l', intentId: 'i', steps: [{ stepId: 'on', type: 'flick', args: {} }] })).status).toBe('completed');
    expect(lamp.lit).toBe(true);
  });

  it('primes a series at 0 for each of the body’s actuator commands, and stops priming new capabilities once closed', async () => {
    const s = setup();
    const commands = async () => ((await s.metrics.registry.getSingleMetric('sinew_actuator_commands_total')!.get()).values as { labels: { command?: unknown }; value: number }[]).map((v) => `${String(v.labels.command)}=${v.value}`).sort();
    expect(await commands()).toEqual(['chat=0', 'craft=0', 'dig=0', 'move=0']);
    const series = async (capability: string) => ((await s.metrics.registry.getSingleMetric('sinew_steps_total')!.get()).values as { labels: { capability?: string } }[]).filter((v) => v.labels.capability === capability).length;
    s.executor.registry.register(defineFake({ name: 'early', version: '1.0.0', description: 'e', inputSchema: z.strictObject({}), run: async () => {}, acceptance: () => accepted }));
    expect(await series('early')).toBeGreaterThan(0);
    await s.executor.close();
    s.executor.registry.register(defineFake({ name: 'late', version: '1.0.0', description: 'l', inputSchema: z.strictObject({}), run: async () => {}, acceptance: () => accepted }));
    expect(await series('late')).toBe(0);
  });

  it('resume() without a journal has nothing to resume', async () => {
    expect(await setup().executor.resume()).toBeUndefined();
  });

  it('closes its sinks once, however often it is closed', async () => {
    let closes = 0;
    const sink: ProvenanceSink = { write() {}, close: async () => void (closes += 1) };
    const s = setup({ provenance: [sink] });
    await s.executor.close();
    await s.executor.close();
    expect(closes).toBe(1);
    expect(s.executor.state().status).toBe('closed');
  });
});

describe('plan.started and the repair hook', () => {
  it('plan.started carries the plan, its intent and how many steps it has', async () => {
    const s = setup();
    const started: unknown[] = [];
    s.executor.on('plan.started', (e) => void started.push(e));
    const run = s.executor.run({ planId: 'three', intentId: 'walk-it', steps: [1, 2, 3].map((n) => ({ stepId: `s${n}`, type: 'pace', args: { moves: 1 } })) });
    await s.clock.advance(1_000);
    await run;
    expect(started).toStrictEqual([{ planId: 'three', intentId: 'walk-it', steps: 3 }]);
  });

  it('a plan cancelled while its repair hook is asked ends aborted as cancelled, not with the step’s failure', async () => {
    const s = setup({ repair: { repair: () => new Promise(() => {}) } });
    const controller = new AbortController();
    const run = s.executor.run({ planId: 'r', intentId: 'i', steps: [{ stepId: 'f', type: 'fumble', args: {} }] }, { signal: controller.signal });
    await s.clock.advance(10);
    controller.abort();
    const outcome = await run;
    expect(outcome).toMatchObject({ status: 'aborted', failedStepId: 'f', failure: { code: 'aborted', reason: 'the plan was cancelled' } });
    expect(outcome.steps[0]!.failure).toMatchObject({ code: 'runner_error', reason: 'slipped' });
  });

  it('a plan cancelled just as a step succeeded stops before its next step', async () => {
    const s = setup();
    const controller = new AbortController();
    s.executor.on('step.succeeded', () => controller.abort());
    const run = s.executor.run({ planId: 'two', intentId: 'i', steps: [{ stepId: 'one', type: 'yell', args: {} }, { stepId: 'two', type: 'yell', args: {} }] }, { signal: controller.signal });
    const outcome = await run;
    expect(outcome).toMatchObject({ status: 'aborted', failure: { code: 'aborted', reason: 'the plan was cancelled' } });
    expect(outcome.steps.map((o) => `${o.stepId}:${o.status}`)).toEqual(['one:succeeded']);
  });

  it('a repair step without a type is refused under an empty verb', async () => {
    const s = setup({ repair: { repair: () => ({ steps: [{ stepId: 'typeless' } as never], replace: true, reason: 'guess' }) } });
    const outcome = await s.executor.run({ planId: 'r', intentId: 'i', steps: [{ stepId: 'f', type: 'fumble', args: {} }] });
    expect(outcome.steps[1]).toMatchObject({ stepId: 'typeless', verb: '', status: 'failed', failure: { code: 'invalid_args' } });
  });

  it('a step the repair hook adds is checked in full: an unknown key is invalid_args', async () => {
    const s = setup({
      repair: { repair: () => ({ steps: [{ stepId: 'fix', type: 'pace', args: { moves: 1 }, flavour: 'mint' } as never], replace: true, reason: 'try pacing' }) },
    });
    const outcome = await s.executor.run({ planId: 'r', intentId: 'i', steps: [{ stepId: 'f', type: 'fumble', args: {} }] });
    const fix = outcome.steps.find((o) => o.stepId === 'fix');
    expect(fix).toMatchObject({ status: 'failed', failure: { code: 'invalid_args' } });
    expect(fix!.failure!.reason).toContain('flavour');
    expect(s.body.calls).toEqual(['move:1']);
  });
});
