import { accepted, effectsUnmet, guardOk, ManualClock, stepFailure } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createExecutorMetrics, createMemoryProvenance } from '../src/index.js';
import { defineFake, fakeBody, registryWith, type Body } from './fake-body.js';
import { metric } from './metric.js';

// A step preempted AFTER its effect happened in the world (the block broke just before a self-preservation mode
// took over) must not fail its resume on a guard that reads the changed world: acceptance against the kept `pre`
// decides first whether the effect is already in place. Manual clock, fake body, no server.

/** Breaks `target` after `windUpMs` of swinging (a progress note every 100 ms), then waits `lingerMs` for its drop. */
const breakBlock = defineFake({
  name: 'break_block',
  version: '2.1.0',
  description: 'swings at a block until it breaks, then lingers for the drop',
  inputSchema: z.strictObject({ target: z.string().min(1), windUpMs: z.number().int().nonnegative().default(0), lingerMs: z.number().int().positive() }),
  guard: ({ body }, { target }) => (body.blocks.has(target) ? guardOk : { ok: false, code: 'guard_failed', reason: `${target} is not there to break` }),
  observe: ({ body }) => body.snapshot(),
  run: async (ctx, { target, windUpMs, lingerMs }) => {
    ctx.body.chat('swing');
    for (let waited = 0; waited < windUpMs; waited += 100) {
      await ctx.sleep(100);
      ctx.progress('swinging');
      if (ctx.signal.aborted) return;
    }
    ctx.body.dig(target);
    for (let waited = 0; waited < lingerMs; waited += 100) {
      await ctx.sleep(100);
      ctx.progress('waiting for the drop');
      if (ctx.signal.aborted) return;
    }
  },
  // The effect is a log gained and the block gone, both measured from the step's own `pre`.
  acceptance: (pre, post, { target }) =>
    (post.inventory.log ?? 0) > (pre.inventory.log ?? 0) && pre.blocks.includes(target) && !post.blocks.includes(target) ? accepted : effectsUnmet([`broken:${target}`], `log ${pre.inventory.log ?? 0} → ${post.inventory.log ?? 0}`),
});

/** The fast path: says something and, when told to, burns a block away (gone, and no log for anyone). */
const scorch = defineFake({
  name: 'scorch',
  version: '1.0.0',
  description: 'a lava flow reaches the work site',
  inputSchema: z.strictObject({ burns: z.array(z.string()).max(3) }),
  safetyLevel: 'safe',
  run: async (ctx, { burns }) => {
    ctx.body.chat('hot!');
    for (const block of burns) ctx.body.blocks.delete(block);
  },
  acceptance: () => accepted,
});

function setup(extra: Parameters<typeof registryWith>[0][] = []) {
  const clock = new ManualClock();
  const body = fakeBody();
  const metrics = createExecutorMetrics();
  const memory = createMemoryProvenance();
  const executor = createExecutor({ registry: registryWith(breakBlock, scorch, ...extra), body, clock, metrics, provenance: [memory], policy: { maxLocalRetries: 0 } });
  return { clock, body, metrics, memory, executor };
}

type Setup = ReturnType<typeof setup>;

/** Runs `break_block` on log_2 and preempts it with `scorch` at `preemptAtMs`; resolves with the plan's outcome. */
async function preemptedBreak(s: Setup, args: { windUpMs?: number; lingerMs: number }, preemptAtMs: number, burns: string[] = []) {
  const done = s.executor.run({ planId: 'quarry', intentId: 'logs', steps: [{ stepId: 'break-2', type: 'break_block', args: { target: 'log_2', ...args } }] });
  await s.clock.advance(preemptAtMs);
  const [fast] = await Promise.all([s.executor.preempt([{ stepId: 'lava', type: 'scorch', args: { burns } }], { reason: 'mode:lava' }), s.clock.flush()]);
  expect(fast.map((o) => o.status)).toEqual(['succeeded']);
  await s.clock.advance(5_000);
  return done;
}

const digs = (body: Body) => body.calls.filter((call) => call.startsWith('dig:'));

