import { accepted, ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createExecutorMetrics, createMemoryProvenance } from '../src/index.js';
import { defineFake, fakeBody, registryWith, type Body, type World } from './fake-body.js';
import { metric } from './metric.js';

// Which activity counts for which attempt, and as what: a command made while acceptance is observed is traced but
// is not the attempt's first action; a progress note is not a behavior-tree transition; a command issued through
// the view of another executor's attempt on the same body feeds none of this attempt's watchdogs. Manual clock,
// fake body.

type Def = Parameters<typeof defineFake>[0];
const base = { version: '2.1.0', description: 'attribution', inputSchema: z.strictObject({}), acceptance: () => accepted } satisfies Partial<Def>;

function executorOn(body: Body, clock: ManualClock, capabilities: Parameters<typeof registryWith>[0][], policy: Parameters<typeof createExecutor>[0]['policy'] = {}) {
  const metrics = createExecutorMetrics();
  const memory = createMemoryProvenance();
  const executor = createExecutor({ registry: registryWith(...capabilities), body, clock, metrics, provenance: [memory], policy: { maxLocalRetries: 0, ...policy } });
  return { metrics, memory, executor };
}

const one = (type: string) => ({ planId: `only.${type}`, intentId: 'attribution', steps: [{ stepId: `${type}~1`, type, args: {} }] });

describe('a command while the attempt checks acceptance', () => {
  it('is traced but is not a first action: no TTFA observed, no step.first_action, none on the outcome', async () => {
    let answer!: (world: World) => void;
    let observes = 0;
    const quiet = defineFake({
      ...base,
      name: 'quiet_then_checked',
      // the second observe (post) waits for the test; the runner itself never touches the body
      observe: ({ body }) => ((observes += 1), observes === 1 ? body.snapshot() : new Promise<World>((resolve) => (answer = resolve))),
      run: async () => undefined,
    });
    const clock = new ManualClock();
    const body = fakeBody();
    const s = executorOn(body, clock, [quiet]);
    const firsts: string[] = [];
    s.executor.on('step.first_action', (e) => void firsts.push(e.command));
    const done = s.executor.run(one('quiet_then_checked'));
    await clock.advance(15);
    expect(observes).toBe(2); // the runner is done; its post observation is pending
    body.move(4); // the raw body moves while the post observation is pending
    await clock.advance(15);
    answer(body.snapshot());
    const outcome = await done;
    expect(outcome.steps[0]).toMatchObject({ status: 'succeeded' });
    expect(outcome.steps[0]!.ttfaMs).toBeUndefined();
    expect(firsts).toEqual([]);
    expect(await metric(s.metrics.registry, 'sinew_step_ttfa_seconds_count')).toBe(0);
    expect(s.memory.records()[0]!.trace.map((e) => `${e.kind}:${e.name}@${e.atMs}`)).toEqual(['command:move@15']);
  });
});

describe('a progress note', () => {
  it('is not a behavior-tree transition: only ctx.transition counts one and tells bt.transition', async () => {
    const noted = defineFake({
      ...base,
      name: 'noted_twice',
      run: async (ctx) => {
        ctx.body.chat('start');
        ctx.progress('a quarter');
        ctx.progress();
        await ctx.sleep(3);
        ctx.transition('root/sel/wander', 'succeeded');
      },
    });
    const clock = new ManualClock();
    const s = executorOn(fakeBody(), clock, [noted]);
    const transitions: string[] = [];
    s.executor.on('bt.transition', (e) => void transitions.push(`${e.nodePath}:${e.state}`));
    const done = s.executor.run(one('noted_twice'));
    await clock.advance(5);
    expect((await done).steps[0]!.status).toBe('succeeded');
    expect(transitions).toEqual(['root/sel/wander:succeeded']);
    expect(await metric(s.metrics.registry, 'sinew_bt_node_transitions_total', { capability: 'noted_twice' })).toBe(1);
    expect(await metric(s.metrics.registry, 'sinew_bt_node_transitions_total', { capability: 'noted_twice', state: 'succeeded' })).toBe(1);
  });
});

describe('two executors on one body', () => {
  it('a command through the other executor’s attempt does not count for this one: it still trips ttfa_exceeded', async () => {
    const clock = new ManualClock();
    const body = fakeBody();
    const idle = defineFake({ ...base, name: 'idle_wait', run: (ctx) => ctx.sleep(10_000) });
    const pacer = defineFake({
      ...base,
      name: 'pacer',
      run: async (ctx) => {
        for (let i = 0; i < 12 && !ctx.signal.aborted; i += 1) {
          ctx.body.move(1);
          await ctx.sleep(50);
        }
      },
    });
    const waiting = executorOn(body, clock, [idle], { ttfaMs: 300, stuckMs: 5_000 });
    const busy = executorOn(body, clock, [pacer], { ttfaMs: 300, stuckMs: 5_000 });
    const waited = waiting.executor.run(one('idle_wait'));
    const paced = busy.executor.run(one('pacer'));
    await clock.advance(700);
    const [idleOutcome, pacedOutcome] = await Promise.all([waited, paced]);
    expect(pacedOutcome.steps[0]).toMatchObject({ status: 'succeeded', ttfaMs: 0 });
    expect(idleOutcome.steps[0]).toMatchObject({ status: 'failed', failure: { code: 'ttfa_exceeded' } });
    expect(body.calls.filter((c) => c === 'move:1')).toHaveLength(12);
    // both executors saw every command (the body's count), but only one attempt owned them
    expect(await metric(waiting.metrics.registry, 'sinew_step_ttfa_seconds_count')).toBe(0);
    expect(waiting.memory.records()[0]!.trace).toEqual([]);
  });

  it('a command of the raw body counts for the attempt running on either', async () => {
    const clock = new ManualClock();
    const body = fakeBody();
    const idle = defineFake({ ...base, name: 'idle_wait', run: (ctx) => ctx.sleep(1_000) });
    const first = executorOn(body, clock, [idle], { ttfaMs: 300 });
    const second = executorOn(body, clock, [idle], { ttfaMs: 300 });
    const done = [first.executor.run(one('idle_wait')), second.executor.run(one('idle_wait'))];
    await clock.advance(100);
    body.chat('outside');
    await clock.advance(1_000);
    const outcomes = await Promise.all(done);
    expect(outcomes.map((o) => [o.steps[0]!.status, o.steps[0]!.ttfaMs])).toEqual([
      ['succeeded', 100],
      ['succeeded', 100],
    ]);
  });
});
