import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CapabilityRegistry,
  checkStep,
  defineCapability,
  describeError,
  IntentSchema,
  PlanSchema,
  PlanStepSchema,
  RunnerResultSchema,
  StepFailureSchema,
  StepOutcomeSchema,
  summarizeIssues,
  Vec3Schema,
  WorldSnapshotSchema,
} from '@sinew/executor-contracts';

describe('schemas', () => {
  it('fills Intent defaults and bounds urgency', () => {
    const intent = IntentSchema.parse({ id: 'i1', source: 'user', goal: 'get wood', urgency: 0.5 });
    expect(intent).toEqual({ id: 'i1', source: 'user', goal: 'get wood', urgency: 0.5, context: {}, safety: { allowed: true }, traits: [] });
    expect(IntentSchema.safeParse({ id: 'i1', source: 'user', goal: 'x', urgency: 2 }).success).toBe(false);
    expect(IntentSchema.safeParse({ id: 'i1', source: 'alien', goal: 'x', urgency: 0 }).success).toBe(false);
  });

  it('defaults step args to {} and rejects bad fields with a path', () => {
    expect(PlanStepSchema.parse({ stepId: 's', type: 'chat' }).args).toEqual({});
    const bad = PlanStepSchema.safeParse({ stepId: '', type: 'chat', args: [], expectedDurationMs: -1 });
    expect(bad.success).toBe(false);
    const paths = bad.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['stepId', 'args', 'expectedDurationMs']));
  });

  it('rejects step preconds/effects that are not predicates, naming the index and what was expected', () => {
    const ok = PlanStepSchema.safeParse({ stepId: 's', type: 'craft_item', preconds: ['has_item:stick:2', 'near_block:crafting_table'], effects: ['has_item:wooden_pickaxe:+1'] });
    expect(ok.success).toBe(true);
    const bad = PlanStepSchema.safeParse({ stepId: 's', type: 'craft_item', preconds: ['has_item:stick:2', 'hungry:yes'], effects: ['has_item:stick:0'] });
    expect(bad.error?.issues.map((i) => [i.path, i.message])).toEqual([
      [['preconds', 1], expect.stringContaining('unknown predicate kind "hungry"')],
      [['effects', 0], expect.stringContaining('expected has_item:<item | food | any>')],
    ]);
  });

  it('rejects unreadable preconds in checkStep as invalid_args with the zod issue', () => {
    const registry = new CapabilityRegistry().register(
      defineCapability({ name: 'chat', version: '1.0.0', description: 'say', inputSchema: z.object({}), run: async () => {}, acceptance: () => ({ ok: true }) }),
    );
    const check = checkStep(registry, { stepId: 's', type: 'chat', effects: ['chat:shouted'] });
    expect(check.ok ? undefined : check.failure).toMatchObject({ code: 'invalid_args', issues: [{ path: ['effects', 0], message: expect.stringContaining('expected chat:echoed') }] });
  });

  it('caps verb and id length so hostile input stays cheap', () => {
    expect(PlanStepSchema.safeParse({ stepId: 's', type: 'a'.repeat(129) }).success).toBe(false);
    expect(PlanStepSchema.safeParse({ stepId: 's'.repeat(257), type: 'a' }).success).toBe(false);
  });

  it('validates a plan and every step in it', () => {
    const plan = PlanSchema.parse({ planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 'chat', args: { message: 'hi' } }] });
    expect(plan.steps[0]?.type).toBe('chat');
    const bad = PlanSchema.safeParse({ planId: 'p', intentId: 'i', steps: [{ stepId: 's' }] });
    expect(bad.error?.issues[0]?.path).toEqual(['steps', 0, 'type']);
  });

  it('accepts the outcome shape the executor emits', () => {
    const failure = { code: 'effects_unmet', reason: 'no log', retryable: true, unmet: ['has_item:log'] };
    expect(StepFailureSchema.parse(failure)).toEqual(failure);
    expect(StepFailureSchema.safeParse({ ...failure, code: 'nope' }).success).toBe(false);
    const outcome = { planId: 'p', stepId: 's', verb: 'dig_block', status: 'failed', failure, attempts: 3, startedAt: 0, endedAt: 10 };
    expect(StepOutcomeSchema.parse(outcome)).toEqual(outcome);
    expect(StepOutcomeSchema.safeParse({ ...outcome, status: 'maybe' }).success).toBe(false);
  });

  it('takes a Vec3 with finite coordinates only, refusing unknown keys and naming the field', () => {
    expect(Vec3Schema.parse({ x: 1.5, y: -2, z: 0 })).toEqual({ x: 1.5, y: -2, z: 0 });
    expect(Vec3Schema.safeParse({ x: 0, y: 0, z: Number.POSITIVE_INFINITY }).error?.issues[0]?.path).toEqual(['z']);
    const extra = Vec3Schema.safeParse({ x: 0, y: 0, z: 0, w: 1 });
    expect(extra.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['w'] });
  });

  it('reads the core world snapshot: integer counts, a nullable held item, optional time', () => {
    const core = { position: { x: 0, y: 64, z: 0 }, health: 20, food: 18, heldItem: null, inventory: { oak_log: 3 }, blocks: { '1,64,0': 'oak_log' } };
    expect(WorldSnapshotSchema.parse(core)).toEqual(core);
    const bad = WorldSnapshotSchema.safeParse({ ...core, inventory: { oak_log: 1.5 }, position: { x: 0, y: 0 } });
    expect(bad.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual(['inventory.oak_log', 'position.z']);
  });

  it('reads every runner result the executor accepts, and names the field of one it refuses', () => {
    expect(RunnerResultSchema.parse(undefined)).toBeUndefined();
    expect(RunnerResultSchema.parse({ ok: true, observables: { dug: 1 } })).toEqual({ ok: true, observables: { dug: 1 } });
    const failure = { ok: false, code: 'precond_missing', reason: 'no table', missing: ['near_block:crafting_table'] };
    expect(RunnerResultSchema.parse(failure)).toEqual(failure);
    expect(RunnerResultSchema.safeParse({ ok: false, code: 'nope', reason: 'x' }).success).toBe(false);
    expect(RunnerResultSchema.safeParse({ ok: false }).success).toBe(false);
  });

  it('summarizes zod issues as serializable records', () => {
    const result = PlanStepSchema.safeParse({ stepId: 's', type: 7 });
    const summary = summarizeIssues(result.error!.issues);
    expect(summary).toEqual([{ path: ['type'], code: 'invalid_type', message: expect.stringContaining('expected string') }]);
    expect(JSON.parse(JSON.stringify(summary))).toEqual(summary);
  });

  it('describes anything thrown without throwing itself', () => {
    expect(describeError(new Error('boom'))).toBe('boom');
    expect(describeError('text')).toBe('text');
    expect(describeError({ a: 1 })).toBe('{"a":1}');
    expect(describeError(undefined)).toBe('undefined');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeError(cyclic)).toBe('[object Object] (not serialisable)');
    expect(describeError(10n)).toBe('10');
  });
});
