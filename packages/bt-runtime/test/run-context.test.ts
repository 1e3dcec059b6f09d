import { accepted, blackboardKey, createBlackboard, ManualClock, MAX_TIMER_MS, type RunContext } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineBehavior, createExecutor } from '../src/index.js';
import { createTestRunContext } from '../src/testing/index.js';
import { defineFake, fakeBody, registryWith, type Body } from './fake-body.js';

const empty = z.object({});
const plan = (type: string) => ({ planId: 'p1', intentId: 'i1', steps: [{ stepId: 's1', type }] });

/** An executor on a ManualClock with one capability whose runner is `run`. */
function executorWith(run: (ctx: RunContext<Body>) => Promise<void>) {
  const clock = new ManualClock();
  const capability = defineFake({ name: 'sleeper', version: '1.0.0', description: 'sleeps', inputSchema: empty, run, acceptance: () => accepted });
  const executor = createExecutor({ registry: registryWith(capability), body: fakeBody(), clock, policy: { maxLocalRetries: 0 } });
  return { executor, clock };
}

describe('RunContext.sleep', () => {
  it("waits on the executor's clock: the runner goes on when fake time reaches the delay, not before", async () => {
    const woke: number[] = [];
    const { executor, clock } = executorWith(async (ctx) => {
      ctx.body.chat('start');
      await ctx.sleep(1_000);
      woke.push(ctx.now());
      ctx.body.chat('end');
    });
    const done = executor.run(plan('sleeper'));
    await clock.advance(999);
    expect(woke).toEqual([]);
    await clock.advance(1);
    expect((await done).steps[0]).toMatchObject({ status: 'succeeded' });
    expect(woke).toEqual([1_000]);
  });

  it('wakes at once, without throwing, when a watchdog aborts the attempt', async () => {
    const woke: { at: number; aborted: boolean }[] = [];
    const { executor, clock } = executorWith(async (ctx) => {
      ctx.body.chat('start');
      await ctx.sleep(60_000);
      woke.push({ at: ctx.now(), aborted: ctx.signal.aborted });
    });
    const done = executor.run(plan('sleeper'));
    await clock.advance(3_000); // the default stuck watchdog
    expect(woke).toEqual([{ at: 3_000, aborted: true }]);
    expect((await done).steps[0]).toMatchObject({ status: 'failed', failure: { code: 'stuck' } });
    expect(clock.pending()).toBe(0); // the 60 s timer was cleared, not left behind
  });

  it('refuses a negative, NaN, infinite or over-MAX_TIMER_MS delay with a RangeError naming it', async () => {
    const ctx = createTestRunContext({ body: null, clock: new ManualClock() });
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, MAX_TIMER_MS + 1]) {
      await expect(ctx.sleep(bad)).rejects.toThrow(new RangeError(`ctx.sleep(ms): ms must be a number from 0 to ${MAX_TIMER_MS}, received ${bad}`));
    }
    await expect(ctx.sleep('5' as unknown as number)).rejects.toThrow(/received a string \(5\)/);
  });

  it('a bad delay in a runner ends the step as a coded runner_error, never a hang', async () => {
    const { executor, clock } = executorWith(async (ctx) => {
      ctx.body.chat('start');
      await ctx.sleep(-5);
    });
    const done = executor.run(plan('sleeper'));
    await clock.flush();
    const step = (await done).steps[0];
    expect(step).toMatchObject({ status: 'failed', failure: { code: 'runner_error' } });
    expect(step?.failure?.reason).toMatch(/ctx\.sleep\(ms\): ms must be a number from 0 to \d+, received -5/);
  });

  it('in a behavior-tree leaf wakes when that leaf is aborted (maxNodeDurationMs), not only the step', async () => {
    const woke: number[] = [];
    const tree = defineBehavior<null, null>({
      tree: `root { action [Nap] }`,
      maxNodeDurationMs: 500,
      actions: {
        Nap: async (ctx) => {
          await ctx.sleep(10_000);
          woke.push(ctx.now());
          return !ctx.signal.aborted;
        },
      },
    });
    const clock = new ManualClock();
    const ctx = createTestRunContext({ body: null, clock });
    const result = tree.run(ctx, null);
    await clock.advance(600);
    await expect(result).resolves.toMatchObject({ ok: false, code: 'stuck', nodePath: 'root/action:Nap[0]' });
    expect(woke).toHaveLength(1);
    expect(woke[0]).toBeLessThan(10_000);
    expect(ctx.signal.aborted).toBe(false); // the leaf was aborted, not the step
  });
});

describe('blackboardKey', () => {
  it('reads back what was written, typed, and shares the entry between keys of the same name', () => {
    const board = createBlackboard();
    const count = blackboardKey<number>('test.count');
    expect(board.get(count)).toBeUndefined();
    board.set(count, 3);
    const value: number | undefined = board.get(count);
    expect(value).toBe(3);
    expect(board.get(blackboardKey<number>('test.count'))).toBe(3);
    expect(board.has(count)).toBe(true);
    expect(board.delete(count)).toBe(true);
    expect(board.has(count)).toBe(false);
    // @ts-expect-error a number key takes no string: tsc fails here if the key stops carrying its type.
    board.set(count, 'three');
  });

  it('refuses a name that is not a dotted identifier', () => {
    for (const bad of ['', '.target', 'gather..target', 'gather target', 7 as unknown as string]) {
      expect(() => blackboardKey(bad)).toThrow(TypeError);
    }
    expect(() => blackboardKey('gather.baseline.1')).not.toThrow();
  });
});

describe('createTestRunContext', () => {
  it('records progress and transitions, and aborts through ctx.abort() or an outer signal', () => {
    const outer = new AbortController();
    const ctx = createTestRunContext({ body: { n: 1 }, clock: new ManualClock(5), signal: outer.signal, step: { verb: 'dig', attempt: 2 } });
    ctx.progress('half way');
    ctx.progress();
    ctx.transition('root/action:Dig[0]', 'running');
    expect(ctx.progressNotes).toEqual(['half way', 'progress']);
    expect(ctx.transitions).toEqual(['root/action:Dig[0]=running']);
    expect(ctx.step).toMatchObject({ verb: 'dig', attempt: 2, planId: 'test-plan' });
    expect(ctx.now()).toBe(5);
    outer.abort(new Error('cancelled'));
    expect(ctx.signal.aborted).toBe(true);
    expect(ctx.signal.reason).toEqual(new Error('cancelled'));
    const own = createTestRunContext({ body: null, clock: new ManualClock() });
    own.abort();
    expect(own.signal.reason).toMatchObject({ name: 'StepAbortError', code: 'aborted' });
  });

  it('refuses unknown options and a missing clock with a TypeError naming the field', () => {
    expect(() => createTestRunContext({ body: null, clock: new ManualClock(), clok: 1 } as never)).toThrow(/unrecognized key.*"clok"/i);
    expect(() => createTestRunContext({ body: null } as never)).toThrow(/clock: expected a Clock/);
  });
});
