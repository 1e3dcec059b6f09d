import { accepted, ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createMemoryProvenance, type ExecutorPolicyInput } from '../src/index.js';
import { defineFake, fakeBody, registryWith, walker } from './fake-body.js';

const empty = z.object({});
/** Chats its name once and succeeds. */
const say = (name: string, safetyLevel?: 'safe' | 'caution' | 'restricted') =>
  defineFake({ name, version: '1.0.0', description: name, inputSchema: empty, ...(safetyLevel ? { safetyLevel } : {}), run: async (ctx) => ctx.body.chat(name), acceptance: () => accepted });

function setup(policy: ExecutorPolicyInput = {}) {
  const body = fakeBody();
  const clock = new ManualClock();
  const provenance = createMemoryProvenance();
  const registry = registryWith(walker, say('chat'), say('wipe_chunk', 'restricted'), say('fight', 'caution'), say('flee'));
  const executor = createExecutor({ registry, body, clock, provenance, policy: { maxLocalRetries: 0, ...policy } });
  return { body, clock, provenance, executor };
}
const intent = (id: string, urgency: number, extra: object = {}) => ({ id, source: 'user' as const, goal: id, urgency, ...extra });

describe('PlanStep.safetyLevel is acted on (issue 26 item 3)', () => {
  it('a restricted step without a grant is refused guard_failed naming the level; nothing runs', async () => {
    const s = setup();
    const byStep = await s.executor.run({ planId: 'p1', intentId: 'i', steps: [{ stepId: 'a', type: 'chat', safetyLevel: 'restricted' }] });
    expect(byStep.steps[0]).toMatchObject({ status: 'failed', attempts: 0, failure: { code: 'guard_failed', reason: expect.stringContaining('safetyLevel restricted') } });
    const byCapability = await s.executor.run({ planId: 'p2', intentId: 'i', steps: [{ stepId: 'b', type: 'wipe_chunk', safetyLevel: 'safe' }] });
    expect(byCapability.steps[0]).toMatchObject({ failure: { code: 'guard_failed', reason: expect.stringContaining('restricted') } });
    expect(s.body.calls).toEqual([]);
  });

  it('runs restricted steps under an explicit grant: the intent or the policy', async () => {
    const s = setup();
    const granted = await s.executor.run({ planId: 'p1', intentId: 'ok', steps: [{ stepId: 'a', type: 'wipe_chunk' }] }, { intent: intent('ok', 0.5, { safety: { allowed: true, allowRestricted: true } }) });
    expect(granted.status).toBe('completed');
    const byPolicy = setup({ allowRestricted: true });
    expect((await byPolicy.executor.run({ planId: 'p2', intentId: 'i', steps: [{ stepId: 'a', type: 'wipe_chunk' }] })).status).toBe('completed');
    expect([...s.body.calls, ...byPolicy.body.calls]).toEqual(['chat:wipe_chunk', 'chat:wipe_chunk']);
  });

  it('a caution step is not dispatched while a self-preservation hold holds the body; a safe step is', async () => {
    const s = setup();
    const fleeing = s.executor.preempt([{ stepId: 'f', type: 'flee' }], { reason: 'mode:low_health:flee', holdMs: 500 });
    await s.clock.advance(1);
    await fleeing;
    const safe = s.executor.run({ planId: 'safe', intentId: 'i', steps: [{ stepId: 'c', type: 'chat' }] });
    const caution = s.executor.run({ planId: 'caution', intentId: 'i', steps: [{ stepId: 'x', type: 'fight' }] });
    await s.clock.advance(400);
    expect((await safe).status).toBe('completed');
    expect(s.body.calls).toEqual(['chat:flee', 'chat:chat']);
    await s.clock.advance(150);
    expect((await caution).status).toBe('completed');
    expect(s.body.calls).toEqual(['chat:flee', 'chat:chat', 'chat:fight']);
    // Without a hold (a plain preemption), caution steps go at once.
    const after = s.executor.preempt([{ stepId: 'f2', type: 'flee' }], { reason: 'manual' });
    await s.clock.advance(1);
    await after;
    const again = s.executor.run({ planId: 'again', intentId: 'i', steps: [{ stepId: 'x', type: 'fight' }] });
    await s.clock.advance(1);
    expect((await again).status).toBe('completed');
  });

  it("holds: 'all' holds every plan step; preempt([]) with a hold renews it without interrupting or counting a preemption", async () => {
    const s = setup();
    const pillar = s.executor.preempt([{ stepId: 'p', type: 'flee' }], { reason: 'mode:low_health:pillar_up', holdMs: 500, holds: 'all', tier: 2 });
    await s.clock.advance(1);
    await pillar;
    const plan = s.executor.run({ planId: 'mine', intentId: 'i', steps: [{ stepId: 'm', type: 'chat' }] });
    // Sheltering: the mode renews the hold before it runs out, twice, with nothing to run.
    await s.clock.advance(400);
    expect(await s.executor.preempt([], { reason: 'mode:low_health:shelter', holdMs: 500, holds: 'all' })).toEqual([]);
    await s.clock.advance(400);
    await s.executor.preempt([], { reason: 'mode:low_health:shelter', holdMs: 500, holds: 'all' });
    await s.clock.advance(450);
    expect(s.body.calls).toEqual(['chat:flee']);
    await s.clock.advance(100);
    expect((await plan).status).toBe('completed');
    expect(s.body.calls).toEqual(['chat:flee', 'chat:chat']);
    const text = await s.executor.metrics.registry.getSingleMetricAsString('sinew_preemptions_total');
    expect(text).toContain('reason="mode:low_health:pillar_up"} 1');
    expect(text).not.toContain('shelter');
  });
});

