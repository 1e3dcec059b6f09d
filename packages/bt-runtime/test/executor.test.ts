import { accepted, blackboardKey, ConfigError, ManualClock, type PlanStepInput, type Preemptor, type RepairHook, type RunContext } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createExecutorMetrics, createMemoryProvenance, PolicyError, StepAbortError, type ExecutorPolicyInput } from '../src/index.js';
import { craftItem, defineFake, digBlock, fakeBody, registryWith, type Body } from './fake-body.js';
import { metric } from './metric.js';

/** Resolves when the signal aborts: a runner that honours abort. */
const aborted = (signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));

/** Waits `ms` on the executor clock (ManualClock in tests); throws the abort reason if the signal aborts. */
const sleep = async (ctx: RunContext<Body>, ms: number) => {
  await ctx.sleep(ms);
  if (ctx.signal.aborted) throw ctx.signal.reason;
};

/** How many moves `walk` made in earlier attempts of the step. */
const DONE = blackboardKey<number>('walk.done');

const empty = z.object({});

/** Never acts, returns once aborted. */
const idle = defineFake({ name: 'idle', version: '1.0.0', description: 'never acts', inputSchema: empty, run: (ctx) => aborted(ctx.signal), acceptance: () => accepted });

/** Walks `steps` moves, one every `everyMs`. */
const walk = defineFake({
  name: 'walk',
  version: '1.0.0',
  description: 'walk some steps',
  inputSchema: z.object({ steps: z.number().int().positive(), everyMs: z.number().positive().default(200) }),
  guard: ({ body }) => (body.x < 1000 ? { ok: true } : { ok: false, code: 'guard_failed', reason: 'too far' }),
  run: async (ctx, { steps, everyMs }) => {
    const start = ctx.blackboard.get(DONE);
    for (let i = start ?? 0; i < steps; i += 1) {
      ctx.body.move(1);
      ctx.blackboard.set(DONE, i + 1);
      await sleep(ctx, everyMs);
    }
  },
  observe: ({ body }) => body.snapshot(),
  acceptance: (pre, post, { steps }) => (post.x - pre.x >= 1 || steps === 0 ? accepted : { ok: false, unmet: ['moved'] }),
  expectedDurationMs: 5000,
});

/** The fast-path safety capability. */
const flee = defineFake({
  name: 'flee',
  version: '1.0.0',
  description: 'run away',
  inputSchema: empty,
  safetyLevel: 'safe',
  run: async (ctx) => {
    ctx.body.move(-5);
  },
  observe: ({ body }) => body.snapshot(),
  acceptance: (pre, post) => (post.x < pre.x ? accepted : { ok: false, unmet: ['fled'] }),
});

function setup(policy: ExecutorPolicyInput = {}, repair?: RepairHook, extra: Parameters<typeof registryWith>[0][] = []) {
  const body = fakeBody();
  const clock = new ManualClock();
  const metrics = createExecutorMetrics();
  const provenance = createMemoryProvenance();
  const registry = registryWith(digBlock, craftItem, idle, walk, flee, ...extra);
  const executor = createExecutor({ registry, body, clock, metrics, provenance, policy, ...(repair ? { repair } : {}) });
  const r = metrics.registry;
  return { body, clock, metrics, registry: r, provenance, executor };
}

const plan = (steps: PlanStepInput[], planId = 'p1') => ({ planId, intentId: 'i1', steps });

describe('executor: PBI acceptance A1–A4', () => {
  it('A1: ttfa_exceeded when no actuator command within 2000 ms', async () => {
    const { executor, clock, registry, body } = setup({ maxLocalRetries: 0 });
    const done = executor.run(plan([{ stepId: 's1', type: 'idle' }]));
    let settled = false;
    void done.then(() => (settled = true));
    await clock.advance(1999);
    expect(settled).toBe(false);
    await clock.advance(1);
    const outcome = await done;
    expect(outcome.status).toBe('failed');
    expect(outcome.steps[0]).toMatchObject({ status: 'failed', failure: { code: 'ttfa_exceeded' }, attempts: 1, endedAt: 2000 });
    expect(body.calls).toEqual([]);
    expect(await metric(registry, 'sinew_watchdog_trips_total', { capability: 'idle', code: 'ttfa_exceeded' })).toBe(1);
    expect(await metric(registry, 'sinew_steps_total', { capability: 'idle', outcome: 'failed', code: 'ttfa_exceeded' })).toBe(1);
    expect(await metric(registry, 'sinew_step_ttfa_seconds_count', { capability: 'idle' })).toBe(0);
  });

  it('A1: TTFA is measured to the first actuator command and recorded', async () => {
    const late = defineFake({
      name: 'late_start',
      version: '1.0.0',
      description: 'acts after 1500 ms',
      inputSchema: empty,
      run: async (ctx) => {
        await sleep(ctx, 1500);
        ctx.body.chat('hello');
      },
      acceptance: () => accepted,
    });
    const { executor, clock, registry } = setup({}, undefined, [late]);
    const firstActions: number[] = [];
    executor.on('step.first_action', (e) => firstActions.push(e.ttfaMs));
    const done = executor.run(plan([{ stepId: 's1', type: 'late_start' }]));
    await clock.advance(1500);
    const outcome = await done;
    expect(outcome.steps[0]).toMatchObject({ status: 'succeeded', ttfaMs: 1500 });
    expect(firstActions).toEqual([1500]);
    expect(await metric(registry, 'sinew_step_ttfa_seconds_count', { capability: 'late_start' })).toBe(1);
    expect(await metric(registry, 'sinew_step_ttfa_seconds_sum', { capability: 'late_start' })).toBeCloseTo(1.5);
    expect(await metric(registry, 'sinew_actuator_commands_total', { command: 'chat' })).toBe(1);
  });

  it('A2: every step ends with a status, whether its runner throws, rejects, lies, resolves twice or never settles', async () => {
    let finishIgnored!: () => void;
    const runners: Record<string, (ctx: RunContext<Body>) => unknown> = {
      throws_sync: () => {
        throw new Error('sync boom');
      },
      rejects: async (ctx) => {
        ctx.body.chat('x');
        throw new Error('async boom');
      },
      malformed: async (ctx) => {
        ctx.body.chat('x');
        return 42;
      },
      twice: (ctx) => {
        ctx.body.chat('x');
        // A thenable that calls back twice, first with a failure: only the first settlement counts.
        return { then: (ok: (v: unknown) => void) => (ok({ ok: false, reason: 'first', retryable: false }), ok(undefined)) };
      },
      ignores_abort: (ctx) => {
        ctx.body.chat('x');
        return new Promise<void>((resolve) => (finishIgnored = resolve));
      },
    };
    const caps = Object.entries(runners).map(([name, run]) =>
      defineFake({ name, version: '1.0.0', description: name, inputSchema: empty, run: run as never, acceptance: () => accepted, expectedDurationMs: 100 }),
    );
    const { executor, clock, registry, provenance } = setup({ maxLocalRetries: 0, stuckMs: 60_000 }, undefined, caps);
    const outcomes = [];
    for (const name of Object.keys(runners)) {
      const done = executor.run(plan([{ stepId: name, type: name }], `plan-${name}`));
      await clock.advance(2000);
      outcomes.push((await done).steps[0]!);
    }
    expect(outcomes.map((o) => [o.stepId, o.status, o.failure?.code])).toEqual([
      ['throws_sync', 'failed', 'runner_error'],
      ['rejects', 'failed', 'runner_error'],
      ['malformed', 'failed', 'runner_error'],
      ['twice', 'failed', 'runner_error'],
      ['ignores_abort', 'failed', 'timeout'],
    ]);
    expect(outcomes[1]!.failure?.reason).toContain('async boom');
    expect(outcomes[3]!.failure?.reason).toBe('first');
    expect(await metric(registry, 'sinew_runners_abandoned_total', { capability: 'ignores_abort' })).toBe(1);
    expect(await metric(registry, 'sinew_late_results_dropped_total', { capability: 'ignores_abort' })).toBe(0);
    finishIgnored();
    await clock.flush();
    expect(await metric(registry, 'sinew_late_results_dropped_total', { capability: 'ignores_abort' })).toBe(1);
    expect(await metric(registry, 'sinew_steps_total', { outcome: 'failed' })).toBe(5);
    expect(await metric(registry, 'sinew_steps_total')).toBe(5);
    expect(provenance.records()).toHaveLength(5);
    expect(executor.state()).toMatchObject({ status: 'idle', waiting: 0 });
    expect(await metric(registry, 'sinew_active_steps')).toBe(0);
  });

  it('A2: a hanging observe() (before or after the runner) ends the step with timeout instead of hanging', async () => {
    let calls = 0;
    let hangOn = 1;
    const blind = defineFake({
      name: 'blind',
      version: '1.0.0',
      description: 'its world snapshot never arrives',
      inputSchema: empty,
      run: async (ctx) => ctx.body.chat('acting'),
      observe: () => ((calls += 1) === hangOn ? new Promise<never>(() => {}) : Promise.resolve({ blocks: [], inventory: {}, x: 0 })),
      acceptance: () => accepted,
      expectedDurationMs: 100,
    });
    const { executor, clock, registry, body } = setup({ maxLocalRetries: 0 }, undefined, [blind]);
    const pre = executor.run(plan([{ stepId: 'pre', type: 'blind' }], 'p1'));
    await clock.advance(300);
    expect((await pre).steps[0]).toMatchObject({ status: 'failed', failure: { code: 'timeout' }, endedAt: 300 });
    expect(body.calls).toEqual([]);
    calls = 0;
    hangOn = 2;
    const post = executor.run(plan([{ stepId: 'post', type: 'blind' }], 'p2'));
    await clock.advance(300);
    expect((await post).steps[0]).toMatchObject({ status: 'failed', failure: { code: 'timeout' } });
    expect(body.calls).toEqual(['chat:acting']);
    expect(await metric(registry, 'sinew_watchdog_trips_total', { capability: 'blind', code: 'timeout' })).toBe(2);
    expect(clock.pending()).toBe(0);
  });

  it('A3: at most 2 local retries with backoff, then repair(), then the plan fails with the step code', async () => {
    let attempts = 0;
    const flaky = defineFake({
      name: 'flaky',
      version: '1.0.0',
      description: 'always fails',
      inputSchema: empty,
      run: async (ctx) => {
        attempts += 1;
        ctx.body.chat(`try ${attempts}`);
        return { ok: false, reason: 'no luck' };
      },
      acceptance: () => accepted,
    });
    const repairs: string[] = [];
    const { executor, clock, registry } = setup({}, { repair: ({ failure }) => (repairs.push(failure.code), undefined) }, [flaky]);
    const retries: number[] = [];
    executor.on('step.retry', (e) => retries.push(e.backoffMs));
    const done = executor.run(plan([{ stepId: 's1', type: 'flaky' }]));
    await clock.flush();
    expect(attempts).toBe(1);
    await clock.advance(249);
    expect(attempts).toBe(1);
    await clock.advance(1);
    expect(attempts).toBe(2);
    await clock.advance(500);
    expect(attempts).toBe(3);
    const outcome = await done;
    expect(attempts).toBe(3);
    expect(retries).toEqual([250, 500]);
    expect(repairs).toEqual(['runner_error']);
    expect(outcome).toMatchObject({ status: 'failed', failure: { code: 'runner_error' }, failedStepId: 's1' });
    expect(outcome.steps[0]).toMatchObject({ attempts: 3 });
    expect(await metric(registry, 'sinew_step_retries_total', { capability: 'flaky', code: 'runner_error' })).toBe(2);
    expect(await metric(registry, 'sinew_plan_repairs_total', { reason: 'runner_error', result: 'none' })).toBe(1);
    expect(await metric(registry, 'sinew_plans_total', { status: 'failed' })).toBe(1);
  });

  it('A4: stuck after 3000 ms with no actuator command, node transition or progress()', async () => {
    const stall = defineFake({
      name: 'stall',
      version: '1.0.0',
      description: 'acts, reports progress for a while, then stalls',
      inputSchema: empty,
      run: async (ctx) => {
        ctx.body.move(1);
        for (let i = 0; i < 4; i += 1) {
          await sleep(ctx, 1000);
          ctx.progress(`tick ${i}`);
        }
        await aborted(ctx.signal);
      },
      acceptance: () => accepted,
    });
    const { executor, clock, registry, provenance } = setup({ maxLocalRetries: 0 }, undefined, [stall]);
    const done = executor.run(plan([{ stepId: 's1', type: 'stall' }]));
    // Last progress at 4000 ms: stuck trips at 7000, not before.
    await clock.advance(6999);
    expect(executor.state().activeStep?.stepId).toBe('s1');
    await clock.advance(1);
    const outcome = await done;
    expect(outcome.steps[0]).toMatchObject({ status: 'failed', failure: { code: 'stuck' }, endedAt: 7000 });
    expect(await metric(registry, 'sinew_step_stuck_total', { capability: 'stall' })).toBe(1);
    expect(await metric(registry, 'sinew_watchdog_trips_total', { capability: 'stall', code: 'stuck' })).toBe(1);
    expect(provenance.records()[0]!.trace.map((t) => t.kind)).toEqual(['command', 'progress', 'progress', 'progress', 'progress']);
  });
});

