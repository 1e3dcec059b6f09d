import { createStandardRegistry } from '@sinew/capabilities';
import { IntentSchema, stepFailure, type CapabilityRegistry, type Plan } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { createPlannerRepairHook, type PlannerWorld } from '../src/index.js';
import { createMinecraftHtn, minecraftOperators, minecraftRepair, planNeedWood, recipeBook, subgoalsFor } from '../src/minecraft/index.js';
import { FakeBody, fakeRegistry, runWithRepair } from './support/fake-minecraft.js';

const world = (inventory: Record<string, number> = {}, blocks: Record<string, string> = { '2,64,0': 'oak_log' }): PlannerWorld => ({
  position: { x: 0, y: 64, z: 0 },
  health: 20,
  food: 20,
  heldItem: null,
  inventory,
  blocks,
});
const verbs = (steps: readonly { type: string; args: Record<string, unknown> }[]) =>
  steps.map((s) => `${s.type}:${String(s.args.item ?? s.args.block ?? '')}:${String(s.args.count ?? '')}`);

// Issue 31: a repair is planned from the standard registry's declarations (the goal-oriented planner); the recipe
// regression once written by hand is gone, and every caller passes the registry.
const registry = createStandardRegistry() as unknown as CapabilityRegistry<unknown>;
const way = { registry };

describe('predicates (read with the contracts parser)', () => {
  it('reads has_item:<item>:+n as a gain over the current inventory, not an absolute count', () => {
    const result = subgoalsFor(['has_item:oak_log:+3'], world({ oak_log: 5 }), way);
    expect(result.ok && verbs(result.steps)).toEqual(['gather:oak_log:3']);
  });

  it('reports predicates it cannot subgoal or read instead of throwing', () => {
    expect(subgoalsFor(['has_item:food:1'], world(), way)).toMatchObject({ ok: false, gap: { code: 'unobtainable', reason: expect.stringContaining('item class') } });
    expect(subgoalsFor(['air:<target>'], world(), way)).toMatchObject({ ok: false, gap: { code: 'unobtainable', reason: 'no subgoal for air:<target>' } });
    for (const bad of ['has_item:stick:0', 'has_item::2', 'near_block:', 'within_reach:1,2', 'hungry:yes', '']) {
      expect(subgoalsFor([bad], world(), way), bad).toMatchObject({ ok: false, gap: { code: 'unknown_predicate' } });
    }
  });
});

describe('HTN operators', () => {
  it('declare effects as predicates: a gain of the dropped or crafted item, none for a block pattern', () => {
    const effects = (verb: string, args: Record<string, unknown>) => minecraftOperators(recipeBook()).find((o) => o.verb === verb)?.effects?.(args);
    expect(effects('gather', { block: 'oak_log', count: 3 })).toEqual(['has_item:oak_log:+3']);
    expect(effects('gather', { block: 'stone', count: 2 })).toEqual(['has_item:cobblestone:+2']);
    expect(effects('gather', { block: 'log', count: 3 })).toEqual([]);
    expect(effects('craft_item', { item: 'stick', count: 4 })).toEqual(['has_item:stick:+4']);
    expect(effects('place_block', { item: 'crafting_table' })).toEqual(['near_block:crafting_table']);
  });
});

