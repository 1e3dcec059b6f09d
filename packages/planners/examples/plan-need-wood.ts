// Run from the repo root: node --import tsx packages/planners/examples/plan-need-wood.ts
import { createStandardRegistry } from '@sinew/capabilities';
import { IntentSchema } from '@sinew/executor-contracts';
import { createNeedsPlanner, createRouter, DEFAULT_ROUTING_RULES, type PlannerWorld } from '@sinew/planners';
import { createMinecraftHtn, subgoalsFor } from '@sinew/planners/minecraft';

// An empty inventory beside an oak tree (the shape `observeWorld(bot)` returns).
const world: PlannerWorld = { position: { x: 0, y: 64, z: 0 }, health: 20, food: 20, heldItem: null, inventory: {}, blocks: { '3,64,0': 'oak_log' }, time: 6000 };

// 1. Need → intent: the deterministic needs planner (same seed + perception ⇒ same intent).
const needs = createNeedsPlanner({ seed: 42, onThought: (t) => console.log(`thought: ${t.text}`) });
const intent = needs.formIntent(world);

// 2. Intent → router → HTN: every decision is an event with its reason. The HTN repairs from the registry's declarations.
const registry = createStandardRegistry();
const htn = createMinecraftHtn({ registry });
const router = createRouter({
  planners: [htn, needs],
  rules: DEFAULT_ROUTING_RULES,
  onEvent: (e) => console.log(`router ${e.type}: ${e.reason}`),
});
const result = await router.plan(intent, world);
if (!result.ok) throw new Error(`${result.failure.code}: ${result.failure.reason}`);
for (const step of result.plan.steps) console.log(`  ${step.stepId} ${step.type} ${JSON.stringify(step.args)}`);

// 3. FM-02: the pickaxe step's guard will say `has_item:stick:2`; this is what the repair hook answers.
const afterTable: PlannerWorld = { ...world, inventory: { oak_planks: 8 }, blocks: { ...world.blocks, '1,64,0': 'crafting_table' } };
const repair = subgoalsFor(['has_item:stick:2'], afterTable, { registry });
console.log('repair:', repair.ok ? repair.steps.map((s) => `${s.type}(${JSON.stringify(s.args)})`).join(' → ') : repair.gap);

// 4. A full HTN decomposition, for comparison.
const full = htn.plan(IntentSchema.parse({ id: 'pickaxe', source: 'user', goal: 'craft wooden_pickaxe', urgency: 0.5 }), world);
console.log('craft wooden_pickaxe:', full.ok ? full.plan.steps.map((s) => s.type).join(' → ') : full.failure);