describe('executor: invariants I1–I4', () => {
  it('I1: one active step per executor, even with concurrent plans', async () => {
    const { executor, clock, registry, body } = setup();
    let active = 0;
    let maxActive = 0;
    const gauge: number[] = [];
    const slow = defineFake({
      name: 'slow',
      version: '1.0.0',
      description: 'takes 300 ms',
      inputSchema: z.object({ tag: z.string() }),
      run: async (ctx, { tag }) => {
        active += 1;
        maxActive = Math.max(maxActive, active);
        gauge.push(await metric(registry, 'sinew_active_steps'));
        ctx.body.chat(`${tag}:start`);
        await sleep(ctx, 300);
        ctx.body.chat(`${tag}:end`);
        active -= 1;
      },
      acceptance: () => accepted,
    });
    executor.registry.register(slow);
    const a = executor.run(plan([{ stepId: 'a1', type: 'slow', args: { tag: 'a1' } }, { stepId: 'a2', type: 'slow', args: { tag: 'a2' } }], 'A'));
    const b = executor.run(plan([{ stepId: 'b1', type: 'slow', args: { tag: 'b1' } }], 'B'));
    await clock.flush();
    expect(executor.state()).toMatchObject({ status: 'running', plansRunning: 2, waiting: 1 });
    await clock.advance(1000);
    expect((await a).status).toBe('completed');
    expect((await b).status).toBe('completed');
    expect(maxActive).toBe(1);
    expect(gauge).toEqual([1, 1, 1]);
    expect(await metric(registry, 'sinew_active_steps')).toBe(0);
    // Never interleaved: each step's start is followed by its own end.
    expect(body.calls).toEqual(['chat:a1:start', 'chat:a1:end', 'chat:b1:start', 'chat:b1:end', 'chat:a2:start', 'chat:a2:end']);
  });

  it('I2: every attempt has a deadline: expectedDurationMs × 3 (policy), default 30 s', async () => {
    const busy = defineFake({
      name: 'busy',
      version: '1.0.0',
      description: 'moves forever, never finishes',
      inputSchema: empty,
      run: async (ctx) => {
        for (;;) {
          ctx.body.move(1);
          await sleep(ctx, 500);
        }
      },
      acceptance: () => accepted,
    });
    const { executor, clock, registry } = setup({ maxLocalRetries: 0 }, undefined, [busy]);
    const first = executor.run(plan([{ stepId: 's1', type: 'busy', expectedDurationMs: 1000 }]));
    await clock.advance(2999);
    expect(executor.state().activeStep?.stepId).toBe('s1');
    await clock.advance(1);
    expect((await first).steps[0]).toMatchObject({ failure: { code: 'timeout' }, endedAt: 3000 });
    const second = executor.run(plan([{ stepId: 's2', type: 'busy' }], 'p2'));
    await clock.advance(30_000);
    expect((await second).steps[0]).toMatchObject({ failure: { code: 'timeout' } });
    expect((await second).steps[0]!.endedAt - (await second).steps[0]!.startedAt).toBe(30_000);
    expect(await metric(registry, 'sinew_watchdog_trips_total', { capability: 'busy', code: 'timeout' })).toBe(2);
  });

  it('A3: a capability\'s retry overrides the policy field by field (backoff.initialMs here, factor and maxMs from the policy)', async () => {
    let attempts = 0;
    const flaky = defineFake({
      name: 'flaky',
      version: '1.0.0',
      description: 'always fails',
      inputSchema: empty,
      retry: { maxLocalRetries: 3, backoff: { initialMs: 40 } },
      run: async (ctx) => {
        attempts += 1;
        ctx.body.chat(`try ${attempts}`);
        return { ok: false, reason: 'no luck' };
      },
      acceptance: () => accepted,
    });
    const { executor, clock } = setup({ maxLocalRetries: 2, backoff: { initialMs: 10, factor: 3, maxMs: 100 } }, undefined, [flaky]);
    const retries: number[] = [];
    executor.on('step.retry', (e) => retries.push(e.backoffMs));
    const done = executor.run(plan([{ stepId: 's1', type: 'flaky' }]));
    await clock.advance(1000);
    const outcome = await done;
    // The capability asks for 3 retries; the executor's 2 cap it. 40, then 40 × 3 capped at 100.
    expect(retries).toEqual([40, 100]);
    expect(outcome).toMatchObject({ status: 'failed', failure: { code: 'runner_error' } });
  });

  it('I2: a zero or negative deadline is rejected when the policy is built', () => {
    const build = (policy: ExecutorPolicyInput) => () => createExecutor({ registry: registryWith(), body: fakeBody(), policy });
    expect(build({ ttfaMs: 0 })).toThrow(PolicyError);
    expect(build({ ttfaMs: 0 })).toThrow(/ttfaMs must be > 0 ms/);
    expect(build({ stuckMs: -5 })).toThrow(/stuckMs/);
    expect(build({ capabilities: { dig_block: { timeoutMs: 0 } } })).toThrow(/capabilities\.dig_block\.timeoutMs/);
    expect(build({ backoff: { initialMs: 500, maxMs: 100 } })).toThrow(/backoff\.maxMs must be >= backoff\.initialMs/);
    expect(build({ maxLocalRetries: 1.5 } as ExecutorPolicyInput)).toThrow(/maxLocalRetries/);
    // One ConfigError across the packages: the code, where, the field path and each issue.
    expect(build({ ttfaMs: -1 })).toThrow(ConfigError);
    expect(build({ ttfaMs: -1 })).toThrow(
      expect.objectContaining({ code: 'invalid_config', where: 'executor.policy', path: ['ttfaMs'], issues: [{ path: ['ttfaMs'], code: 'too_small', message: expect.stringContaining('> 0') }] }),
    );
    expect(createExecutor({ registry: registryWith(), body: fakeBody() }).policy).toMatchObject({ ttfaMs: 2000, stuckMs: 3000, maxLocalRetries: 2 });
  });

  it('I3: retries exhausted → repair() replacement steps run and the plan completes', async () => {
    let tries = 0;
    const shaky = defineFake({
      name: 'shaky',
      version: '1.0.0',
      description: 'never acts',
      inputSchema: empty,
      run: async (ctx) => {
        tries += 1;
        await aborted(ctx.signal);
      },
      acceptance: () => accepted,
    });
    const requests: string[] = [];
    const repair: RepairHook = {
      repair: ({ failure, step, repairsSoFar }) => {
        requests.push(`${step.stepId}:${failure.code}:${repairsSoFar}`);
        return { steps: [{ stepId: 'alt', type: 'walk', args: { steps: 1 } }], replace: true, reason: 'walk instead' };
      },
    };
    const { executor, clock, registry, body } = setup({ backoff: { initialMs: 100 } }, repair, [shaky]);
    const done = executor.run(plan([{ stepId: 's1', type: 'shaky' }]));
    await clock.advance(2000 + 100 + 2000 + 200 + 2000 + 200);
    const outcome = await done;
    expect(tries).toBe(3);
    expect(requests).toEqual(['s1:ttfa_exceeded:0']);
    expect(outcome.status).toBe('completed');
    expect(outcome.repairs).toBe(1);
    expect(outcome.steps.map((s) => [s.stepId, s.status, s.failure?.code])).toEqual([
      ['s1', 'failed', 'ttfa_exceeded'],
      ['alt', 'succeeded', undefined],
    ]);
    expect(body.calls).toEqual(['move:1']);
    expect(await metric(registry, 'sinew_step_retries_total', { capability: 'shaky', code: 'ttfa_exceeded' })).toBe(2);
    expect(await metric(registry, 'sinew_plan_repairs_total', { reason: 'ttfa_exceeded', result: 'steps' })).toBe(1);
    expect(await metric(registry, 'sinew_plans_total', { status: 'completed' })).toBe(1);
  });

  it('I4: only registry verbs run — an unregistered verb or version never reaches the body', async () => {
    const { executor, clock, registry, body } = setup();
    const done = executor.run(plan([{ stepId: 's1', type: 'dig_block', args: { block: 'log_1' }, capabilityVersion: '^2' }]));
    await clock.flush();
    const outcome = await done;
    expect(outcome.steps[0]).toMatchObject({ status: 'failed', failure: { code: 'unknown_verb' }, attempts: 0 });
    expect(outcome.steps[0]!.failure!.reason).toContain('no version of dig_block satisfies ^2');
    expect(body.calls).toEqual([]);
    expect(await metric(registry, 'sinew_actuator_commands_total')).toBe(0);
    expect(await metric(registry, 'sinew_steps_total', { capability: 'unknown', code: 'unknown_verb' })).toBe(1);
  });
});