describe('Intent.urgency becomes step priority (URGENCY_PRIORITY)', () => {
  it('an urgent plan takes over a routine plan at its next safe point; the routine plan resumes', async () => {
    const s = setup();
    const events: string[] = [];
    s.executor.on('step.preempted', (e) => events.push(`preempted:${e.stepId}:${e.reason}`));
    s.executor.on('step.resumed', (e) => events.push(`resumed:${e.stepId}`));
    const routine = s.executor.run({ planId: 'routine', intentId: 'r', steps: [{ stepId: 'w', type: 'walker' }] }, { intent: intent('r', 0.1) });
    await s.clock.advance(250);
    const urgent = s.executor.run({ planId: 'urgent', intentId: 'u', steps: [{ stepId: 'c', type: 'chat' }] }, { intent: intent('u', 0.95) });
    await s.clock.advance(10);
    expect((await urgent).status).toBe('completed');
    expect(events).toEqual(['preempted:w:a higher-priority step was waiting', 'resumed:w']);
    expect(s.executor.state().activeStep).toMatchObject({ stepId: 'w', phase: 'running' });
    await s.executor.close();
    expect((await routine).steps[0]).toMatchObject({ failure: { code: 'aborted' } });
  });

  it('equal urgency never takes over; an explicit step priority wins over the urgency', async () => {
    const s = setup();
    const routine = s.executor.run({ planId: 'routine', intentId: 'r', steps: [{ stepId: 'w', type: 'walker', priority: 5 }] }, { intent: intent('r', 0.1) });
    await s.clock.advance(250);
    const urgent = s.executor.run({ planId: 'urgent', intentId: 'u', steps: [{ stepId: 'c', type: 'chat' }] }, { intent: intent('u', 0.95) });
    await s.clock.advance(300);
    expect(s.body.calls).not.toContain('chat:chat');
    await s.executor.close();
    await Promise.all([routine, urgent]);
  });
});

describe('provenance names where a plan came from', () => {
  it("each record carries the intent's provenanceRef and the plan's configHash", async () => {
    const s = setup();
    const plan = { planId: 'p', intentId: 'chat-42', configHash: 'sha256:abc', steps: [{ stepId: 'a', type: 'chat' }, { stepId: 'b', type: 'chat' }] };
    expect((await s.executor.run(plan, { intent: intent('chat-42', 0.5, { provenanceRef: 'chat:alex:1732650000' }) })).status).toBe('completed');
    expect(s.provenance.records().map((r) => [r.stepId, r.provenanceRef, r.configHash])).toEqual([
      ['a', 'chat:alex:1732650000', 'sha256:abc'],
      ['b', 'chat:alex:1732650000', 'sha256:abc'],
    ]);
  });
});
