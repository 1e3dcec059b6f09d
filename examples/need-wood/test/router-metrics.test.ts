import { createExecutorMetrics, createRouterMetrics } from '@sinew/bt-runtime';
import { createStandardRegistry } from '@sinew/capabilities';
import { IntentSchema, type Intent } from '@sinew/executor-contracts';
import { createRouter, DEFAULT_ROUTING_RULES, OutcomeMemory, type Planner, type PlannerWorld } from '@sinew/planners';
import { createMinecraftHtn } from '@sinew/planners/minecraft';
import { describe, expect, it } from 'vitest';

const world: PlannerWorld = { position: { x: 0, y: 64, z: 0 }, health: 20, food: 20, heldItem: null, inventory: {}, blocks: { '2,64,0': 'oak_log' } };
const intent: Intent = IntentSchema.parse({ id: 'i-stick', source: 'user', urgency: 0.4, goal: 'craft stick', context: { biome: 'taiga' } });

/** A planner standing in for the LLM: one chat step. */
const llm: Planner = {
  name: 'llm',
  verbs: () => ['chat'],
  plan: (i) => ({ ok: true, planner: 'llm', plan: { planId: `llm-${i.id}`, intentId: i.id, planner: 'llm', steps: [{ stepId: 's1', type: 'chat', args: { message: 'hello' } }] } }),
};

describe('createRouterMetrics', () => {
  it('counts routes by planner and the decisions where memory overrode the rules (router disagreement), every series at 0 first', async () => {
    const metrics = createExecutorMetrics();
    const routing = createRouterMetrics(metrics.registry, { planners: ['htn', 'llm'] });
    const memory = new OutcomeMemory();
    const router = createRouter({ planners: [createMinecraftHtn({ memory, registry: createStandardRegistry() }), llm], rules: DEFAULT_ROUTING_RULES, memory, onEvent: routing.record });
    const before = await metrics.registry.metrics();
    expect(before).toContain('sinew_router_disagreements_total{chosen="llm"} 0');
    expect(before).toContain('sinew_router_routes_total{chosen="htn"} 0');
    const first = await router.plan(intent, world);
    expect(first.ok && first.planner).toBe('htn');
    if (first.ok) router.recordOutcome(first.plan.planId, false);
    // One recorded failure of htn in this context: memory now overrides the rules' choice.
    const second = await router.plan(intent, world);
    expect(second.ok && second.planner).toBe('llm');
    const text = await metrics.registry.metrics();
    expect(text).toContain('sinew_router_routes_total{chosen="htn"} 1');
    expect(text).toContain('sinew_router_routes_total{chosen="llm"} 1');
    expect(text).toContain('sinew_router_disagreements_total{chosen="llm"} 1');
    expect(text).toContain('sinew_router_disagreements_total{chosen="htn"} 0');
    expect(text).toContain('sinew_router_fallbacks_total{from="htn"} 0');
  });
});