describe('executor: failure-mode cards', () => {
  it('a deprecated alias with invalid args is counted once and fails invalid_args naming the field', async () => {
    const stroll = defineFake({ name: 'stroll', version: '1.0.0', description: 'walk a little', inputSchema: z.object({ steps: z.number() }), aliases: ['amble'], run: async (ctx) => ctx.body.move(1), acceptance: () => accepted });
    const { executor, body } = setup({}, undefined, [stroll]);
    const outcome = await executor.run(plan([{ stepId: 'a', type: 'amble', args: { steps: 'two' } }]));
    expect(outcome.steps[0]).toMatchObject({ status: 'failed', attempts: 0, failure: { code: 'invalid_args', issues: [{ path: ['steps'] }], reason: expect.stringContaining('invalid args for stroll@1.0.0') } });
    expect(executor.registry.aliasUses().get('amble')).toBe(1);
    expect(body.calls).toEqual([]);
  });

  it('a refusal before dispatch is counted under the capability its verb resolved to; only an unknown verb is `unknown`', async () => {
    const { executor, registry, body } = setup({ maxLocalRetries: 0 });
    const steps: PlanStepInput[] = [
      { stepId: 'typo', type: 'craft_item', args: { itme: 'stick' } },
      { stepId: 'no-log', type: 'dig_block', args: { block: 'log_9' } },
      { stepId: 'no-planks', type: 'craft_item', args: { item: 'stick' } },
      { stepId: 'once', type: 'chat_say', args: {} },
    ];
    const codes: (string | undefined)[] = [];
    for (const [index, step] of steps.entries()) codes.push((await executor.run(plan([step], `refused-${index}`))).failure?.code);
    expect(codes).toEqual(['invalid_args', 'guard_failed', 'precond_missing', 'unknown_verb']);
    // A step the plan schema did not check (a preemption's) resolves the same way.
    const [fast] = await executor.preempt([{ stepId: 'fast', type: 'dig_block', args: { blok: 'log_1' } }], { reason: 'typo under pressure' });
    expect(fast).toMatchObject({ status: 'failed', attempts: 0, failure: { code: 'invalid_args' }, capability: { name: 'dig_block', version: '1.0.0' } });
    const keyed = { stepId: 'k', type: 'dig_block', args: { block: 'log_1' }, idempotencyKey: 'dig-log-1' };
    await executor.run(plan([keyed], 'first'));
    await executor.run(plan([keyed], 'again'));
    const stepsTotal = (labels: Record<string, string>) => metric(registry, 'sinew_steps_total', labels);
    expect(await stepsTotal({ capability: 'craft_item', version: '1.0.0', outcome: 'failed', code: 'invalid_args' })).toBe(1);
    expect(await stepsTotal({ capability: 'dig_block', version: '1.0.0', outcome: 'failed', code: 'invalid_args' })).toBe(1);
    expect(await stepsTotal({ capability: 'dig_block', version: '1.0.0', outcome: 'failed', code: 'guard_failed' })).toBe(1);
    expect(await stepsTotal({ capability: 'craft_item', version: '1.0.0', outcome: 'failed', code: 'precond_missing' })).toBe(1);
    expect(await stepsTotal({ capability: 'dig_block', version: '1.0.0', outcome: 'duplicate', code: 'duplicate' })).toBe(1);
    expect(await stepsTotal({ capability: 'unknown', version: 'none', outcome: 'failed', code: 'unknown_verb' })).toBe(1);
    expect(await stepsTotal({ capability: 'unknown' })).toBe(1);
    expect(body.calls).toEqual(['dig:log_1']);
  });

  it('step.dispatched carries the step, capability@version and attempt number to its listeners', async () => {
    const { executor } = setup();
    const first = await executor.run(plan([{ stepId: 's1', type: 'dig_block', args: { block: 'log_1' } }], 'before'));
    expect(first.status).toBe('completed');
    const dispatched: unknown[] = [];
    executor.on('step.dispatched', (e) => dispatched.push(e));
    await executor.run(plan([{ stepId: 's2', type: 'dig_block', args: { block: 'log_2' } }], 'after'));
    expect(dispatched).toEqual([{ planId: 'after', stepId: 's2', verb: 'dig_block', capability: 'dig_block@1.0.0', attempt: 1 }]);
  });

  it('FM-01: an unknown verb fails fast with unknown_verb and suggestions, no dispatch, no TTFA wait', async () => {
    const { executor, registry, body } = setup();
    const dispatched: string[] = [];
    executor.on('step.dispatched', (e) => dispatched.push(e.stepId));
    const outcome = await executor.run(plan([{ stepId: 's1', type: 'dig_blok', args: { block: 'log_1' } }, { stepId: 's2', type: 'dig_block', args: { block: 'log_2' } }]));
    expect(outcome).toMatchObject({ status: 'failed', failedStepId: 's1', failure: { code: 'unknown_verb', suggestions: ['dig_block'] } });
    expect(outcome.steps).toHaveLength(1);
    expect(outcome.endedAt - outcome.startedAt).toBe(0);
    expect(dispatched).toEqual([]);
    expect(body.calls).toEqual([]);
    expect(await metric(registry, 'sinew_steps_total', { capability: 'unknown', version: 'none', outcome: 'failed', code: 'unknown_verb' })).toBe(1);
    expect(await metric(registry, 'sinew_plan_repairs_total')).toBe(0);
  });

  it('FM-02: precond_missing goes to the repair hook, whose subgoal runs first, then the step succeeds', async () => {
    const seen: { missing?: readonly string[] }[] = [];
    const repair: RepairHook = {
      repair: ({ failure }) => {
        seen.push({ missing: failure.missing ?? [] });
        return { steps: [{ stepId: 'sub-planks', type: 'craft_item', args: { item: 'planks' } }], reason: 'craft the missing planks' };
      },
    };
    const { executor, clock, registry, body } = setup({}, repair);
    body.inventory.log = 1;
    const done = executor.run(plan([{ stepId: 'stick', type: 'craft_item', args: { item: 'stick' } }]));
    await clock.flush();
    const outcome = await done;
    expect(seen).toEqual([{ missing: ['has_item:planks'] }]);
    expect(outcome.status).toBe('completed');
    expect(outcome.steps.map((s) => [s.stepId, s.status, s.failure?.code])).toEqual([
      ['stick', 'failed', 'precond_missing'],
      ['sub-planks', 'succeeded', undefined],
      ['stick', 'succeeded', undefined],
    ]);
    expect(body.calls).toEqual(['craft:planks', 'craft:stick']);
    expect(await metric(registry, 'sinew_plan_repairs_total', { reason: 'precond_missing', result: 'steps' })).toBe(1);
    expect(await metric(registry, 'sinew_steps_total', { capability: 'craft_item', outcome: 'failed', code: 'precond_missing' })).toBe(1);
    expect(await metric(registry, 'sinew_steps_total', { capability: 'craft_item', outcome: 'succeeded' })).toBe(2);
    expect(await metric(registry, 'sinew_step_retries_total')).toBe(0);
  });

  it('FM-02: without a repair hook precond_missing fails the plan at once, never retried locally', async () => {
    const { executor, registry, body } = setup();
    const outcome = await executor.run(plan([{ stepId: 'stick', type: 'craft_item', args: { item: 'stick' } }]));
    expect(outcome).toMatchObject({ status: 'failed', failure: { code: 'precond_missing', missing: ['has_item:planks'] } });
    expect(body.calls).toEqual([]);
    expect(await metric(registry, 'sinew_step_retries_total')).toBe(0);
    expect(await metric(registry, 'sinew_steps_total', { code: 'precond_missing' })).toBe(1);
  });

  it('FM-05: a completed idempotency key returns the recorded outcome as duplicate; never dug twice', async () => {
    const { executor, clock, registry, body } = setup();
    const first = executor.run(plan([{ stepId: 's1', type: 'dig_block', args: { block: 'log_1' }, idempotencyKey: 'dig:log_1' }], 'p1'));
    await clock.flush();
    expect((await first).status).toBe('completed');
    const again = await executor.run(plan([{ stepId: 's9', type: 'dig_block', args: { block: 'log_1' }, idempotencyKey: 'dig:log_1' }], 'p2'));
    expect(again.status).toBe('completed');
    expect(again.steps[0]).toMatchObject({ planId: 'p2', stepId: 's9', status: 'succeeded', failure: { code: 'duplicate' } });
    expect(again.steps[0]!.failure!.reason).toContain('p1:s1');
    expect(body.calls).toEqual(['dig:log_1']);
    expect(await metric(registry, 'sinew_step_duplicates_total', { capability: 'dig_block', kind: 'completed' })).toBe(1);
    expect(await metric(registry, 'sinew_steps_total', { capability: 'dig_block', outcome: 'duplicate', code: 'duplicate' })).toBe(1);
    expect(await metric(registry, 'sinew_steps_total', { capability: 'dig_block', outcome: 'succeeded' })).toBe(1);
  });

  it('FM-05: an in-flight key joins the running attempt instead of dispatching again', async () => {
    const { executor, clock, registry, body } = setup();
    const step = { stepId: 'w', type: 'walk', args: { steps: 3 }, idempotencyKey: 'walk-3' };
    const a = executor.run(plan([step], 'A'));
    await clock.advance(100);
    const b = executor.run(plan([{ ...step, stepId: 'w-copy' }], 'B'));
    await clock.advance(1000);
    const [ra, rb] = await Promise.all([a, b]);
    expect(ra.steps[0]).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(rb.steps[0]).toMatchObject({ planId: 'B', stepId: 'w-copy', status: 'succeeded', failure: { code: 'duplicate' } });
    expect(body.calls).toEqual(['move:1', 'move:1', 'move:1']);
    expect(await metric(registry, 'sinew_step_duplicates_total', { capability: 'walk', kind: 'in_flight' })).toBe(1);
  });

  it('FM-05: a failed key is forgotten so the planner may dispatch it again', async () => {
    const { executor, body, registry } = setup();
    const step = { stepId: 's1', type: 'dig_block', args: { block: 'log_9' }, idempotencyKey: 'dig:log_9' };
    expect((await executor.run(plan([step], 'p1'))).steps[0]!.failure?.code).toBe('guard_failed');
    body.blocks.add('log_9');
    expect((await executor.run(plan([step], 'p2'))).steps[0]).toMatchObject({ status: 'succeeded' });
    expect(body.calls).toEqual(['dig:log_9']);
    expect(await metric(registry, 'sinew_step_duplicates_total')).toBe(0);
    expect(await metric(registry, 'sinew_steps_total', { capability: 'dig_block', outcome: 'succeeded' })).toBe(1);
  });
});

