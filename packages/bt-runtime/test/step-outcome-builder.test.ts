import type { StepFailure } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import type { PlanContext } from '../src/executor/plan-context.js';
import { buildOutcome, Phase, shownPhase, StepPhaseError, transition, type StepEnd } from '../src/executor/step.js';
import { digBlock } from './fake-body.js';

// The one outcome builder (every field a step ended with, in one order, nothing unset) and the phase a live step
// shows in state(): the four public names from the ten internal phases.

const planCtx: PlanContext = { plan: { planId: 'plan-7', intentId: 'i', steps: [{ stepId: 'dig', type: 'dig_block', args: { block: 'b' } }] } };
const stuck: StepFailure = { code: 'stuck', reason: 'no progress for 50 ms', retryable: true };
const base: StepEnd = { planCtx, stepId: 'dig', verb: 'dig_block', status: 'succeeded', attempts: 2, startedAt: 40 };

/** The outcome as its JSON line reads (key order included: it is what a provenance log shows). */
const line = (end: StepEnd, endedAt = 90) => JSON.stringify(buildOutcome(end, endedAt));

describe('buildOutcome', () => {
  it('a refused step (no capability) carries only the fields it has', () => {
    expect(line({ ...base, status: 'failed', failure: stuck })).toBe(
      '{"planId":"plan-7","stepId":"dig","verb":"dig_block","status":"failed","attempts":2,"startedAt":40,"endedAt":90,"failure":{"code":"stuck","reason":"no progress for 50 ms","retryable":true}}',
    );
    expect(line(base)).toBe('{"planId":"plan-7","stepId":"dig","verb":"dig_block","status":"succeeded","attempts":2,"startedAt":40,"endedAt":90}');
  });

  it('a run step names its capability, then its failure or its time to first action', () => {
    const cap = '"capability":{"name":"dig_block","version":"1.0.0"}';
    const head = '{"planId":"plan-7","stepId":"dig","verb":"dig_block","status":"succeeded","attempts":2,"startedAt":40,"endedAt":90';
    expect(line({ ...base, capability: digBlock })).toBe(`${head},${cap}}`);
    expect(line({ ...base, capability: digBlock, ttfaMs: 0 })).toBe(`${head},${cap},"ttfaMs":0}`);
    const failedHead = head.replace('succeeded', 'failed');
    expect(line({ ...base, status: 'failed', capability: digBlock, failure: stuck })).toBe(`${failedHead},${cap},"failure":${JSON.stringify(stuck)}}`);
    expect(line({ ...base, status: 'failed', capability: digBlock, failure: stuck, ttfaMs: 12 })).toBe(`${failedHead},${cap},"failure":${JSON.stringify(stuck)},"ttfaMs":12}`);
  });

  it('observables come last, with or without a capability', () => {
    const observables = { dug: 1 };
    expect(buildOutcome({ ...base, capability: digBlock, ttfaMs: 3, observables }, 90)).toStrictEqual({
      planId: 'plan-7',
      stepId: 'dig',
      verb: 'dig_block',
      status: 'succeeded',
      attempts: 2,
      startedAt: 40,
      endedAt: 90,
      capability: { name: 'dig_block', version: '1.0.0' },
      ttfaMs: 3,
      observables,
    });
    expect(Object.keys(buildOutcome({ ...base, observables, ttfaMs: 5 }, 90)).slice(-2)).toEqual(['ttfaMs', 'observables']);
  });

  it('leaves out what the end does not set: no key reads undefined', () => {
    const outcomes = [
      buildOutcome({ ...base, capability: digBlock }, 1),
      buildOutcome({ ...base, capability: digBlock, ttfaMs: 4 }, 1),
      buildOutcome({ ...base, capability: digBlock, failure: stuck }, 1),
      buildOutcome({ ...base, capability: digBlock, failure: stuck, ttfaMs: 4 }, 1),
      buildOutcome({ ...base, capability: digBlock, observables: {} }, 1),
      buildOutcome({ ...base, capability: undefined, failure: undefined, ttfaMs: undefined, observables: undefined }, 1),
    ];
    for (const outcome of outcomes) expect(Object.entries(outcome).filter(([, value]) => value === undefined)).toEqual([]);
    expect(outcomes.map((o) => Object.keys(o).length)).toEqual([8, 9, 9, 10, 9, 7]);
  });

  it('gives each capability one reference object, shared by its outcomes', () => {
    const a = buildOutcome({ ...base, capability: digBlock }, 1);
    const b = buildOutcome({ ...base, capability: digBlock, failure: stuck, ttfaMs: 2, observables: { x: 1 } }, 2);
    expect(a.capability).toBe(b.capability);
    expect(Object.isFrozen(a.capability)).toBe(true);
  });
});

describe('the phase state() shows', () => {
  it('is starting until the first attempt, running from then on, backoff and interrupted as they are', () => {
    const shown = (Object.keys(Phase) as (keyof typeof Phase)[]).map((name) => `${name}:${shownPhase(Phase[name], 0)}/${shownPhase(Phase[name], 1)}`);
    expect(shown).toEqual([
      'queued:starting/starting',
      'admitted:starting/starting',
      'guarding:starting/running',
      'observing:running/running',
      'running:running/running',
      'grace:running/running',
      'accepting:running/running',
      'backoff:backoff/backoff',
      'interrupted:interrupted/interrupted',
      'ended:running/running',
    ]);
  });

  it('a guard re-run before a retry shows running for any attempt count above zero', () => {
    expect([2, 7].map((attempts) => shownPhase(Phase.guarding, attempts))).toEqual(['running', 'running']);
  });
});

describe('an illegal phase change', () => {
  it('names both phases, and keeps them as fields', () => {
    let thrown: unknown;
    try {
      transition(Phase.ended, Phase.running);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StepPhaseError);
    expect(thrown).toMatchObject({ name: 'StepPhaseError', from: 'ended', to: 'running', message: 'illegal step phase change ended → running' });
  });

  it('returns the phase it changed to', () => {
    expect(transition(Phase.queued, Phase.admitted)).toBe(Phase.admitted);
    expect(transition(Phase.backoff, Phase.guarding)).toBe(Phase.guarding);
  });
});
