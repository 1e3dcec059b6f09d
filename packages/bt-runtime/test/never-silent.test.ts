import { accepted, ManualClock, type RepairHook, type RunContext } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createExecutorMetrics, createMemoryProvenance, defineExecutorPolicy, PolicyError, StaleActuationError, type ExecutorPolicyInput, type PredicateEvaluator } from '../src/index.js';
import { defineFake, fakeBody, registryWith, walker, type Body } from './fake-body.js';
import { metric } from './metric.js';

const empty = z.object({});
const aborted = (signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
const never = () => new Promise<never>(() => {});

/** Chats once, then returns whatever `result()` makes (a hostile value). */
const returning = (name: string, result: () => unknown) =>
  defineFake({ name, version: '1.0.0', description: name, inputSchema: empty, run: (ctx) => (ctx.body.chat(name), result()) as never, acceptance: () => accepted, expectedDurationMs: 100 });

/** Chats once, then rejects with `error()`. */
const rejecting = (name: string, error: () => unknown) =>
  defineFake({
    name,
    version: '1.0.0',
    description: name,
    inputSchema: empty,
    run: async (ctx) => {
      ctx.body.chat(name);
      throw error();
    },
    acceptance: () => accepted,
    expectedDurationMs: 100,
  });

const flee = defineFake({ name: 'flee', version: '1.0.0', description: 'run away', inputSchema: empty, run: async (ctx) => ctx.body.move(-5), acceptance: () => accepted });
const idle = defineFake({ name: 'idle', version: '1.0.0', description: 'never acts', inputSchema: empty, run: (ctx) => aborted(ctx.signal), acceptance: () => accepted });

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function throwingGetter(key: string): object {
  return Object.defineProperty({}, key, {
    enumerable: true,
    get() {
      throw new Error(`${key} getter exploded`);
    },
  });
}

function setup(caps: Parameters<typeof registryWith>[0][], policy: ExecutorPolicyInput = {}, repair?: RepairHook) {
  const body = fakeBody();
  const clock = new ManualClock();
  const metrics = createExecutorMetrics();
  const provenance = createMemoryProvenance();
  const executor = createExecutor({ registry: registryWith(walker, flee, idle, ...caps), body, clock, metrics, provenance, policy: { maxLocalRetries: 0, ...policy }, ...(repair ? { repair } : {}) });
  return { body, clock, registry: metrics.registry, provenance, executor };
}

const plan = (type: string, planId = `p-${type}`) => ({ planId, intentId: 'i1', steps: [{ stepId: 's1', type }] });

/** Runs a one-step plan of `type` to its end on the manual clock, then checks the executor still serves. */
async function runToEnd(s: ReturnType<typeof setup>, type: string) {
  const done = s.executor.run(plan(type));
  await s.clock.advance(1000);
  const outcome = await done;
  const next = s.executor.run(plan('flee', `after-${type}`));
  await s.clock.advance(10);
  expect((await next).status).toBe('completed');
  expect(s.clock.pending()).toBe(0);
  return outcome.steps[0]!;
}

describe('hostile values end coded (issue 12 item 3)', () => {
  it('a runner result whose ok getter throws ends runner_error and the executor keeps serving', async () => {
    const s = setup([returning('ok_getter', () => throwingGetter('ok'))]);
    const step = await runToEnd(s, 'ok_getter');
    expect(step).toMatchObject({ status: 'failed', failure: { code: 'runner_error' } });
    expect(step.failure!.reason).toContain('ok getter exploded');
  });

  it('a runner result that is a revoked Proxy ends runner_error', async () => {
    const s = setup([returning('revoked_result', revoked)]);
    expect(await runToEnd(s, 'revoked_result')).toMatchObject({ status: 'failed', failure: { code: 'runner_error' } });
  });

  it('a rejection with a revoked Proxy ends runner_error with a safe description', async () => {
    const s = setup([rejecting('revoked_rejection', revoked)]);
    const step = await runToEnd(s, 'revoked_rejection');
    expect(step).toMatchObject({ status: 'failed', failure: { code: 'runner_error' } });
    expect(typeof step.failure!.reason).toBe('string');
  });

  it('an Error whose message getter throws ends runner_error', async () => {
    const hostile = () => Object.defineProperty(new Error('x'), 'message', { get: () => { throw new Error('no message for you'); } });
    const s = setup([rejecting('message_getter', hostile)]);
    expect(await runToEnd(s, 'message_getter')).toMatchObject({ status: 'failed', failure: { code: 'runner_error' } });
  });

  it('an Error whose nodePath getter throws ends runner_error', async () => {
    const s = setup([rejecting('node_path_getter', () => Object.assign(Object.defineProperty(new Error('bt failed'), 'nodePath', { get: () => { throw new Error('nope'); } })))]);
    const step = await runToEnd(s, 'node_path_getter');
    expect(step).toMatchObject({ status: 'failed', failure: { code: 'runner_error', reason: 'node_path_getter runner threw: bt failed' } });
  });

  it('acceptance returning unmet: [Object.create(null)] ends effects_unmet', async () => {
    const cap = defineFake({ name: 'null_unmet', version: '1.0.0', description: 'x', inputSchema: empty, run: async (ctx) => ctx.body.chat('x'), acceptance: () => ({ ok: false, unmet: [Object.create(null)] }) as never });
    const s = setup([cap]);
    expect(await runToEnd(s, 'null_unmet')).toMatchObject({ status: 'failed', failure: { code: 'effects_unmet' } });
  });

  it('acceptance whose ok getter throws ends effects_unmet', async () => {
    const cap = defineFake({ name: 'accept_getter', version: '1.0.0', description: 'x', inputSchema: empty, run: async (ctx) => ctx.body.chat('x'), acceptance: () => throwingGetter('ok') as never });
    const s = setup([cap]);
    expect(await runToEnd(s, 'accept_getter')).toMatchObject({ status: 'failed', failure: { code: 'effects_unmet' } });
  });

  it('a guard whose result ok getter throws ends guard_failed before any attempt', async () => {
    const cap = defineFake({ name: 'guard_getter', version: '1.0.0', description: 'x', inputSchema: empty, guard: () => throwingGetter('ok') as never, run: async (ctx) => ctx.body.chat('x'), acceptance: () => accepted });
    const s = setup([cap]);
    expect(await runToEnd(s, 'guard_getter')).toMatchObject({ status: 'failed', attempts: 0, failure: { code: 'guard_failed' } });
    expect(s.body.calls).not.toContain('chat:x');
  });

  it('an observe whose result has a throwing then getter is read as a plain value', async () => {
    const cap = defineFake({ name: 'then_getter', version: '1.0.0', description: 'x', inputSchema: empty, run: async (ctx) => ctx.body.chat('x'), observe: () => throwingGetter('then') as never, acceptance: () => accepted });
    const s = setup([cap]);
    expect(await runToEnd(s, 'then_getter')).toMatchObject({ status: 'succeeded' });
  });

  it('a repair hook answering a revoked Proxy is no repair: the plan fails with the step code', async () => {
    const s = setup([rejecting('boom', () => new Error('boom'))], {}, { repair: () => revoked() as never });
    const done = s.executor.run(plan('boom'));
    await s.clock.advance(1000);
    expect(await done).toMatchObject({ status: 'failed', failure: { code: 'runner_error' }, repairs: 0 });
    expect(await metric(s.registry, 'sinew_plan_repairs_total', { result: 'error' })).toBe(1);
  });

  it('run() never rejects: a plan with throwing getters or a revoked Proxy is a failed outcome', async () => {
    const s = setup([]);
    const getters = Object.defineProperty({ planId: 'p', intentId: 'i' }, 'steps', { enumerable: true, get: () => { throw new Error('steps getter'); } });
    for (const input of [getters, revoked(), throwingGetter('planId'), { planId: 'p', intentId: 'i', steps: [revoked()] }]) {
      const outcome = await s.executor.run(input);
      expect(outcome).toMatchObject({ status: 'failed', failure: { code: 'invalid_args' } });
    }
  });
});

describe('close() is final (issue 12 item 4)', () => {
  it('a step interrupted by preempt() ends aborted when close() lands during the preemption; the body gets no command after', async () => {
    const slowFlee = defineFake({
      name: 'slow_flee',
      version: '1.0.0',
      description: 'flees over 200 ms',
      inputSchema: empty,
      run: async (ctx) => {
        ctx.body.move(-1);
        await ctx.sleep(200);
      },
      acceptance: () => accepted,
    });
    const s = setup([slowFlee]);
    const done = s.executor.run(plan('walker'));
    await s.clock.advance(250);
    const fast = s.executor.preempt([{ stepId: 'f', type: 'slow_flee' }], { reason: 'danger' });
    await s.clock.advance(50);
    await s.executor.close();
    const callsAtClose = s.body.calls.length;
    await s.clock.advance(5000);
    await fast;
    const outcome = await done;
    expect(outcome).toMatchObject({ status: 'aborted', failure: { code: 'aborted' } });
    expect(outcome.steps[0]).toMatchObject({ status: 'failed', failure: { code: 'aborted', reason: 'the executor was closed' } });
    expect(s.body.calls.length).toBe(callsAtClose);
    expect(await metric(s.registry, 'sinew_active_steps')).toBe(0);
    expect(s.clock.pending()).toBe(0);
  });

  it('queued plans end aborted on close() without dispatching', async () => {
    const s = setup([]);
    const first = s.executor.run(plan('walker', 'a'));
    const queued = s.executor.run(plan('flee', 'b'));
    await s.clock.advance(50);
    await s.executor.close();
    await s.clock.advance(100);
    expect((await first).status).toBe('aborted');
    expect(await queued).toMatchObject({ status: 'aborted', steps: [{ status: 'failed', attempts: 0, failure: { code: 'aborted' } }] });
    expect(s.body.calls.filter((c) => c.startsWith('move:-5'))).toEqual([]);
  });
});

describe('per-attempt attribution (issue 12 item 2)', () => {
  it("an abandoned runner's commands never count for the next step: it ends ttfa_exceeded, and they are refused and counted stale", async () => {
    let staleError: unknown;
    const stubborn = defineFake({
      name: 'stubborn',
      version: '1.0.0',
      description: 'ignores abort and keeps chatting',
      inputSchema: empty,
      run: async (ctx) => {
        const clock = (ctx as RunContext<Body> & { clock: ManualClock }).clock;
        try {
          for (;;) {
            await ctx.body.chat('still here');
            await new Promise<void>((resolve) => clock.setTimeout(resolve, 50));
          }
        } catch (error) {
          staleError = error;
        }
      },
      acceptance: () => accepted,
      expectedDurationMs: 100,
    });
    const s = setup([stubborn], { abortGraceMs: 100 });
    const first = s.executor.run(plan('stubborn', 'a'));
    const second = s.executor.run(plan('idle', 'b'));
    await s.clock.advance(3000);
    expect((await first).steps[0]).toMatchObject({ failure: { code: 'timeout' } });
    const step = (await second).steps[0]!;
    expect(step).toMatchObject({ status: 'failed', failure: { code: 'ttfa_exceeded' } });
    expect(step.ttfaMs).toBeUndefined();
    expect(staleError).toBeInstanceOf(StaleActuationError);
    expect(await metric(s.registry, 'sinew_stale_actuations_total', { capability: 'stubborn' })).toBe(1);
  });

  it('calls on the body itself (not through a view) still feed the active attempt', async () => {
    const s = setup([]);
    const done = s.executor.run(plan('idle'));
    await s.clock.advance(100);
    s.body.chat('from a plugin');
    await s.clock.advance(1000);
    expect(s.executor.state().activeStep?.attempt).toBe(1);
    await s.executor.close();
    expect((await done).steps[0]!.ttfaMs).toBe(100);
  });
});

describe('disconnects (issue 12 item 8)', () => {
  it('the active step ends body_disconnected at once without retry or repair; queued and later plans fail the same way', async () => {
    let asked = 0;
    const s = setup([], { maxLocalRetries: 2 }, { repair: () => ((asked += 1), { steps: [], reason: 'none' }) });
    const active = s.executor.run(plan('walker', 'a'));
    const queued = s.executor.run(plan('flee', 'b'));
    await s.clock.advance(150);
    s.body.disconnect('server closed');
    await s.clock.advance(0);
    expect(await active).toMatchObject({ status: 'failed', failure: { code: 'body_disconnected' }, steps: [{ attempts: 1, failure: { code: 'body_disconnected', reason: 'the body disconnected: server closed' } }] });
    expect(await queued).toMatchObject({ status: 'failed', steps: [{ attempts: 0, failure: { code: 'body_disconnected' } }] });
    expect(await s.executor.run(plan('flee', 'c'))).toMatchObject({ status: 'failed', failure: { code: 'body_disconnected' } });
    expect(asked).toBe(0);
    expect(await metric(s.registry, 'sinew_body_disconnects_total')).toBe(1);
    expect(await metric(s.registry, 'sinew_step_retries_total')).toBe(0);
    await s.clock.advance(100); // the walker's own sleep
    expect(s.clock.pending()).toBe(0);
  });

  it('a runner that ignores abort does not delay the disconnect verdict', async () => {
    const deaf = defineFake({ name: 'deaf', version: '1.0.0', description: 'ignores abort', inputSchema: empty, run: (ctx) => (ctx.body.chat('x'), never()), acceptance: () => accepted });
    const s = setup([deaf]);
    const done = s.executor.run(plan('deaf'));
    await s.clock.advance(10);
    s.body.disconnect('kicked');
    await s.clock.advance(0);
    expect(await done).toMatchObject({ status: 'failed', failure: { code: 'body_disconnected' } });
  });
});

describe('plan intent (issue 12 item 6)', () => {
  const intent = (extra: object = {}) => ({ id: 'i1', source: 'user' as const, goal: 'walk', urgency: 0.5, ...extra });

  it('safety.allowed: false refuses the plan with guard_failed; nothing runs', async () => {
    const s = setup([]);
    const outcome = await s.executor.run(plan('flee'), { intent: intent({ safety: { allowed: false, reason: 'lava ahead' } }) });
    expect(outcome).toMatchObject({ status: 'failed', steps: [], failure: { code: 'guard_failed', reason: 'intent i1 refused by safety: lava ahead' } });
    expect(s.body.calls).toEqual([]);
  });

  it('timeBudgetMs is the plan deadline: the plan ends failed with timeout on the executor clock', async () => {
    const s = setup([]);
    const done = s.executor.run({ planId: 'p', intentId: 'i1', steps: [{ stepId: 'a', type: 'walker' }, { stepId: 'b', type: 'flee' }] }, { intent: intent({ timeBudgetMs: 500 }) });
    await s.clock.advance(499);
    expect(s.executor.state().activeStep?.stepId).toBe('a');
    await s.clock.advance(1);
    const outcome = await done;
    expect(outcome).toMatchObject({ status: 'failed', failure: { code: 'timeout' }, failedStepId: 'a' });
    expect(outcome.steps).toHaveLength(1);
    expect(outcome.endedAt - outcome.startedAt).toBe(500);
  });

  it('the time budget also ends a plan waiting on a repair hook that never answers', async () => {
    const s = setup([rejecting('boom', () => new Error('boom'))], {}, { repair: () => new Promise(() => {}) });
    const done = s.executor.run(plan('boom'), { intent: intent({ timeBudgetMs: 300 }) });
    await s.clock.advance(300);
    const outcome = await done;
    expect(outcome).toMatchObject({ status: 'failed', failure: { code: 'timeout' }, repairs: 0 });
    expect(outcome.endedAt - outcome.startedAt).toBe(300);
    expect(s.clock.pending()).toBe(0);
  });

  it('an intent that does not validate, or serves another plan, is refused with invalid_args', async () => {
    const s = setup([]);
    expect(await s.executor.run(plan('flee'), { intent: { id: 'i1' } as never })).toMatchObject({ status: 'failed', failure: { code: 'invalid_args' } });
    expect(await s.executor.run(plan('flee'), { intent: intent({ id: 'other' }) })).toMatchObject({ status: 'failed', failure: { code: 'invalid_args' } });
  });
});

describe('policy bounds and events (issue 12 items 10, 1)', () => {
  it('a deadline above 2^31-1 ms is rejected with PolicyError', () => {
    expect(() => defineExecutorPolicy({ ttfaMs: 2 ** 31 })).toThrow(PolicyError);
    expect(() => defineExecutorPolicy({ capabilities: { dig: { timeoutMs: 2 ** 40 } } })).toThrow(/timeoutMs must be <= 2147483647/);
    expect(defineExecutorPolicy({ stuckMs: 2 ** 31 - 1 }).stuckMs).toBe(2 ** 31 - 1);
  });

  it('bt.transition reports each ctx.transition of the running attempt', async () => {
    const tree = defineFake({
      name: 'tree',
      version: '1.0.0',
      description: 'reports transitions',
      inputSchema: empty,
      run: async (ctx) => {
        ctx.transition('root/sequence/0', 'RUNNING');
        ctx.body.chat('x');
        ctx.transition('root/sequence/0', 'SUCCEEDED');
      },
      acceptance: () => accepted,
    });
    const s = setup([tree]);
    const seen: unknown[] = [];
    s.executor.on('bt.transition', (event) => seen.push(event));
    const done = s.executor.run(plan('tree'));
    await s.clock.advance(10);
    expect((await done).status).toBe('completed');
    expect(seen).toEqual([
      { planId: 'p-tree', stepId: 's1', verb: 'tree', attempt: 1, nodePath: 'root/sequence/0', state: 'RUNNING' },
      { planId: 'p-tree', stepId: 's1', verb: 'tree', attempt: 1, nodePath: 'root/sequence/0', state: 'SUCCEEDED' },
    ]);
  });
});

describe('step preconds/effects through a predicate evaluator (issue 12 item 6)', () => {
  /** Checks has_item on the fake body's inventory: the smallest real evaluator. */
  const inventory: PredicateEvaluator<Body> = {
    kinds: ['has_item'],
    baseline: (body) => ({ ...body.inventory }),
    holds: (predicate, body, baseline) => {
      if (predicate.kind !== 'has_item' || typeof predicate.item !== 'string') return false;
      const have = body.inventory[predicate.item] ?? 0;
      return predicate.mode === 'gain' ? have - ((baseline as Record<string, number>)[predicate.item] ?? 0) >= predicate.count : have >= predicate.count;
    },
  };
  const gainLog = defineFake({ name: 'gain_log', version: '1.0.0', description: 'digs a log', inputSchema: empty, run: async (ctx) => void ctx.body.dig('log_1'), acceptance: () => accepted });

  function withPredicates(predicates?: PredicateEvaluator<Body>) {
    const body = fakeBody();
    const clock = new ManualClock();
    const executor = createExecutor({ registry: registryWith(gainLog, flee), body, clock, policy: { maxLocalRetries: 0 }, ...(predicates ? { predicates } : {}) });
    let seq = 0;
    const run = async (step: object) => {
      const done = executor.run({ planId: `p${(seq += 1)}`, intentId: 'i', steps: [{ stepId: 's', type: 'gain_log', ...step }] });
      await clock.advance(100);
      return (await done).steps[0]!;
    };
    return { body, run };
  }

  it('an unmet precond ends precond_missing naming it; the runner never acts', async () => {
    const { body, run } = withPredicates(inventory);
    expect(await run({ preconds: ['has_item:stick:2'] })).toMatchObject({ status: 'failed', attempts: 0, failure: { code: 'precond_missing', missing: ['has_item:stick:2'] } });
    expect(body.calls).toEqual([]);
  });

  it('effects are checked after acceptance: a gain since the step started passes, an unobserved one ends effects_unmet', async () => {
    const { run } = withPredicates(inventory);
    expect(await run({ effects: ['has_item:log:+1'] })).toMatchObject({ status: 'succeeded' });
    expect(await run({ effects: ['has_item:log:+5'] })).toMatchObject({ status: 'failed', failure: { code: 'effects_unmet', unmet: ['has_item:log:+5'] } });
  });

  it('a kind the evaluator does not check is refused with invalid_args before dispatch', async () => {
    const { body, run } = withPredicates(inventory);
    expect(await run({ effects: ['near_block:crafting_table'] })).toMatchObject({ status: 'failed', attempts: 0, failure: { code: 'invalid_args' } });
    expect(body.calls).toEqual([]);
  });

  it('an evaluator that throws ends the step coded, never hangs', async () => {
    const { run } = withPredicates({ kinds: ['has_item'], holds: () => { throw new Error('evaluator boom'); } });
    expect(await run({ preconds: ['has_item:log:1'] })).toMatchObject({ status: 'failed', failure: { code: 'guard_failed' } });
    expect(await run({ effects: ['has_item:log:1'] })).toMatchObject({ status: 'failed', failure: { code: 'effects_unmet' } });
  });

  it('without an evaluator a step declaring preconds/effects is refused with invalid_args; without any it runs', async () => {
    const { body, run } = withPredicates();
    expect(await run({ preconds: ['has_item:stick:2'], effects: ['near_block:crafting_table'] })).toMatchObject({
      status: 'failed',
      attempts: 0,
      failure: { code: 'invalid_args', reason: expect.stringMatching(/nothing can check them/) },
    });
    expect(body.calls).toEqual([]);
    expect(await run({})).toMatchObject({ status: 'succeeded' });
  });

  it("the body's own evaluator is used when the executor is given none", async () => {
    const body = fakeBody();
    Object.assign(body.sinew, { predicates: inventory as PredicateEvaluator<never> });
    const clock = new ManualClock();
    const executor = createExecutor({ registry: registryWith(gainLog, flee), body, clock, policy: { maxLocalRetries: 0 } });
    const done = executor.run({ planId: 'own', intentId: 'i', steps: [{ stepId: 's', type: 'gain_log', preconds: ['has_item:stick:2'] }] });
    await clock.advance(100);
    expect((await done).steps[0]).toMatchObject({ status: 'failed', failure: { code: 'precond_missing', missing: ['has_item:stick:2'] } });
  });
});

describe('step priority (issue 12 item 6)', () => {
  const step = (type: string, priority?: number) => ({ stepId: type, type, ...(priority === undefined ? {} : { priority }) });
  const mark = (name: string, atomic = false) =>
    defineFake({ name, version: '1.0.0', description: name, inputSchema: empty, atomic, run: async (ctx) => ctx.body.chat(name), acceptance: () => accepted });
  const slowAtomic = defineFake({
    name: 'slow_atomic',
    version: '1.0.0',
    description: 'atomic, 300 ms',
    inputSchema: empty,
    atomic: true,
    run: async (ctx) => {
      ctx.body.chat('atomic start');
      await ctx.sleep(300);
      ctx.body.chat('atomic end');
    },
    acceptance: () => accepted,
  });

  it('a higher-priority step takes over at the next safe point; the lower one re-guards and resumes after, without using up a resume', async () => {
    const s = setup([mark('urgent')], { maxResumes: 0 });
    const events: string[] = [];
    s.executor.on('step.preempted', (e) => events.push(`preempted:${e.stepId}:${e.reason}:${e.resumes}`));
    s.executor.on('step.resumed', (e) => events.push(`resumed:${e.stepId}`));
    const routine = s.executor.run({ planId: 'routine', intentId: 'i', steps: [step('walker', 0)] });
    await s.clock.advance(250);
    const urgent = s.executor.run({ planId: 'urgent', intentId: 'i', steps: [step('urgent', 10)] });
    await s.clock.advance(10);
    expect((await urgent).status).toBe('completed');
    expect(s.executor.state().activeStep).toMatchObject({ stepId: 'walker', phase: 'running' });
    expect(events).toEqual(['preempted:walker:a higher-priority step was waiting:0', 'resumed:walker']);
    expect(s.body.calls.indexOf('chat:urgent')).toBeGreaterThan(s.body.calls.indexOf('move:1'));
    await s.executor.close();
    expect((await routine).steps[0]).toMatchObject({ failure: { code: 'aborted' } });
  });

  it('an atomic lower-priority attempt finishes before the higher-priority step runs', async () => {
    const s = setup([mark('urgent'), slowAtomic]);
    const low = s.executor.run({ planId: 'low', intentId: 'i', steps: [step('slow_atomic', 0)] });
    await s.clock.advance(100);
    const high = s.executor.run({ planId: 'high', intentId: 'i', steps: [step('urgent', 5)] });
    await s.clock.advance(500);
    expect((await low).status).toBe('completed');
    expect((await high).status).toBe('completed');
    expect(s.body.calls).toEqual(['chat:atomic start', 'chat:atomic end', 'chat:urgent']);
  });

  it('waiting steps run by priority, first-in-first-out within a priority; equal priorities never take over', async () => {
    const s = setup([mark('a'), mark('b'), mark('c'), mark('d'), slowAtomic]);
    const first = s.executor.run({ planId: 'first', intentId: 'i', steps: [step('slow_atomic', 1)] });
    await s.clock.advance(50);
    const runs = [s.executor.run({ planId: 'pa', intentId: 'i', steps: [step('a', 1)] }), s.executor.run({ planId: 'pb', intentId: 'i', steps: [step('b')] }), s.executor.run({ planId: 'pc', intentId: 'i', steps: [step('c', 1)] }), s.executor.run({ planId: 'pd', intentId: 'i', steps: [step('d', 3)] })];
    await s.clock.advance(500);
    await Promise.all([first, ...runs]);
    expect(s.body.calls).toEqual(['chat:atomic start', 'chat:atomic end', 'chat:d', 'chat:a', 'chat:c', 'chat:b']);
  });
});