describe('executor: bounds', () => {
  it('remembers at most idempotencyCapacity completed keys, oldest forgotten first', async () => {
    const { executor, body } = setup({ idempotencyCapacity: 2 });
    const chat = defineFake({ name: 'say', version: '1.0.0', description: 'chat', inputSchema: z.object({ m: z.string() }), run: async (ctx, { m }) => ctx.body.chat(m), acceptance: () => accepted });
    executor.registry.register(chat);
    const say = (m: string, planId: string) => executor.run(plan([{ stepId: m, type: 'say', args: { m }, idempotencyKey: `say:${m}` }], planId));
    await say('a', 'p1');
    await say('b', 'p2');
    await say('c', 'p3');
    await say('c', 'p4'); // still remembered
    await say('a', 'p5'); // forgotten: dispatched again
    expect(body.calls).toEqual(['chat:a', 'chat:b', 'chat:c', 'chat:a']);
  });

  it('a repair hook that never answers is given up after repairTimeoutMs; the plan fails with the step code', async () => {
    const repair: RepairHook = { repair: () => new Promise(() => {}) };
    const { executor, clock, registry } = setup({ repairTimeoutMs: 5000 }, repair);
    const done = executor.run(plan([{ stepId: 'stick', type: 'craft_item', args: { item: 'stick' } }]));
    await clock.advance(4999);
    expect(executor.state().plansRunning).toBe(1);
    await clock.advance(1);
    expect(await done).toMatchObject({ status: 'failed', repairs: 0, failure: { code: 'precond_missing' }, endedAt: 5000 });
    expect(await metric(registry, 'sinew_plan_repairs_total', { reason: 'precond_missing', result: 'timeout' })).toBe(1);
  });

  it('asks repair() at most maxRepairsPerPlan times, then fails with the step code', async () => {
    let asked = 0;
    const repair: RepairHook = { repair: () => (asked += 1, { steps: [{ stepId: 'again', type: 'craft_item', args: { item: 'stick' } }], replace: true, reason: 'try again' }) };
    const { executor, registry } = setup({ maxRepairsPerPlan: 2 }, repair);
    const outcome = await executor.run(plan([{ stepId: 'stick', type: 'craft_item', args: { item: 'stick' } }]));
    expect(asked).toBe(2);
    expect(outcome).toMatchObject({ status: 'failed', repairs: 2, failure: { code: 'precond_missing' } });
    expect(outcome.steps).toHaveLength(3);
    expect(await metric(registry, 'sinew_plan_repairs_total', { reason: 'precond_missing', result: 'steps' })).toBe(2);
  });
});

