import { accepted, ManualClock, type RunContext } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { traceActivity, watchdogFailure, type StepScope } from '../src/executor/attempt-result.js';
import { createExecutor } from '../src/index.js';
import { defineFake, fakeBody, registryWith, type Body } from './fake-body.js';

// A watchdog's failure says where the step stopped: the last entry of its trace (a command, a node transition or a
// progress note, and when), so a stuck step's report points at the wait that ran long without a probe.

const limits = { ttfaMs: 100, stuckMs: 300, timeoutMs: 900, graceMs: 0, traceLimit: 2 };
const scope = (entries: StepScope['entries'], dropped = 0): StepScope => ({ entries, dropped, startedAt: 0 });

describe('a watchdog failure’s reason', () => {
  it('names the last traced activity and when it came, after the limit that ran out', () => {
    const traced = scope([
      { atMs: 5, kind: 'command', name: 'setControlState' },
      { atMs: 1_240, kind: 'progress', name: 'drop 2: walk onto it', detail: 'at 3,64,-2' },
    ]);
    expect(watchdogFailure('stuck', limits, traced).reason).toBe('no actuator command, node transition or progress for 300 ms; the last activity was progress "drop 2: walk onto it" (at 3,64,-2) at 1240 ms into the step');
    expect(watchdogFailure('timeout', limits, scope([{ atMs: 7, kind: 'transition', name: 'root/seq/dig' }])).reason).toBe('attempt ran past its 900 ms deadline; the last activity was transition "root/seq/dig" at 7 ms into the step');
  });

  it('says nothing was traced when the step did nothing', () => {
    expect(watchdogFailure('ttfa_exceeded', limits, scope([])).reason).toBe('no actuator command within 100 ms of dispatch; nothing traced since the step started');
  });

  it('past a full trace, names the newest entry not kept (where the step went quiet), not the last kept', () => {
    const full = scope([]);
    traceActivity(full, 2, 1, 'command', 'look', undefined);
    traceActivity(full, 2, 2, 'command', 'dig', undefined);
    for (let at = 3; at < 40; at++) traceActivity(full, 2, at, 'command', 'setControlState', `forward=${at % 2 === 0}`);
    traceActivity(full, 2, 2_421, 'progress', 'walking to waypoint 7', '(40,64,-12)');
    expect(full.entries.map((e) => e.name)).toEqual(['look', 'dig']);
    expect(watchdogFailure('stuck', limits, full).reason).toBe(
      'no actuator command, node transition or progress for 300 ms; the last activity was progress "walking to waypoint 7" ((40,64,-12)) at 2421 ms into the step (the trace kept its first 2 entries, not the 38 after)',
    );
  });

  it('quotes at most 200 characters of a long progress note or detail', () => {
    const long = scope([{ atMs: 3, kind: 'progress', name: 'n'.repeat(10_000), detail: 'd'.repeat(5_000) }]);
    expect(watchdogFailure('stuck', limits, long).reason).toBe(`no actuator command, node transition or progress for 300 ms; the last activity was progress "${'n'.repeat(200)}…" (${'d'.repeat(200)}…) at 3 ms into the step`);
  });
});

describe('a stuck step run by the executor', () => {
  it('reports the progress note it went quiet after, not only the stuck window', async () => {
    const clock = new ManualClock();
    const quiet = defineFake({
      name: 'goes_quiet',
      version: '1.0.0',
      description: 'moves, notes a wait, then never acts again',
      inputSchema: z.strictObject({}),
      acceptance: () => accepted,
      run: (async (ctx: RunContext<Body>) => {
        ctx.body.move(1);
        await ctx.sleep(500);
        ctx.progress('waiting for the hand-over');
        await new Promise(() => {});
      }) as never,
    });
    const executor = createExecutor({ registry: registryWith(quiet), body: fakeBody(), clock, policy: { maxLocalRetries: 0, stuckMs: 3_000, abortGraceMs: 10 } });
    const done = executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 'q', type: 'goes_quiet', args: {} }] });
    await clock.advance(500);
    await clock.advance(3_000);
    await clock.advance(10);
    const outcome = await done;
    expect(outcome.steps[0]?.failure).toMatchObject({ code: 'stuck' });
    expect(outcome.steps[0]?.failure?.reason).toBe('no actuator command, node transition or progress for 3000 ms; the last activity was progress "waiting for the hand-over" at 500 ms into the step');
  });

  it('names the activity before the trip, not what the runner does while it stops (a tree halting on the abort)', async () => {
    const clock = new ManualClock();
    const halting = defineFake({
      name: 'halts_on_abort',
      version: '1.0.0',
      description: 'acts once, goes quiet, and on the abort reports its root failing before it returns',
      inputSchema: z.strictObject({}),
      acceptance: () => accepted,
      run: (async (ctx: RunContext<Body>) => {
        ctx.body.move(1);
        await ctx.sleep(200);
        ctx.progress('planning a path');
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
        ctx.transition('root', 'failed');
        return { ok: false, code: 'aborted', reason: 'aborted' };
      }) as never,
    });
    const executor = createExecutor({ registry: registryWith(halting), body: fakeBody(), clock, policy: { maxLocalRetries: 0, stuckMs: 3_000, abortGraceMs: 1_000 } });
    const done = executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 'h', type: 'halts_on_abort', args: {} }] });
    await clock.advance(200);
    await clock.advance(3_000);
    const outcome = await done;
    expect(outcome.steps[0]?.failure?.reason).toBe('no actuator command, node transition or progress for 3000 ms; the last activity was progress "planning a path" at 200 ms into the step');
  });
});