describe('a step resumed after its effect already happened', () => {
  it('ends succeeded on acceptance against the kept pre, without running the capability again', async () => {
    const s = setup();
    const dispatched: string[] = [];
    s.executor.on('step.dispatched', (e) => void dispatched.push(`${e.stepId}#${e.attempt}`));
    const outcome = await preemptedBreak(s, { lingerMs: 1_000 }, 250);
    // the check is no dispatch: only the first attempt and the fast path's step were dispatched
    expect(dispatched).toEqual(['break-2#1', 'lava#1']);
    expect(outcome.status).toBe('completed');
    expect(outcome.steps[0]).toMatchObject({ stepId: 'break-2', status: 'succeeded', attempts: 1 });
    expect(outcome.steps[0]!.failure).toBeUndefined();
    // one swing and one dig: the resume ran nothing on the body
    expect(digs(s.body)).toEqual(['dig:log_2']);
    expect(s.body.calls.filter((call) => call === 'chat:swing')).toHaveLength(1);
    const record = s.memory.records().find((r) => r.stepId === 'break-2')!;
    expect(record).toMatchObject({ preemptions: 1, attempts: 1, acceptance: { ok: true }, failures: [] });
    expect(record.trace.at(-1)).toMatchObject({ kind: 'progress', name: 'accepted_on_resume' });
    expect(record.trace.at(-1)!.detail).toContain('log_2 is not there to break');
  });

  it('counts the step succeeded once and completes its idempotency key: the same step again is a duplicate, not a second dig', async () => {
    const s = setup();
    await preemptedBreak(s, { lingerMs: 700 }, 120);
    expect(await metric(s.metrics.registry, 'sinew_steps_total', { capability: 'break_block', outcome: 'succeeded' })).toBe(1);
    expect(await metric(s.metrics.registry, 'sinew_steps_total', { capability: 'break_block', outcome: 'failed' })).toBe(0);
    s.body.blocks.add('log_2');
    const again = await s.executor.run({ planId: 'quarry', intentId: 'logs', steps: [{ stepId: 'break-2', type: 'break_block', args: { target: 'log_2', lingerMs: 700 } }] });
    expect(again.steps[0]).toMatchObject({ status: 'succeeded', failure: { code: 'duplicate' } });
    expect(digs(s.body)).toEqual(['dig:log_2']);
    expect(s.body.blocks.has('log_2')).toBe(true);
  });

  it('still fails guard_failed when the effect is not in place (the block burned before it was dug): the check is in provenance', async () => {
    const s = setup();
    const outcome = await preemptedBreak(s, { windUpMs: 600, lingerMs: 100 }, 250, ['log_2']);
    expect(outcome.steps[0]).toMatchObject({ status: 'failed', attempts: 1, failure: { code: 'guard_failed', reason: 'log_2 is not there to break' } });
    expect(digs(s.body)).toEqual([]);
    const record = s.memory.records().find((r) => r.stepId === 'break-2')!;
    expect(record.acceptance).toEqual({ ok: false, unmet: ['broken:log_2'] });
    expect(record.failures.map((f) => f.code)).toEqual(['effects_unmet', 'guard_failed']);
    expect(record.trace.some((entry) => entry.name === 'accepted_on_resume')).toBe(false);
    expect(await metric(s.metrics.registry, 'sinew_steps_total', { capability: 'break_block', outcome: 'failed', code: 'guard_failed' })).toBe(1);
  });

  it('runs from the kept pre as before when the guard still holds (effect not yet in place)', async () => {
    const s = setup();
    const outcome = await preemptedBreak(s, { windUpMs: 600, lingerMs: 100 }, 250);
    expect(outcome.steps[0]).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(digs(s.body)).toEqual(['dig:log_2']);
    expect(s.body.calls.filter((call) => call === 'chat:swing')).toHaveLength(2);
    expect(s.memory.records().find((r) => r.stepId === 'break-2')!.trace.some((entry) => entry.name === 'accepted_on_resume')).toBe(false);
  });
});

describe('the acceptance check of a resume', () => {
  /** Like break_block, but its observe is asynchronous and, once `failAfter` observes happened, fails. */
  const slowLook = (failAfter: number) => {
    let observes = 0;
    return defineFake({
      name: 'slow_look',
      version: '0.3.0',
      description: 'breaks a block; looks slowly',
      inputSchema: z.strictObject({ target: z.string() }),
      guard: ({ body }, { target }) => (body.blocks.has(target) ? guardOk : { ok: false, code: 'guard_failed', reason: 'gone' }),
      observe: async ({ body }) => {
        observes += 1;
        if (observes > failAfter) throw stepFailure('runner_error', 'eyes closed');
        return body.snapshot();
      },
      run: async (ctx, { target }) => {
        ctx.body.dig(target);
        await ctx.sleep(2_000);
      },
      acceptance: (pre, post, { target }) => (!post.blocks.includes(target) && pre.blocks.includes(target) ? accepted : effectsUnmet([`broken:${target}`])),
    });
  };

  /** slow_look on log_3, preempted by scorch (burning nothing) 300 ms in. */
  const lookPreempted = async (s: Setup) => {
    const done = s.executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 'look', type: 'slow_look', args: { target: 'log_3' } }] });
    await s.clock.advance(300);
    await Promise.all([s.executor.preempt([{ stepId: 'lava', type: 'scorch', args: { burns: [] } }], { reason: 'mode:lava' }), s.clock.flush()]);
    await s.clock.advance(100);
    return done;
  };

  it('observes asynchronously: the step succeeds once the observation arrives', async () => {
    const s = setup([slowLook(5)]);
    expect((await lookPreempted(s)).steps[0]).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(digs(s.body)).toEqual(['dig:log_3']);
  });

  it('an observe that fails ends the step with the guard failure, the observe failure kept beside it', async () => {
    const s = setup([slowLook(1)]);
    expect((await lookPreempted(s)).steps[0]).toMatchObject({ status: 'failed', failure: { code: 'guard_failed', reason: 'gone' } });
    const failures = s.memory.records().find((r) => r.stepId === 'look')!.failures;
    expect(failures.map((f) => f.code)).toEqual(['runner_error', 'guard_failed']);
    // the post observe (it threw a failure object, not an Error: described as its JSON)
    expect(failures[0]!.reason).toBe('observe (post) of slow_look threw: {"code":"runner_error","reason":"eyes closed","retryable":true}');
  });
});