describe('subgoalsFor (FM-02, planned from the declarations with minecraft-data 1.20.4 recipes)', () => {
  it('no sticks → craft sticks ← planks ← logs → gather', () => {
    const result = subgoalsFor(['has_item:stick:2'], world(), way);
    expect(result.ok).toBe(true);
    if (result.ok) expect(verbs(result.steps)).toEqual(['gather:oak_log:1', 'craft_item:oak_planks:2', 'craft_item:stick:2']);
  });

  it('uses what is held: planks in the inventory make the sticks directly', () => {
    const result = subgoalsFor(['has_item:stick:2'], world({ birch_planks: 5 }), way);
    expect(result.ok && verbs(result.steps)).toEqual(['craft_item:stick:2']);
  });

  it('follows the wood of the tree in view (birch tree → birch logs and planks)', () => {
    const result = subgoalsFor(['has_item:stick:1'], world({}, { '3,64,1': 'birch_log' }), way);
    expect(result.ok && verbs(result.steps)).toEqual(['gather:birch_log:1', 'craft_item:birch_planks:2', 'craft_item:stick:1']);
  });

  it('no wood in view nor held (a world with no oak about): any log, then the next repair follows the log in hand', () => {
    const spruceWorld = world({}, { '0,63,0': 'podzol', '2,64,1': 'fern' });
    for (const missing of [['near_block:crafting_table'], ['has_item:stick:2']]) {
      const first = subgoalsFor(missing, spruceWorld, way);
      expect(first.ok && first.steps).toEqual([expect.objectContaining({ type: 'gather', args: expect.objectContaining({ block: 'log', count: 1 }) })]);
      // No effects: `has_item:log` names no item the executor could count; the gather's acceptance reads the group.
    expect(first.ok && first.steps[0]!.effects).toEqual([]);
      const next = subgoalsFor(missing, { ...spruceWorld, inventory: { spruce_log: 1 } }, way);
      expect(next.ok && verbs(next.steps).filter((s) => /planks|_log/.test(s))).toEqual(['craft_item:spruce_planks:' + (missing[0] === 'has_item:stick:2' ? 2 : 4)]);
    }
    // A body with explore looks for any log, not for oak.
    const explore = subgoalsFor(['has_item:stick:2'], spruceWorld, { ...way, verbs: ['gather', 'craft_item', 'explore'] });
    expect(explore.ok && explore.steps).toEqual([
      expect.objectContaining({ type: 'explore', args: { target: { block: 'log' }, maxRadius: 64 }, effects: [] }),
      expect.objectContaining({ type: 'gather', args: expect.objectContaining({ block: 'log', count: 1 }), effects: [] }),
    ]);
  });

  it('empty inventory → wooden_pickaxe: one trip for all logs, table placed before the 3×3 recipe', () => {
    const result = subgoalsFor(['has_item:wooden_pickaxe:1'], world(), way);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    // The search crafts every plank in one step (the regression once written by hand crafted them as each recipe asked: 8 steps).
    expect(verbs(result.steps)).toEqual(['gather:oak_log:3', 'craft_item:oak_planks:9', 'craft_item:stick:2', 'craft_item:crafting_table:1', 'place_block:crafting_table:', 'craft_item:wooden_pickaxe:1']);
  });

  it('cobblestone needs a pickaxe: the chain makes one before mining stone', () => {
    const result = subgoalsFor(['has_item:cobblestone:3'], world({ oak_planks: 4, stick: 2, crafting_table: 1 }), way);
    // No equip step from the declarations: digging equips the best tool it holds.
    expect(result.ok && verbs(result.steps)).toEqual(['place_block:crafting_table:', 'craft_item:wooden_pickaxe:1', 'gather:stone:3']);
  });

  it('satisfies near_block and within_reach predicates', () => {
    const table = subgoalsFor(['near_block:crafting_table'], world({ crafting_table: 1 }), way);
    expect(table.ok && verbs(table.steps)).toEqual(['place_block:crafting_table:']);
    const already = subgoalsFor(['near_block:crafting_table'], world({}, { '1,64,1': 'crafting_table' }), way);
    expect(already.ok && already.steps).toEqual([]);
    // A table left behind within walking distance is walked back to even when planks could make another:
    // a second table would spend the planks the pickaxe needs (a bot pushed off its table by a fight).
    const left = subgoalsFor(['near_block:crafting_table'], world({ oak_planks: 4 }, { '12,64,3': 'crafting_table' }), way);
    expect(left.ok && left.steps).toEqual([expect.objectContaining({ type: 'navigate', args: expect.objectContaining({ block: 'crafting_table', range: 2 }), effects: ['near_block:crafting_table'] })]);
    // One far off is not worth the walk when one can be made here.
    const far = subgoalsFor(['near_block:crafting_table'], world({ oak_planks: 4 }, { '60,64,3': 'crafting_table' }), way);
    expect(far.ok && verbs(far.steps)).toEqual(['craft_item:crafting_table:1', 'place_block:crafting_table:']);
    const reach = subgoalsFor(['within_reach:10,64,0'], world(), way);
    expect(reach.ok && reach.steps).toEqual([expect.objectContaining({ type: 'navigate', args: expect.objectContaining({ position: { x: 10, y: 64, z: 0 }, range: 3 }) })]);
  });

  it('is bounded: a chain deeper than maxDepth is depth_exceeded', () => {
    const result = subgoalsFor(['has_item:wooden_pickaxe:1'], world(), { ...way, maxDepth: 1 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.gap.code).toBe('depth_exceeded');
  });

  it('reports unobtainable items and unknown predicates as coded gaps', () => {
    const bedrock = subgoalsFor(['has_item:bedrock:1'], world(), way);
    expect(!bedrock.ok && bedrock.gap.code).toBe('unobtainable');
    const unknown = subgoalsFor(['is_sunny'], world(), way);
    expect(!unknown.ok && unknown.gap.code).toBe('unknown_predicate');
  });

  it('never revisits an item already on the chain (no cycles), even for recipes that loop back', () => {
    // emerald_block ↔ emerald form a cycle in minecraft-data, and emeralds have no gather or smelting source here.
    const result = subgoalsFor(['has_item:emerald:1'], world(), way);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(['cycle', 'unobtainable']).toContain(result.gap.code);
  });
});

describe('the registry is required (no hand-written fallback)', () => {
  it('minecraftRepair, subgoalsFor and createMinecraftHtn called without one throw a TypeError naming the option, at once', () => {
    const untyped = {} as unknown as { registry: CapabilityRegistry<unknown> };
    for (const call of [() => minecraftRepair(untyped), () => subgoalsFor(['has_item:stick:2'], world(), untyped), () => createMinecraftHtn(untyped)]) {
      expect(call).toThrow(TypeError);
      expect(call).toThrow(/^(minecraftRepair|subgoalsFor|createMinecraftHtn): options\.registry is required .* received undefined/);
    }
    expect(() => minecraftRepair({ registry: 'standard' } as never)).toThrow(/received string/);
  });
});

describe('minecraftRepair and createPlannerRepairHook', () => {
  const plan: Plan = { planId: 'p1', intentId: 'i1', steps: [{ stepId: 's1', type: 'craft_item', args: { item: 'wooden_pickaxe' } }] };
  const request = (missing: string[], repairsSoFar = 0) => ({
    plan,
    step: plan.steps[0]!,
    failure: { code: 'precond_missing' as const, reason: 'missing', retryable: false, missing },
    repairsSoFar,
  });

  it('answers precond_missing with uniquely numbered subgoal steps run before the retried parent', () => {
    const response = minecraftRepair(way)(request(['has_item:stick:2']), world({ oak_planks: 5 }));
    expect(response).toBeDefined();
    expect(response!.replace).toBeUndefined();
    expect(response!.steps.map((s) => s.stepId)).toEqual(['s1.r1.1']);
    expect(response!.reason).toContain('has_item:stick:2');
  });

  it('plans the missing predicates from the registry’s declarations (the goal-oriented planner), numbered the same way', () => {
    const response = minecraftRepair(way)(request(['has_item:stick:2', 'near_block:crafting_table']), world({ oak_planks: 2 }, { '9,64,0': 'crafting_table' }));
    expect(response?.steps.map((s) => [s.stepId, s.type, s.args.item ?? s.args.block])).toEqual([
      ['s1.r1.1', 'navigate', 'crafting_table'],
      ['s1.r1.2', 'craft_item', 'stick'],
    ]);
    // The declarations' own wire predicates ride along, for the executor to check.
    expect(response?.steps[1]).toMatchObject({ preconds: ['has_item:oak_planks:2'], effects: ['has_item:stick:+4'] });
  });

  it('ignores failures it cannot subgoal; refuses a predicate it cannot plan with the gap as its reason', () => {
    const repair = minecraftRepair(way);
    expect(repair({ ...request([]), failure: { code: 'stuck', reason: 'stuck', retryable: true } }, world())).toBeUndefined();
    expect(repair(request(['has_item:bedrock:1']), world())).toEqual({ steps: [], reason: expect.stringMatching(/^no subgoal for has_item:bedrock:1: unobtainable: .*no source of bedrock/) });
    // Sticks already held: the observed world disagrees with the failure, and the refusal says so.
    expect(repair(request(['has_item:stick:2']), world({ stick: 4 }))?.reason).toMatch(/already hold in the observed world/);
  });

  it('the hook reports a refusal with its reason and the executor gets no steps', async () => {
    const events: { repaired: boolean; reason: string }[] = [];
    const hook = createPlannerRepairHook({ name: 'htn', repair: minecraftRepair(way) }, () => world(), { onRepair: (e) => void events.push(e) });
    const response = await hook.repair(request(['has_item:bedrock:1']));
    expect(response?.steps).toEqual([]);
    expect(events).toEqual([{ planId: expect.any(String), stepId: expect.any(String), repaired: false, reason: expect.stringMatching(/^htn had no repair for precond_missing: .*\(no subgoal for has_item:bedrock:1: unobtainable/) }]);
  });

  it('answers effects_unmet on where the bot stands with a walk back that replaces the step; other unmet effects get none', () => {
    const repair = minecraftRepair(way);
    const unmet = (list: string[]) => ({ ...request([]), failure: { code: 'effects_unmet' as const, reason: 'not observed', retryable: true, unmet: list } });
    const response = repair(unmet(['near_block:crafting_table', 'within_reach:3,64,1']), world({ oak_planks: 8 }));
    expect(response?.replace).toBe(true);
    expect(response?.steps).toEqual([
      { stepId: 's1.r1.1', type: 'navigate', args: { block: 'crafting_table', range: 2 }, effects: ['near_block:crafting_table'] },
      { stepId: 's1.r1.2', type: 'navigate', args: { position: { x: 3, y: 64, z: 1 }, range: 3 }, effects: ['within_reach:3,64,1'] },
    ]);
    // Not positional (or nothing named): the work itself is missing, and walking would not make it hold.
    expect(repair(unmet(['near_block:crafting_table', 'has_item:oak_log:3']), world())).toBeUndefined();
    expect(repair(unmet([]), world())).toBeUndefined();
    expect(repair(unmet(['not a predicate']), world())).toBeUndefined();
  });

  it('a gather that found none it could reach: a body with explore searches for the block first, then gathers again', () => {
    const GATHER_FAILED = 'behavior tree failed at …/action:Explore[1]';
    const gather = { stepId: 'g2', type: 'gather', args: { block: 'oak_log', count: 1 } };
    const failed = (code: 'runner_error' | 'effects_unmet' | 'stuck', step: { stepId: string; type: string; args: Record<string, unknown> } = gather) => ({
      plan: { ...plan, steps: [step] },
      step,
      failure: code === 'effects_unmet' ? stepFailure(code, GATHER_FAILED, { retryable: false, unmet: ['has_item:oak_log:+1'] }) : stepFailure(code, GATHER_FAILED, { retryable: false }),
      repairsSoFar: 1,
    });
    const wild = minecraftRepair({ ...way, verbs: ['gather', 'craft_item', 'explore'] });
    for (const code of ['runner_error', 'effects_unmet', 'stuck'] as const) {
      const response = wild(failed(code), world());
      expect(response?.replace, code).toBeFalsy();
      expect(response?.steps, code).toEqual([{ stepId: 'g2.r2.1', type: 'explore', args: { target: { block: 'oak_log' } } }]);
    }
    // A body without explore, or a step that is no gather: no answer (the plan fails with the step's code).
    expect(minecraftRepair(way)(failed('runner_error'), world())).toBeUndefined();
    expect(wild(failed('runner_error', { stepId: 'c1', type: 'craft_item', args: { item: 'stick', count: 4 } }), world())).toBeUndefined();
  });

  it('the hook refuses a third repair of the same failure and a plan past its repair budget', async () => {
    const events: string[] = [];
    const hook = createPlannerRepairHook(createMinecraftHtn(way), () => world({ oak_planks: 5 }), { onRepair: (e) => events.push(e.reason) });
    expect(await hook.repair(request(['has_item:stick:2']))).toBeDefined();
    expect(await hook.repair(request(['has_item:stick:2']))).toBeDefined();
    expect(await hook.repair(request(['has_item:stick:2']))).toBeUndefined();
    expect(events.at(-1)).toContain('not looping');
    const budgeted = createPlannerRepairHook(createMinecraftHtn(way), () => world(), { maxRepairs: 1 });
    expect(await budgeted.repair(request(['has_item:stick:2'], 1))).toBeUndefined();
  });

  it('the hook keeps loop guards for recent plans only: old plans are forgotten, so its memory stays bounded', async () => {
    const hook = createPlannerRepairHook(createMinecraftHtn(way), () => world({ oak_planks: 5 }), { maxSameFailure: 1 });
    const forPlan = (planId: string) => ({ ...request(['has_item:stick:2']), plan: { ...plan, planId } });
    expect(await hook.repair(forPlan('old'))).toBeDefined();
    expect(await hook.repair(forPlan('recent'))).toBeDefined();
    expect(await hook.repair(forPlan('old'))).toBeUndefined(); // guarded (and now most recently used)
    for (let i = 0; i < 256; i += 1) await hook.repair(forPlan(`filler-${i}`));
    expect(await hook.repair(forPlan('recent'))).toBeDefined(); // evicted: its guard was dropped past the cap
    expect(await hook.repair(forPlan('filler-255'))).toBeUndefined(); // still tracked
  });

  it('empty inventory beside a tree → wooden_pickaxe through repairs alone (fake body with hand-written recipes)', async () => {
    const body = new FakeBody(5);
    // The repair plans from the standard declarations; the fake body runs the steps with its own recipes.
    const htn = createMinecraftHtn(way);
    const result = await runWithRepair(fakeRegistry(), plan, body, createPlannerRepairHook(htn, () => body.snapshot()));
    expect(result.ok).toBe(true);
    expect(body.inventory.wooden_pickaxe).toBe(1);
    expect(result.repairs.length).toBeGreaterThanOrEqual(1);
    expect(body.actions).toContain('craft stick 2');
    expect(body.logsInTree).toBe(2);
  });

  it('need-wood demo: the pickaxe step fails with precond_missing has_item:stick:2 and the repair crafts the sticks', async () => {
    const body = new FakeBody(5);
    const planned = planNeedWood(body.snapshot(), way);
    expect(planned.ok).toBe(true);
    if (!planned.ok) return;
    const failures: string[][] = [];
    const hook = createPlannerRepairHook(createMinecraftHtn(way), () => body.snapshot());
    const spy = { repair: (r: Parameters<typeof hook.repair>[0]) => (failures.push([...(r.failure.missing ?? [])]), hook.repair(r)) };
    const result = await runWithRepair(fakeRegistry(), planned.plan, body, spy);
    expect(result.ok).toBe(true);
    expect(failures).toEqual([['has_item:stick:2']]);
    expect(result.repairs[0]).toContain('craft_item(stick ×2)');
    expect(body.inventory.wooden_pickaxe).toBe(1);
  });

  it('HTN plans for craft wooden_pickaxe run on the fake body without any repair', async () => {
    const body = new FakeBody(5);
    const result = createMinecraftHtn(way).plan(IntentSchema.parse({ id: 'i', source: 'user', goal: 'craft wooden_pickaxe', urgency: 0.5 }), body.snapshot());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const run = await runWithRepair(fakeRegistry(), result.plan, body, { repair: () => undefined });
    expect(run.ok).toBe(true);
    expect(body.inventory.wooden_pickaxe).toBe(1);
  });
});