describe('executor: acceptance, cancellation, input', () => {
  it('V4: a runner that changes nothing ends effects_unmet with the unmet effects', async () => {
    const { executor, body, registry } = setup({ maxLocalRetries: 0 });
    body.blocks.delete('log_1');
    // Guard passes on a block that the body cannot actually dig (it vanished between guard and run).
    const sneaky = defineFake({
      name: 'dig_ghost',
      version: '1.0.0',
      description: 'digs nothing',
      inputSchema: z.object({ block: z.string() }),
      run: async (ctx, { block }) => {
        ctx.body.dig(block);
      },
      observe: ({ body: b }) => b.snapshot(),
      acceptance: (pre, post) => ((post.inventory.log ?? 0) > (pre.inventory.log ?? 0) ? accepted : { ok: false, unmet: ['has_item:log'] }),
    });
    executor.registry.register(sneaky);
    const outcome = await executor.run(plan([{ stepId: 's1', type: 'dig_ghost', args: { block: 'log_1' } }]));
    expect(outcome.steps[0]).toMatchObject({ status: 'failed', failure: { code: 'effects_unmet', unmet: ['has_item:log'] } });
    expect(await metric(registry, 'sinew_steps_total', { code: 'effects_unmet' })).toBe(1);
  });

  it('a cancelled plan aborts the active step through its AbortSignal and ends aborted', async () => {
    const { executor, clock, registry } = setup();
    const controller = new AbortController();
    let reason: unknown;
    const watcher = defineFake({
      name: 'watcher',
      version: '1.0.0',
      description: 'acts then waits',
      inputSchema: empty,
      run: async (ctx) => {
        ctx.body.chat('on');
        await aborted(ctx.signal);
        reason = ctx.signal.reason;
      },
      acceptance: () => accepted,
    });
    executor.registry.register(watcher);
    const done = executor.run(plan([{ stepId: 's1', type: 'watcher' }, { stepId: 's2', type: 'flee' }]), { signal: controller.signal });
    await clock.advance(500);
    controller.abort();
    await clock.flush();
    const outcome = await done;
    expect(outcome).toMatchObject({ status: 'aborted', failure: { code: 'aborted' } });
    expect(outcome.steps).toHaveLength(1);
    expect(reason).toBeInstanceOf(StepAbortError);
    expect((reason as StepAbortError).code).toBe('aborted');
    expect(await metric(registry, 'sinew_plans_total', { status: 'aborted' })).toBe(1);
  });

  it('a malformed plan is a failed outcome naming the field, never a throw', async () => {
    const { executor } = setup();
    const outcome = await executor.run({ planId: 'p', steps: [{ type: 'dig_block' }] });
    expect(outcome.status).toBe('failed');
    expect(outcome.failure?.code).toBe('invalid_args');
    expect(outcome.failure?.issues?.map((i) => i.path.join('.'))).toEqual(expect.arrayContaining(['intentId', 'steps.0.stepId']));
    const bad = await executor.run(plan([{ stepId: 's1', type: 'dig_block', args: { block: 7 } }]));
    expect(bad.steps[0]).toMatchObject({ failure: { code: 'invalid_args', issues: [{ path: ['block'] }] } });
  });
});

