import { accepted, ManualClock, type StepOutcome } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor } from '../src/index.js';
import { defineFake, fakeBody, registryWith, walker } from './fake-body.js';

const empty = z.object({});
/** Chats its name, works `ms` on the clock (abortable unless atomic), chats again and succeeds. */
const worker = (name: string, ms: number, atomic = false) =>
  defineFake({
    name,
    version: '1.0.0',
    description: name,
    inputSchema: empty,
    atomic,
    run: async (ctx) => {
      ctx.body.chat(`${name}:start`);
      for (let left = ms; left > 0 && (atomic || !ctx.signal.aborted); left -= 50) await ctx.sleep(50);
      if (!ctx.signal.aborted || atomic) ctx.body.chat(`${name}:end`);
    },
    acceptance: () => accepted,
  });

function setup() {
  const body = fakeBody();
  const clock = new ManualClock();
  // a defense fight (long), a sparring bout (short), a swing that cannot stop (atomic), a flee (short)
  const registry = registryWith(walker, worker('fight', 10_000), worker('spar', 300), worker('swing', 300, true), worker('flee', 100));
  const executor = createExecutor({ registry, body, clock, policy: { maxLocalRetries: 0 } });
  const ended: string[] = [];
  /** Runs a preemption and notes `label` when it settles (the order preemptions end in). */
  const preempt = (label: string, types: readonly string[], tier?: number): Promise<StepOutcome[]> =>
    executor.preempt(types.map((type, i) => ({ stepId: `${label}-${i}`, type })), { reason: `test:${label}`, ...(tier === undefined ? {} : { tier }) }).then((outcomes) => (ended.push(label), outcomes));
  return { body, clock, executor, ended, preempt };
}

describe('preempt tiers: self-preservation outranks a running defense fast path', () => {
  it('a higher tier stops the running preemption step at its safe point: it and the rest of its preemption end preempted, never resumed', async () => {
    const s = setup();
    const events: string[] = [];
    s.executor.on('step.preempted', (e) => events.push(`preempted:${e.stepId}`));
    s.executor.on('step.resumed', (e) => events.push(`resumed:${e.stepId}`));
    const plan = s.executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 'w', type: 'walker' }] });
    await s.clock.advance(150);
    const defense = s.preempt('defense', ['fight', 'fight'], 1);
    await s.clock.advance(500);
    expect(s.executor.state().activeStep).toMatchObject({ stepId: 'defense-0', phase: 'running' });
    const flee = s.preempt('flee', ['flee'], 2);
    await s.clock.advance(10);
    const [fight, second] = await defense;
    const reason = expect.stringContaining('outranked by a higher-tier preemption (test:flee): not resumed');
    expect(fight).toMatchObject({ stepId: 'defense-0', status: 'failed', failure: { code: 'preempted', reason, retryable: false } });
    expect(second).toMatchObject({ stepId: 'defense-1', status: 'failed', attempts: 0, failure: { code: 'preempted', reason } });
    await s.clock.advance(200);
    expect((await flee)[0]).toMatchObject({ status: 'succeeded' });
    expect(s.body.calls.filter((c) => c.startsWith('chat:'))).toEqual(['chat:fight:start', 'chat:flee:start', 'chat:flee:end']);
    // the plan step interrupted by the defense resumes after the flee; nothing resumes the fight
    expect(s.executor.state().activeStep).toMatchObject({ stepId: 'w' });
    expect(events).toEqual(['preempted:w', 'resumed:w']);
    await s.executor.close();
    await plan;
  });

  it('an equal tier, a lower tier or no tier waits for the running preemption to end (a fast path is not cut short by its peers)', async () => {
    const s = setup();
    const first = s.preempt('first', ['spar'], 2);
    await s.clock.advance(100);
    const same = s.preempt('same', ['flee'], 2);
    const lower = s.preempt('lower', ['flee'], 1);
    const none = s.preempt('none', ['flee']);
    await s.clock.advance(1_000);
    expect((await Promise.all([first, same, lower, none])).flat().map((o) => o.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    expect(s.ended).toEqual(['first', 'same', 'lower', 'none']);
  });

  it('an atomic step of the outranked preemption finishes first; the steps after it end at once', async () => {
    const s = setup();
    const defense = s.preempt('defense', ['swing', 'spar'], 1);
    await s.clock.advance(100);
    const flee = s.preempt('flee', ['flee'], 2);
    await s.clock.advance(1_000);
    const [swing, spar] = await defense;
    expect(swing).toMatchObject({ status: 'succeeded' });
    expect(spar).toMatchObject({ status: 'failed', attempts: 0, failure: { code: 'preempted' } });
    expect((await flee)[0]?.status).toBe('succeeded');
    expect(s.body.calls.filter((c) => c.startsWith('chat:'))).toEqual(['chat:swing:start', 'chat:swing:end', 'chat:flee:start', 'chat:flee:end']);
  });

  it('waiting preemptions are served by tier, then in arrival order; a tier that is not a non-negative integer counts as 0', async () => {
    const s = setup();
    const running = s.preempt('running', ['spar'], 5);
    await s.clock.advance(50);
    const low = s.preempt('low', ['flee'], 1);
    const bad = s.preempt('bad', ['flee'], -3);
    const high = s.preempt('high', ['flee'], 3);
    const fraction = s.preempt('fraction', ['flee'], 2.5);
    const alsoHigh = s.preempt('alsoHigh', ['flee'], 3);
    await s.clock.advance(2_000);
    await Promise.all([running, low, bad, high, fraction, alsoHigh]);
    expect(s.ended).toEqual(['running', 'high', 'alsoHigh', 'low', 'bad', 'fraction']);
    // tier -3 and 2.5 are 0: neither outranked `low`'s flee (tier 1) nor stopped anything
    expect((await bad)[0]?.status).toBe('succeeded');
  });
});
