import { WorldSnapshotSchema } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { createNeedsPlanner, PlannerWorldSchema, type PlannerWorld } from '../src/index.js';

const core = { position: { x: 0, y: 64, z: 0 }, health: 20, food: 20, heldItem: null, inventory: { oak_log: 2 }, blocks: { '2,64,0': 'oak_log' }, time: 6000 };
const withThreats: PlannerWorld = { ...core, threats: [{ entity: 'zombie', position: { x: 4, y: 64, z: 0 }, distance: 4 }] };

describe('PlannerWorldSchema extends the contracts’ WorldSnapshotSchema', () => {
  it('shares the core fields as the very same schemas and adds only threats', () => {
    for (const key of Object.keys(WorldSnapshotSchema.shape) as (keyof typeof WorldSnapshotSchema.shape)[]) {
      expect(PlannerWorldSchema.shape[key]).toBe(WorldSnapshotSchema.shape[key]);
    }
    expect(Object.keys(PlannerWorldSchema.shape).filter((key) => !(key in WorldSnapshotSchema.shape))).toEqual(['threats']);
  });

  it('reads a planner snapshot as a core snapshot (the shared fields, threats left out) and a core snapshot as a planner one', () => {
    expect(WorldSnapshotSchema.parse(withThreats)).toEqual(core);
    expect(PlannerWorldSchema.parse(withThreats)).toEqual(withThreats);
    expect(PlannerWorldSchema.parse(core)).toEqual(core);
  });

  it('refuses unknown keys, at the top and inside a threat, naming them', () => {
    const typo = PlannerWorldSchema.safeParse({ ...core, inventroy: {} });
    expect(typo.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['inventroy'], path: [] });
    const threat = PlannerWorldSchema.safeParse({ ...core, threats: [{ entity: 'zombie', distance: 3, hp: 20 }] });
    expect(threat.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['hp'], path: ['threats', 0] });
    const position = PlannerWorldSchema.safeParse({ ...core, position: { x: 0, y: 64, z: 0, yaw: 1 } });
    expect(position.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['yaw'], path: ['position'] });
  });

  it('makes the needs planner answer invalid_world for a snapshot with an unknown key (never a plan from a misread world)', () => {
    const needs = createNeedsPlanner({ seed: 1 });
    const intent = needs.formIntent(core as PlannerWorld);
    const result = needs.plan(intent, { ...core, entities: {} } as unknown as PlannerWorld);
    expect(result).toMatchObject({ ok: false, failure: { code: 'invalid_world', reason: expect.stringContaining('entities') } });
  });
});