describe('executor: preemption', () => {
  it('aborts the active step, runs the fast-path steps, then re-guards and resumes the step', async () => {
    const { executor, clock, registry, body } = setup();
    const events: string[] = [];
    executor.on('step.preempted', (e) => events.push(`preempted:${e.stepId}:${e.reason}`));
    executor.on('step.resumed', (e) => events.push(`resumed:${e.stepId}`));
    executor.on('step.succeeded', (e) => events.push(`succeeded:${e.stepId}`));
    // 8 moves: the resumed attempt is judged from the interrupted one's pre (x 0), so the flee's -5 counts against it.
    const done = executor.run(plan([{ stepId: 'walk', type: 'walk', args: { steps: 8 } }]));
    await clock.advance(300);
    const preempted = executor.preempt([{ stepId: 'flee', type: 'flee', args: {} }], { reason: 'hostile close' });
    await clock.flush();
    const fast = await preempted;
    expect(fast.map((o) => [o.stepId, o.status])).toEqual([['flee', 'succeeded']]);
    await clock.advance(3000);
    const outcome = await done;
    expect(outcome.status).toBe('completed');
    expect(outcome.steps[0]).toMatchObject({ stepId: 'walk', status: 'succeeded', attempts: 1 });
    // Two moves before the flee, the rest after it (blackboard kept across the resume).
    expect(body.calls).toEqual(['move:1', 'move:1', 'move:-5', ...Array<string>(6).fill('move:1')]);
    expect(events).toEqual(['preempted:walk:hostile close', 'succeeded:flee', 'resumed:walk', 'succeeded:walk']);
    expect(await metric(registry, 'sinew_preemptions_total', { reason: 'hostile_close' })).toBe(1);
  });

  it('waits for an atomic capability to finish before running the fast path', async () => {
    const craftSlow = defineFake({
      name: 'craft_slow',
      version: '1.0.0',
      description: 'atomic crafting',
      inputSchema: empty,
      atomic: true,
      run: async (ctx) => {
        ctx.body.craft('table', {});
        await sleep(ctx, 500);
        ctx.body.chat('crafted');
      },
      acceptance: () => accepted,
    });
    const { executor, clock, body } = setup({}, undefined, [craftSlow]);
    const done = executor.run(plan([{ stepId: 'c', type: 'craft_slow' }]));
    await clock.advance(100);
    const fast = executor.preempt([{ stepId: 'flee', type: 'flee' }], { reason: 'lava' });
    await clock.advance(500);
    expect((await fast)[0]!.status).toBe('succeeded');
    expect((await done).steps[0]).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(body.calls).toEqual(['craft:table', 'chat:crafted', 'move:-5']);
  });

  it('an atomic step that fails yields to a waiting preemption before its retry (safe point), then resumes', async () => {
    let attempt = 0;
    const atomicFlaky = defineFake({
      name: 'atomic_flaky',
      version: '1.0.0',
      description: 'atomic, fails once',
      inputSchema: empty,
      atomic: true,
      run: async (ctx) => {
        attempt += 1;
        ctx.body.craft(`t${attempt}`, {});
        await sleep(ctx, 300);
        return attempt === 1 ? { ok: false, reason: 'slipped' } : undefined;
      },
      acceptance: () => accepted,
    });
    const { executor, clock, body } = setup({}, undefined, [atomicFlaky]);
    const done = executor.run(plan([{ stepId: 'a', type: 'atomic_flaky' }]));
    await clock.advance(100);
    const fast = executor.preempt([{ stepId: 'flee', type: 'flee' }], { reason: 'lava' });
    await clock.advance(200);
    expect((await fast)[0]).toMatchObject({ status: 'succeeded', endedAt: 300 });
    await clock.advance(300);
    expect((await done).steps[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(body.calls).toEqual(['craft:t1', 'move:-5', 'craft:t2']);
  });

  it('a preemption arriving during an atomic step\'s retry backoff runs at once, not after the backoff', async () => {
    let attempt = 0;
    const atomicFlaky = defineFake({
      name: 'atomic_flaky',
      version: '1.0.0',
      description: 'atomic, fails once',
      inputSchema: empty,
      atomic: true,
      retry: { backoff: { initialMs: 4000 } },
      run: async (ctx) => {
        attempt += 1;
        ctx.body.craft(`t${attempt}`, {});
        return attempt === 1 ? { ok: false, reason: 'slipped' } : undefined;
      },
      acceptance: () => accepted,
    });
    const { executor, clock, body } = setup({}, undefined, [atomicFlaky]);
    const done = executor.run(plan([{ stepId: 'a', type: 'atomic_flaky' }]));
    await clock.advance(0);
    expect(executor.state().activeStep).toMatchObject({ stepId: 'a', phase: 'backoff' });
    await clock.advance(10);
    let fast: Awaited<ReturnType<typeof executor.preempt>> | undefined;
    void executor.preempt([{ stepId: 'flee', type: 'flee' }], { reason: 'lava' }).then((outcomes) => (fast = outcomes));
    await clock.advance(0);
    expect(fast?.[0]).toMatchObject({ status: 'succeeded', startedAt: 10, endedAt: 10 });
    await clock.flush();
    expect((await done).steps[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(body.calls).toEqual(['craft:t1', 'move:-5', 'craft:t2']);
  });

  it('is bounded: past maxResumes the interrupted step ends preempted', async () => {
    const { executor, clock, registry } = setup({ maxResumes: 1 });
    const done = executor.run(plan([{ stepId: 'walk', type: 'walk', args: { steps: 20 } }]));
    await clock.advance(100);
    await executor.preempt([{ stepId: 'f1', type: 'flee' }], { reason: 'zombie' });
    await clock.advance(100);
    await executor.preempt([{ stepId: 'f2', type: 'flee' }], { reason: 'zombie' });
    await clock.flush();
    const outcome = await done;
    expect(outcome.steps[0]).toMatchObject({ status: 'preempted', failure: { code: 'preempted' } });
    expect(outcome.status).toBe('failed');
    expect(await metric(registry, 'sinew_steps_total', { capability: 'walk', outcome: 'preempted', code: 'preempted' })).toBe(1);
    expect(await metric(registry, 'sinew_preemptions_total', { reason: 'zombie' })).toBe(2);
  });

  it('an empty preemption neither interrupts the active step nor uses up a resume', async () => {
    const { executor, clock, body } = setup({ maxResumes: 1 });
    const preempted: string[] = [];
    executor.on('step.preempted', (e) => preempted.push(e.stepId));
    const done = executor.run(plan([{ stepId: 'walk', type: 'walk', args: { steps: 3 } }]));
    await clock.advance(100);
    expect(await executor.preempt([], { reason: 'nothing' })).toEqual([]);
    await clock.advance(100);
    expect(await executor.preempt([], { reason: 'nothing' })).toEqual([]);
    await clock.advance(1000);
    expect((await done).steps[0]).toMatchObject({ stepId: 'walk', status: 'succeeded', attempts: 1 });
    expect(preempted).toEqual([]);
    expect(body.calls).toEqual(['move:1', 'move:1', 'move:1']);
  });

  /** After `ms`, a preemption teleports the body 5000 blocks on (past walk's and pace's guard). */
  const teleportAfter = async (executor: ReturnType<typeof setup>['executor'], clock: ManualClock, ms: number) => {
    await clock.advance(ms);
    executor.registry.register(defineFake({ name: 'teleport', version: '1.0.0', description: 'far away', inputSchema: empty, run: async (ctx) => ctx.body.move(5000), acceptance: () => accepted }));
    await executor.preempt([{ stepId: 't', type: 'teleport' }], { reason: 'test' });
    await clock.flush();
  };

  it('a resumed step re-guards: a guard that no longer holds fails it when its effect is not in place', async () => {
    // walk's acceptance (moved at least one) would hold after a teleport: this one wants exactly its own moves.
    const pace = defineFake({
      name: 'pace',
      version: '0.9.1',
      description: 'paces exactly n moves',
      inputSchema: z.strictObject({ steps: z.number().int().positive() }),
      guard: ({ body }) => (body.x < 1000 ? { ok: true } : { ok: false, code: 'guard_failed', reason: 'too far' }),
      run: async (ctx, { steps }) => {
        for (let i = 0; i < steps; i += 1) (ctx.body.move(1), await sleep(ctx, 200));
      },
      observe: ({ body }) => body.snapshot(),
      acceptance: (pre, post, { steps }) => (post.x - pre.x === steps ? accepted : { ok: false, unmet: [`x:+${steps}`] }),
    });
    const { executor, clock, body } = setup({}, undefined, [pace]);
    const done = executor.run(plan([{ stepId: 'pace', type: 'pace', args: { steps: 5 } }]));
    await teleportAfter(executor, clock, 100);
    expect((await done).steps[0]).toMatchObject({ status: 'failed', failure: { code: 'guard_failed', reason: 'too far' } });
    expect(body.x).toBe(5001);
  });

  it('a resumed step whose guard no longer holds but whose acceptance against the kept pre does ends succeeded, not run again', async () => {
    const { executor, clock, body } = setup();
    const done = executor.run(plan([{ stepId: 'walk', type: 'walk', args: { steps: 5 } }]));
    await teleportAfter(executor, clock, 100);
    expect((await done).steps[0]).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(body.calls).toEqual(['move:1', 'move:5000']);
  });

  it('a fast-path step sharing the interrupted step\'s idempotency key is refused, not joined (no deadlock)', async () => {
    const { executor, clock } = setup();
    const done = executor.run(plan([{ stepId: 'walk', type: 'walk', args: { steps: 3 }, idempotencyKey: 'k' }]));
    await clock.advance(100);
    const fast = await executor.preempt([{ stepId: 'again', type: 'walk', args: { steps: 1 }, idempotencyKey: 'k' }], { reason: 'test' });
    expect(fast[0]).toMatchObject({ status: 'failed', failure: { code: 'duplicate' } });
    await clock.advance(1000);
    expect((await done).status).toBe('completed');
  });
});

describe('executor: lifecycle', () => {
  it('close() aborts the active step, refuses new plans and reports state closed', async () => {
    const { executor, clock, registry } = setup();
    // The executor is the contracts' Preemptor (what the belief reflex holds).
    const preemptor: Preemptor = executor;
    expect(typeof preemptor.preempt).toBe('function');
    const done = executor.run(plan([{ stepId: 'walk', type: 'walk', args: { steps: 50 } }]));
    await clock.advance(100);
    expect(executor.state()).toMatchObject({ status: 'running', activeStep: { stepId: 'walk', capability: 'walk@1.0.0', attempt: 1, phase: 'running', atomic: false } });
    await executor.close();
    await clock.flush();
    expect(await done).toMatchObject({ status: 'aborted', failure: { code: 'aborted', reason: 'the executor was closed' } });
    expect(await executor.run(plan([{ stepId: 's', type: 'flee' }], 'late'))).toMatchObject({ status: 'aborted', steps: [] });
    expect(executor.state().status).toBe('closed');
    expect(await metric(registry, 'sinew_active_steps')).toBe(0);
    expect(clock.pending()).toBe(0);
  });
});

describe('executor: metric labels', () => {
  it('keeps identifier-like labels, normalises free text and caps distinct values (never ids)', async () => {
    const { executor, registry, body } = setup();
    const chat = [{ stepId: 'say', type: 'flee' }];
    for (let i = 0; i < 40; i += 1) await executor.preempt(chat, { reason: `threat number ${i}` });
    await executor.preempt(chat, { reason: 'hostile_close' });
    body.chat('hi');
    const reasons = ((await registry.getSingleMetric('sinew_preemptions_total')!.get()).values).map((v) => String(v.labels.reason));
    expect(reasons).toHaveLength(33);
    expect(reasons).toContain('threat_number_0');
    expect(reasons).toContain('other');
    expect(await metric(registry, 'sinew_preemptions_total', { reason: 'other' })).toBe(9);
    expect(await metric(registry, 'sinew_preemptions_total', { reason: 'hostile_close' })).toBe(0);
    expect(await metric(registry, 'sinew_actuator_commands_total', { command: 'chat' })).toBe(1);
  });
});

describe('executor: every series exists from the start', () => {
  it('primes steps × outcome × code, durations, TTFA, watchdogs, retries, repairs and plans at 0; later registrations too', async () => {
    const { executor, registry } = setup();
    const text = await registry.metrics();
    expect(text).toContain('sinew_steps_total{capability="dig_block",version="1.0.0",outcome="succeeded",code="none"} 0');
    expect(text).toContain('sinew_steps_total{capability="dig_block",version="1.0.0",outcome="failed",code="precond_missing"} 0');
    expect(text).toContain('sinew_steps_total{capability="unknown",version="none",outcome="failed",code="unknown_verb"} 0');
    expect(text).toContain('sinew_step_duration_seconds_count{capability="walk",version="1.0.0",outcome="failed"} 0');
    expect(text).toContain('sinew_step_ttfa_seconds_count{capability="walk",version="1.0.0"} 0');
    expect(text).toContain('sinew_watchdog_trips_total{capability="idle",code="stuck"} 0');
    expect(text).toContain('sinew_step_retries_total{capability="idle",code="ttfa_exceeded"} 0');
    expect(text).toContain('sinew_plan_repairs_total{reason="precond_missing",result="steps"} 0');
    expect(text).toContain('sinew_plans_total{status="completed"} 0');
    for (const name of ['sinew_step_stuck_total', 'sinew_runners_abandoned_total', 'sinew_late_results_dropped_total', 'sinew_step_duplicates_total']) {
      expect(text).toMatch(new RegExp(`${name}\\{capability="flee"[^}]*\\} 0`));
    }
    const later = defineFake({ name: 'later', version: '2.1.0', description: 'registered after the executor', inputSchema: empty, run: async (ctx) => ctx.body.chat('x'), acceptance: () => accepted });
    executor.registry.register(later);
    expect(await registry.metrics()).toContain('sinew_steps_total{capability="later",version="2.1.0",outcome="failed",code="timeout"} 0');
    await executor.run(plan([{ stepId: 's1', type: 'later', args: {} }]));
    expect(await metric(registry, 'sinew_steps_total', { capability: 'later', outcome: 'succeeded' })).toBe(1);
    expect(await metric(registry, 'sinew_steps_total', { capability: 'later', outcome: 'failed' })).toBe(0);
    // A second executor sharing the metrics primes nothing over the first one's observations.
    createExecutor({ registry: executor.registry, body: fakeBody(), metrics: executor.metrics });
    expect(await metric(registry, 'sinew_step_duration_seconds_count', { capability: 'later', outcome: 'succeeded' })).toBe(1);
  });
});

describe('executor: the seed metrics', () => {
  it('counts retried steps by outcome, steps to success per goal, BT transitions, and keeps SLA per version', async () => {
    let calls = 0;
    const flaky = defineFake({
      name: 'flaky',
      version: '1.2.0',
      description: 'fails its first attempt',
      inputSchema: empty,
      run: async (ctx) => {
        ctx.body.chat('try');
        ctx.transition('root/seq', 'running');
        ctx.transition('root/seq', 'weird-state');
        if ((calls += 1) === 1) throw new Error('first attempt fails');
      },
      acceptance: () => accepted,
    });
    const { executor, clock, registry } = setup({}, undefined, [flaky]);
    const intent = { id: 'i1', source: 'user' as const, goal: 'get wood', urgency: 0.5 };
    const running = executor.run(plan([{ stepId: 's1', type: 'flaky', args: {} }, { stepId: 's2', type: 'dig_block', args: { block: 'log_1' } }]), { intent });
    expect(await registry.metrics()).toContain('sinew_plan_steps_to_success_count{goal="get_wood"} 0');
    await clock.advance(5_000);
    const outcome = await running;
    expect(outcome.steps.map((s) => `${s.stepId}:${s.status}:${s.attempts}`)).toEqual(['s1:succeeded:2', 's2:succeeded:1']);
    expect(await metric(registry, 'sinew_steps_retried_total', { capability: 'flaky', outcome: 'succeeded' })).toBe(1);
    expect(await metric(registry, 'sinew_steps_retried_total', { capability: 'dig_block' })).toBe(0);
    expect(await metric(registry, 'sinew_bt_node_transitions_total', { capability: 'flaky', state: 'running' })).toBe(2);
    expect(await metric(registry, 'sinew_bt_node_transitions_total', { capability: 'flaky', state: 'other' })).toBe(2);
    expect(await metric(registry, 'sinew_plan_steps_to_success_sum', { goal: 'get_wood' })).toBe(2);
    expect(await metric(registry, 'sinew_plan_steps_to_success_count', { goal: 'get_wood' })).toBe(1);
    expect(await metric(registry, 'sinew_plans_repaired_total')).toBe(0);
    expect(await metric(registry, 'sinew_step_ttfa_seconds_count', { capability: 'flaky', version: '1.2.0' })).toBe(2);
    const health = executor.health().capabilities.find((c) => c.capability === 'flaky');
    expect(health?.versions).toEqual([expect.objectContaining({ version: '1.2.0', steps: 1, succeeded: 1, successRate: 1 })]);
  });

  it('counts a plan that needed a repair under sinew_plans_repaired_total by how it ended', async () => {
    const repair: RepairHook = { repair: () => ({ reason: 'planks first', steps: [{ stepId: 'fix', type: 'dig_block', args: { block: 'log_2' } }, { stepId: 'fix2', type: 'craft_item', args: { item: 'planks' } }] }) };
    const { executor, registry } = setup({}, repair);
    const outcome = await executor.run(plan([{ stepId: 's1', type: 'craft_item', args: { item: 'stick' } }]));
    expect([outcome.status, outcome.repairs]).toEqual(['completed', 1]);
    expect(await metric(registry, 'sinew_plans_repaired_total', { status: 'completed' })).toBe(1);
    expect(await metric(registry, 'sinew_plan_steps_to_success_sum', { goal: 'unspecified' })).toBe(4);
  });
});

describe('executor: runtime canaries', () => {
  const digNext = (overrides: Partial<Parameters<typeof defineFake>[0]>) => defineFake({ ...(digBlock as unknown as Parameters<typeof defineFake>[0]), version: '1.1.0', ...overrides });
  /** Runs `n` one-step plans digging fresh blocks; returns the version each step ran on. */
  async function digs(executor: ReturnType<typeof setup>['executor'], body: ReturnType<typeof setup>['body'], n: number, from = 0): Promise<string[]> {
    const versions: string[] = [];
    for (let i = from; i < from + n; i += 1) {
      body.blocks.add(`b${i}`);
      const outcome = await executor.run(plan([{ stepId: 's', type: 'dig_block', args: { block: `b${i}` } }], `p${i}`));
      versions.push(`${outcome.steps[0]!.capability?.version}:${outcome.steps[0]!.status}`);
    }
    return versions;
  }

  it('runs the canary on its share of steps and promotes it when its SLA over minSteps is no worse than the stable one', async () => {
    const { executor, body, registry } = setup({ maxLocalRetries: 0 });
    executor.registry.registerCanary(digNext({}), { share: 0.5, minSteps: 2 });
    const decisions: string[] = [];
    executor.on('canary.decision', (d) => decisions.push(`${d.decision} ${d.version}: ${d.reason}`));
    expect(executor.registry.resolve('dig_block')).toMatchObject({ ok: true, capability: { version: '1.0.0' } });
    expect(await metric(registry, 'sinew_canary_decisions_total', { decision: 'promoted' })).toBe(0);
    expect(await digs(executor, body, 5)).toEqual(['1.0.0:succeeded', '1.1.0:succeeded', '1.0.0:succeeded', '1.1.0:succeeded', '1.1.0:succeeded']);
    expect(decisions).toEqual(['promoted 1.1.0: no worse than 1.0.0 over 2 steps']);
    expect(executor.registry.resolve('dig_block')).toMatchObject({ ok: true, capability: { version: '1.1.0' } });
    expect(await metric(registry, 'sinew_canary_decisions_total', { capability: 'dig_block', version: '1.1.0', decision: 'promoted' })).toBe(1);
  });

  it('demotes a canary that regresses after acting (its failures are reported, not retried on the stable version)', async () => {
    const { executor, body, registry } = setup({ maxLocalRetries: 0 });
    // Moves instead of digging: it acts, so its effects_unmet is reported as is.
    executor.registry.registerCanary(digNext({ run: async (ctx) => ctx.body.move(1) }), { share: 0.5, minSteps: 2 });
    const decisions: string[] = [];
    executor.on('canary.decision', (d) => decisions.push(`${d.decision} ${d.version}: ${d.reason}`));
    expect(await digs(executor, body, 6)).toEqual(['1.0.0:succeeded', '1.1.0:failed', '1.0.0:succeeded', '1.1.0:failed', '1.0.0:succeeded', '1.0.0:succeeded']);
    expect(decisions).toEqual(['demoted 1.1.0: success rate 0.000 < stable 1.000']);
    expect(executor.registry.resolve('dig_block')).toMatchObject({ ok: true, capability: { version: '1.0.0' } });
    expect(executor.registry.resolve('dig_block', '1.1.0')).toMatchObject({ ok: true, capability: { version: '1.1.0' } });
    expect(await metric(registry, 'sinew_canary_decisions_total', { decision: 'demoted' })).toBe(1);
    expect(await metric(registry, 'sinew_steps_total', { capability: 'dig_block', version: '1.1.0', outcome: 'failed', code: 'effects_unmet' })).toBe(2);
  });

  it('re-runs a canary step that failed before any actuator command on the stable version, within the same step', async () => {
    const { executor, body, registry } = setup({ maxLocalRetries: 0 });
    executor.registry.registerCanary(digNext({ guard: () => ({ ok: false, code: 'guard_failed', reason: 'the new version refuses' }) }), { share: 0.5, minSteps: 10 });
    const decisions: string[] = [];
    executor.on('canary.decision', (d) => decisions.push(`${d.decision}: ${d.reason}`));
    expect(await digs(executor, body, 2)).toEqual(['1.0.0:succeeded', '1.0.0:succeeded']);
    expect(decisions).toEqual(['fallback: s failed before acting (guard_failed); re-run on 1.0.0']);
    expect(await metric(registry, 'sinew_canary_decisions_total', { decision: 'fallback' })).toBe(1);
    expect(await metric(registry, 'sinew_steps_total', { capability: 'dig_block', version: '1.1.0', code: 'guard_failed' })).toBe(1);
  });

  it('shadow mode: the canary never acts; its guard is judged beside every stable step, agreement counted, the difference an event', async () => {
    const { executor, body, registry } = setup({ maxLocalRetries: 0 });
    const refuseB1 = digNext({ guard: (_ctx, args) => ((args as { block: string }).block === 'b1' ? { ok: false, code: 'guard_failed', reason: 'b1 looks unsafe' } : { ok: true }) });
    executor.registry.registerCanary(refuseB1, { mode: 'shadow', minSteps: 1 });
    const shadows: string[] = [];
    executor.on('canary.shadow', (e) => shadows.push(`${e.stepId} ${e.verdict}: ${e.reason}`));
    expect(await digs(executor, body, 3)).toEqual(['1.0.0:succeeded', '1.0.0:succeeded', '1.0.0:succeeded']);
    expect(shadows).toEqual([
      's agree: 1.1.0 would have run; 1.0.0 succeeded',
      's disagree: 1.1.0 would have refused (guard_failed: b1 looks unsafe); 1.0.0 succeeded',
      's agree: 1.1.0 would have run; 1.0.0 succeeded',
    ]);
    expect(await metric(registry, 'sinew_canary_shadow_total', { verdict: 'agree' })).toBe(2);
    expect(await metric(registry, 'sinew_canary_shadow_total', { verdict: 'disagree' })).toBe(1);
    expect(await metric(registry, 'sinew_steps_total', { capability: 'dig_block', version: '1.1.0' })).toBe(0);
    expect(executor.registry.canary('dig_block')?.capability.version).toBe('1.1.0');
  });

  it('a canary whose schema refuses the args falls back to the stable version, as a fallback decision', async () => {
    const { executor, body, registry } = setup({ maxLocalRetries: 0 });
    executor.registry.registerCanary(digNext({ inputSchema: z.object({ target: z.string() }) }), { share: 0.5 });
    expect(await digs(executor, body, 2)).toEqual(['1.0.0:succeeded', '1.0.0:succeeded']);
    expect(await metric(registry, 'sinew_canary_decisions_total', { decision: 'fallback' })).toBe(1);
  });

  it('a canary path that throws before the step runs ends the step runner_error, releases its key, and run() resolves', async () => {
    const { executor, body, registry } = setup({ maxLocalRetries: 0 });
    const canary = executor.registry.canary.bind(executor.registry);
    // A registry whose canary lookup fails (a remote trial store, say): an executor bug path, never a rejected run().
    executor.registry.canary = () => {
      throw new Error('trial store offline');
    };
    const step = { stepId: 's', type: 'dig_block', args: { block: 'log_1' }, idempotencyKey: 'dig-1' };
    const outcome = await executor.run(plan([step], 'offline'));
    expect(outcome).toMatchObject({ status: 'failed', failure: { code: 'runner_error', reason: expect.stringContaining('trial store offline') } });
    expect(outcome.steps[0]).toMatchObject({ status: 'failed', attempts: 0, capability: { name: 'dig_block' } });
    expect(await metric(registry, 'sinew_steps_total', { capability: 'dig_block', outcome: 'failed', code: 'runner_error' })).toBe(1);
    expect(executor.state()).toMatchObject({ status: 'idle', plansRunning: 0 });
    // The failed key was forgotten: the same step runs once the registry answers again.
    executor.registry.canary = canary;
    expect((await executor.run(plan([step], 'online'))).status).toBe('completed');
    expect(body.calls).toEqual(['dig:log_1']);
  });

  it('a canary verdict that throws after the step ran keeps the outcome of the step, counted once', async () => {
    const errors: string[] = [];
    const body = fakeBody();
    const metrics = createExecutorMetrics();
    const registry = registryWith(digBlock);
    const logger = { debug() {}, info() {}, warn() {}, error: (message: string) => errors.push(message) };
    const executor = createExecutor({ registry, body, metrics, logger, clock: new ManualClock(), policy: { maxLocalRetries: 0 } });
    registry.registerCanary(defineFake({ ...(digBlock as unknown as Parameters<typeof defineFake>[0]), version: '1.1.0' }), { share: 0.5, minSteps: 1 });
    // Whichever verdict the SLA gives (both durations are 0 on the manual clock: promotion), the store refuses it.
    registry.promote = registry.demote = () => {
      throw new Error('verdict refused by the store');
    };
    expect((await executor.run(plan([{ stepId: 's', type: 'dig_block', args: { block: 'log_1' } }], 'on-stable'))).steps[0]).toMatchObject({ status: 'succeeded', capability: { version: '1.0.0' } });
    expect(errors).toEqual([]);
    // The canary's turn: it runs, then its verdict throws.
    const outcome = await executor.run(plan([{ stepId: 's', type: 'dig_block', args: { block: 'log_2' } }], 'on-canary'));
    expect(outcome.steps[0]).toMatchObject({ status: 'succeeded', capability: { version: '1.1.0' } });
    expect(await metric(metrics.registry, 'sinew_steps_total', { capability: 'dig_block' })).toBe(2);
    expect(body.calls).toEqual(['dig:log_1', 'dig:log_2']);
    expect(errors).toEqual([expect.stringContaining('canary')]);
  });

  it('refuses a canary without a stable version, a second canary, a lower version and bad options', () => {
    const { executor } = setup();
    expect(() => executor.registry.registerCanary(defineFake({ name: 'nope', version: '2.0.0', description: 'x', inputSchema: empty, run: async () => {}, acceptance: () => accepted }))).toThrow(/needs a stable version/);
    expect(() => executor.registry.registerCanary(digNext({ version: '0.9.0' }))).toThrow(/must be higher than the stable 1.0.0/);
    expect(() => executor.registry.registerCanary(digNext({}), { share: 1.5 })).toThrow(/share/);
    executor.registry.registerCanary(digNext({}));
    expect(() => executor.registry.registerCanary(digNext({ version: '1.2.0' }))).toThrow(/already has a canary/);
  });
});
