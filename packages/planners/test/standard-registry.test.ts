import { createStandardRegistry } from '@sinew/capabilities';
import { checkStep, checkVerbs, IntentSchema } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { createLlmPlanner, createNeedsPlanner, createRouter, DEFAULT_ROUTING_RULES, loadCognitionConfig, planOutputSchema, type PlannerWorld } from '../src/index.js';
import { createMinecraftHtn, planNeedWood } from '../src/minecraft/index.js';

const registry = createStandardRegistry();
const world: PlannerWorld = { position: { x: 0, y: 64, z: 0 }, health: 20, food: 20, heldItem: null, inventory: {}, blocks: { '3,64,0': 'oak_log' } };

function router() {
  const loaded = loadCognitionConfig({
    system: 'Plan for a Minecraft bot with the listed verbs. JSON only.',
    userTemplate: '{intent}\n{world}\n{verbs}',
    correctiveTemplate: 'Rejected: {complaint}',
    outputSchema: planOutputSchema(registry),
    retryBudget: 1,
    completeTimeoutMs: 10_000,
    gate: { threshold: 0.3, weights: { salience: 1, drivePressure: 0, arcHot: 0, relStakes: 0, fatigue: 0 }, cooldownMs: 0, trivialEvents: [] },
  });
  if (!loaded.ok) throw new Error(loaded.error.message);
  const llm = createLlmPlanner({ complete: async () => '{"steps":[{"verb":"chat","args":{"message":"hi"}}]}', config: loaded.config, registry });
  return createRouter({ planners: [createMinecraftHtn({ registry }), llm, createNeedsPlanner({ seed: 1 })], rules: DEFAULT_ROUTING_RULES });
}

describe('against the standard registry (@sinew/capabilities)', () => {
  it('the verb gate passes: every verb the router’s planners emit is registered', () => {
    const report = checkVerbs({ manifest: registry.manifest(), plannerVerbs: router().verbs() });
    expect(report.findings.filter((f) => f.kind === 'unknown_verb')).toEqual([]);
    expect(report.ok, JSON.stringify(report.findings)).toBe(true);
  });

  it('every HTN and needs plan step passes V1/V2 (verb + input schema) of the real capabilities', () => {
    const htn = createMinecraftHtn({ registry });
    for (const goal of ['craft wooden_pickaxe', 'stone_tools', 'wooden_tools', 'iron_tools', 'craft iron_pickaxe', 'shelter', 'acquire wood', 'craft crafting_table', 'craft wooden_sword', 'craft stone_sword']) {
      const result = htn.plan(IntentSchema.parse({ id: 'i', source: 'user', goal, urgency: 0.5 }), world);
      expect(result.ok, goal).toBe(true);
      if (result.ok) for (const step of result.plan.steps) expect(checkStep(registry, step).ok, `${goal}: ${JSON.stringify(step)}`).toBe(true);
    }
    const needWood = planNeedWood(world, { registry });
    expect(needWood.ok && needWood.plan.steps.every((s) => checkStep(registry, s).ok)).toBe(true);
    const needs = createNeedsPlanner({ seed: 3 });
    for (const perception of <PlannerWorld[]>[
      { ...world, threats: [{ entity: 'zombie', distance: 2 }] },
      { ...world, food: 2, inventory: { bread: 1 } },
      { ...world, food: 2 },
      { ...world, time: 15000, inventory: { dirt: 9, wooden_pickaxe: 1 } },
      { ...world, inventory: { wooden_pickaxe: 1, wooden_sword: 1 } },
    ]) {
      const { intent, result } = needs.decide(perception);
      expect(result.ok, intent.goal).toBe(true);
      if (result.ok) for (const step of result.plan.steps) expect(checkStep(registry, step).ok, JSON.stringify(step)).toBe(true);
    }
  });
});
