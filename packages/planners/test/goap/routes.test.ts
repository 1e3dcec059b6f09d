import { createStandardRegistry } from '@sinew/capabilities';
import { IntentSchema, type CapabilityRegistry, type Intent, type PlanStepInput } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { createCollaborativePlanner, createGoapPlanner, createRouter, DEFAULT_ROUTING_RULES, PREDICATE_GOAL, type Planner, type PlannerWorld, type RouteEvent } from '../../src/index.js';
import { createMinecraftHtn, minecraftGoapDomain, recipeBook } from '../../src/minecraft/index.js';

/** Search bounds in tests are nodes, not the machine's speed: the injected clock never moves. */
const frozen = { now: () => 0 };

const registry = createStandardRegistry() as unknown as CapabilityRegistry<unknown>;
const domain = minecraftGoapDomain(recipeBook());
const goap = () => createGoapPlanner({ clock: frozen, registry, domain, limits: { maxNodes: 5_000, maxMs: 2_000 } });
const world: PlannerWorld = { position: { x: 10.5, y: 63, z: -2.5 }, health: 20, food: 18, heldItem: null, inventory: { oak_log: 1, oak_planks: 1 }, blocks: { '12,63,-2': 'oak_log' } };
const intent = (goal: string, traits: string[] = []): Intent => IntentSchema.parse({ id: `i-${traits.join('-') || 'plain'}`, source: 'user', goal, urgency: 0.3, traits });

/** A stand-in for the model: proposes the steps it was built with, whatever the intent says. */
function proposer(steps: PlanStepInput[]): Planner<PlannerWorld> {
  return {
    name: 'llm',
    verbs: () => registry.verbs(),
    plan: (i) => ({ ok: true, planner: 'llm', plan: { planId: `llm-${i.id}`, intentId: i.id, planner: 'llm', steps: steps.map((s) => ({ args: {}, ...s })) } }),
  };
}

describe('routes to the goal-oriented and collaborative planners', () => {
  it('a goal stated as predicates goes to goap, and only then', () => {
    expect(PREDICATE_GOAL.test('has_item:torch:4, near_block:crafting_table')).toBe(true);
    expect(PREDICATE_GOAL.test('craft torch')).toBe(false);
    expect(PREDICATE_GOAL.test('has_item:torch:4 and then some')).toBe(false);
    // Thousands of predicate-like words before a bad tail: refused at once (a backtracking pattern would hang here).
    expect(PREDICATE_GOAL.test(`${'has_item:a,'.repeat(5_000)}?? !`)).toBe(false);
    const router = createRouter({ planners: [createMinecraftHtn({ registry }), proposer([]), goap()], rules: DEFAULT_ROUTING_RULES });
    expect(router.route(intent('has_item:torch:4')).chosen).toBe('goap');
    expect(router.route(intent('craft a torch')).chosen).toBe('htn');
    expect(router.route(intent('find the way out', ['puzzle'])).chosen).toBe('goap');
  });

  it('the router plans a predicate goal with goap: craft_item { item: torch, count: 4 } last', async () => {
    const events: RouteEvent[] = [];
    const router = createRouter({ planners: [createMinecraftHtn({ registry }), proposer([]), goap()], rules: DEFAULT_ROUTING_RULES, onEvent: (e) => events.push(e) });
    const result = await router.plan(intent('has_item:torch:4'), world);
    expect(result.ok && result.planner).toBe('goap');
    expect(result.ok && result.plan.steps.at(-1)).toMatchObject({ type: 'craft_item', args: { item: 'torch', count: 4 } });
    expect(events.find((e) => e.type === 'route')).toMatchObject({ chosen: 'goap' });
  });

  it('collaborative: a proposal missing its preconditions gets the steps that make them hold', async () => {
    const collaborative = createCollaborativePlanner({
      proposer: proposer([
        { stepId: 'sticks', type: 'craft_item', args: { item: 'stick', count: 4 } },
        { stepId: 'pick', type: 'craft_item', args: { item: 'wooden_pickaxe', count: 1 } },
      ]),
      goap: goap(),
      registry,
      domain,
    });
    const router = createRouter({ planners: [proposer([]), goap(), collaborative], rules: DEFAULT_ROUTING_RULES });
    const result = await router.plan(intent('make me a pickaxe, cheap', ['trade_off']), world);
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (!result.ok) return;
    expect(result.planner).toBe('collaborative');
    const ids = result.plan.steps.map((s) => `${s.stepId}:${s.type}:${JSON.stringify(s.args)}`);
    // 1 plank held, sticks need 2: one more plank from the held log; the pickaxe needs 3 planks and a table.
    expect(ids[0]).toBe('sticks-pre1:craft_item:{"item":"oak_planks","count":1}');
    expect(ids).toContain('sticks:craft_item:{"item":"stick","count":4}');
    expect(ids.at(-1)).toBe('pick:craft_item:{"item":"wooden_pickaxe","count":1}');
    expect(ids.some((id) => id.startsWith('pick-pre') && id.includes('place_block:{"item":"crafting_table"}'))).toBe(true);
  });

  it('collaborative: a step whose declared precondition cannot hold is refused with the predicate named', async () => {
    const collaborative = createCollaborativePlanner({
      proposer: proposer([
        { stepId: 'eat', type: 'consume_food', args: { item: 'golden_apple' } },
      ]),
      goap: goap(),
      registry,
      domain,
    });
    const refused = await collaborative.plan(intent('eat well', ['trade_off']), world);
    expect(!refused.ok && refused.failure.code).toBe('llm_output_rejected');
    expect(!refused.ok && refused.failure.reason).toMatch(/step eat consume_food: declared precondition has_item:golden_apple:1 cannot hold: no capability produces has_item:/);
    const unknown = createCollaborativePlanner({ proposer: proposer([{ stepId: 'x', type: 'teleport' }]), goap: goap(), registry });
    const bad = await unknown.plan(intent('go', ['trade_off']), world);
    expect(!bad.ok && bad.failure.reason).toBe('step x: no capability provides "teleport"');
  });

  it('collaborative: a proposal that already holds passes through unchanged', async () => {
    const steps = [{ stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 } }];
    const collaborative = createCollaborativePlanner({ proposer: proposer(steps), goap: goap(), registry, domain });
    const result = await collaborative.plan(intent('planks', ['trade_off']), world);
    expect(result.ok && result.plan.steps).toEqual([{ stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 } }]);
  });
});
