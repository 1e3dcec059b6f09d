import { createStandardRegistry } from '@sinew/capabilities';
import { CapabilityRegistry, defineCapability, guardOk, precondMissing, pred, unverified, type Plan, type RepairRequest } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createGoapPlanner, createHtnPlanner, type PlannerWorld } from '../../src/index.js';
import { minecraftGoapDomain, recipeBook } from '../../src/minecraft/index.js';

/** Search bounds in tests are nodes, not the machine's speed: the injected clock never moves. */
const frozen = { now: () => 0 };

// A user's own capabilities, the way the codemod wraps them: no HTN method is written for either.
const lightTorch = defineCapability({
  name: 'light_torch',
  version: '0.3.0',
  description: 'put a torch on the wall next to the body',
  inputSchema: z.object({ wallSide: z.enum(['north', 'south', 'east', 'west']).default('north') }),
  expectedDurationMs: 3_000,
  preconds: () => [pred.hasItem('torch', 1)],
  effects: (args) => [pred.custom(`torch_lit:${args.wallSide}`)],
  guard: () => precondMissing([pred.hasItem('torch', 1)]),
  run: async () => {},
  acceptance: unverified('user capability'),
});
const plantSapling = defineCapability({
  name: 'plant_sapling',
  version: '1.0.0',
  description: 'plant a sapling on grass',
  inputSchema: z.strictObject({ sapling: z.string().default('oak_sapling') }),
  preconds: (args) => [pred.hasItem(args.sapling, 1), pred.custom('standing_on_grass')],
  effects: () => [pred.custom('sapling_planted')],
  guard: () => guardOk,
  run: async () => {},
  acceptance: unverified('user capability'),
});
const shakeLeaves = defineCapability({
  name: 'shake_leaves',
  version: '1.0.0',
  description: 'break leaves until saplings drop',
  // Its schema is what keeps the planner from asking it for torches.
  inputSchema: z.object({ item: z.enum(['oak_sapling', 'birch_sapling', 'apple']), count: z.number().int().positive().default(1) }),
  expectedDurationMs: 25_000,
  effects: (args) => [pred.gained(args.item, args.count)],
  run: async () => {},
  acceptance: unverified('user capability'),
});

const registry = () => {
  const r = createStandardRegistry() as unknown as CapabilityRegistry<unknown>;
  return r.registerAll([lightTorch, plantSapling, shakeLeaves]);
};
const world: PlannerWorld = { position: { x: -7.5, y: 70, z: 12.25 }, health: 17, food: 9, heldItem: 'dirt', inventory: { dirt: 3 }, blocks: { '-6,70,12': 'oak_log' } };
const planner = () => createGoapPlanner({ clock: frozen, registry: registry(), domain: minecraftGoapDomain(recipeBook()), limits: { maxNodes: 5_000, maxMs: 2_000 } });
const plan: Plan = { planId: 'user-plan-1', intentId: 'decorate', steps: [{ stepId: 'light', type: 'light_torch', args: { wallSide: 'east' } }] };
const request = (step: Plan['steps'][number], missing?: string[]): RepairRequest => ({
  plan: { ...plan, steps: [step] },
  step,
  failure: { code: 'precond_missing', reason: 'guard said no', retryable: true, ...(missing ? { missing } : {}) },
  repairsSoFar: 1,
});

describe('goap repair from declarations', () => {
  it('repairs a user capability with no HTN method: light_torch missing has_item:torch:1 gets the torch chain', async () => {
    const response = await planner().repair(request(plan.steps[0]!, ['has_item:torch:1']), world);
    expect(response).toBeDefined();
    const steps = response!.steps.map((s) => `${s.stepId} ${s.type} ${JSON.stringify(s.args)}`);
    expect(steps.at(-1)).toBe('light-r2-' + steps.length + ' craft_item {"item":"torch","count":1}');
    expect(steps.some((s) => s.includes('gather {"block":"coal_ore"'))).toBe(true);
    expect(response!.replace).toBeUndefined();
    expect(response!.reason).toMatch(/for has_item:torch:1 before light_torch/);
    // The HTN has no method for it: what the declarations give is all a non-LLM planner has.
    const htn = createHtnPlanner({ methods: [], operators: [], tasksFor: () => undefined });
    expect(htn.repair).toBeUndefined();
  });

  it('plans a user goal through user capabilities: sapling_planted via shake_leaves, no method written', () => {
    const result = planner().planGoal([pred.custom('sapling_planted')], { ...world, inventory: {} });
    // standing_on_grass: nothing declares it, and the failure names it.
    expect(!result.ok && result.failure.reason).toMatch(/^no capability produces custom:standing_on_grass/);
    const grassy = createGoapPlanner({
      clock: frozen,
      registry: registry(),
      domain: minecraftGoapDomain(recipeBook()),
      evaluator: (p, w) => (p.kind === 'custom' && p.text === 'standing_on_grass') || (p.kind === 'has_item' && typeof p.item === 'string' && (w.inventory[p.item] ?? 0) >= p.count),
      limits: { maxNodes: 500, maxMs: 500 },
    });
    const planted = grassy.planGoal([pred.custom('sapling_planted')], { ...world, inventory: {} });
    expect(planted.ok && planted.plan.steps.map((s) => `${s.type} ${JSON.stringify(s.args)}`)).toEqual([
      'shake_leaves {"item":"oak_sapling","count":1}',
      'plant_sapling {"sapling":"oak_sapling"}',
    ]);
  });

  it('without a missing list, repairs from the capability’s own declared preconds for the step’s args', async () => {
    const step = { stepId: 'plant', type: 'plant_sapling', args: { sapling: 'birch_sapling' } };
    const response = await planner().repair(request(step), { ...world, inventory: {} });
    // standing_on_grass cannot be planned: no repair (a refusal naming why), the step fails with its own code.
    expect(response).toEqual({ steps: [], reason: expect.stringMatching(/^goap: no plan for has_item:birch_sapling:1, custom:standing_on_grass: no_source/) });
    const onGrass = await createGoapPlanner({
      clock: frozen,
      registry: registry(),
      evaluator: (p) => p.kind === 'custom',
      limits: { maxNodes: 100, maxMs: 100 },
    }).repair(request(step), { ...world, inventory: {} });
    expect(onGrass?.steps.map((s) => [s.type, s.args])).toEqual([['shake_leaves', { item: 'birch_sapling', count: 1 }]]);
  });

  it('leaves other failure codes and unplannable predicates alone; reads declarations when missing does not parse', async () => {
    const goap = planner();
    const timeout = { ...request(plan.steps[0]!, ['has_item:torch:1']), failure: { code: 'timeout' as const, reason: 'slow', retryable: true } };
    expect(await goap.repair(timeout, world)).toBeUndefined();
    expect(await goap.repair(request(plan.steps[0]!, ['has_item:bedrock:1']), world)).toMatchObject({ steps: [], reason: expect.stringMatching(/no_source: .*bedrock/) });
    // A missing list that does not parse falls back to the step's own declared preconds.
    expect((await goap.repair(request(plan.steps[0]!, ['not a predicate']), world))?.reason).toMatch(/for has_item:torch:1 before light_torch/);
  });
});
