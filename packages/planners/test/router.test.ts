import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStandardRegistry } from '@sinew/capabilities';
import { IntentSchema, ManualClock, type Intent, type IntentInput } from '@sinew/executor-contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createNeedsPlanner,
  createRouter,
  DEFAULT_ROUTING_RULES,
  OutcomeMemory,
  planFailure,
  createPlannerRepairHook,
  type Planner,
  type RouteEvent,
  type PlannerWorld,
} from '../src/index.js';
import { createMinecraftHtn } from '../src/minecraft/index.js';

const registry = createStandardRegistry();
const world: PlannerWorld = { position: { x: 0, y: 64, z: 0 }, health: 20, food: 20, heldItem: null, inventory: {}, blocks: { '2,64,0': 'oak_log' } };
const intent = (input: Partial<IntentInput> & { goal: string }): Intent => IntentSchema.parse({ id: `i-${input.goal.replace(/\W+/g, '-')}`, source: 'user', urgency: 0.4, ...input });

/** A scripted planner standing in for the LLM: one chat step, or a failure when told to. */
const chatPlanner = (fail = false): Planner => ({
  name: 'llm',
  verbs: () => ['chat'],
  plan: (i) =>
    fail
      ? planFailure('llm', 'llm_output_rejected', 'scripted failure')
      : { ok: true, planner: 'llm', plan: { planId: `llm-${i.id}`, intentId: i.id, planner: 'llm', steps: [{ stepId: 's1', type: 'chat', args: { message: 'hello' } }] } },
});

function setup(options: { llmFails?: boolean; memory?: OutcomeMemory } = {}) {
  const events: RouteEvent[] = [];
  const router = createRouter({
    planners: [createMinecraftHtn({ registry }), chatPlanner(options.llmFails), createNeedsPlanner({ seed: 7 })],
    rules: DEFAULT_ROUTING_RULES,
    ...(options.memory ? { memory: options.memory } : {}),
    onEvent: (e) => events.push(e),
  });
  return { router, events };
}

describe('router: the routing table', () => {
  it.each([
    [{ goal: 'flee zombie', traits: ['safety_critical'], urgency: 0.95 }, 'needs'],
    [{ goal: 'craft wooden_pickaxe', traits: ['multi_step', 'crafting'] }, 'htn'],
    [{ goal: 'greet the player', traits: ['social'] }, 'llm'],
    [{ goal: 'shelter' }, 'htn'],
    [{ goal: 'eat', urgency: 0.92 }, 'needs'],
  ] as const)('%o → %s', (input, expected) => {
    const { router } = setup();
    expect(router.route(intent({ ...input, traits: [...(('traits' in input && input.traits) || [])] })).chosen).toBe(expected);
  });

  it('emits a route event with its reason for every decision, then planned', async () => {
    const { router, events } = setup();
    const result = await router.plan(intent({ goal: 'craft stick', traits: ['crafting'] }), world);
    expect(result.ok).toBe(true);
    expect(events.map((e) => e.type)).toEqual(['route', 'planned']);
    const route = events[0] as Extract<RouteEvent, { type: 'route' }>;
    expect(route.chosen).toBe('htn');
    expect(route.reason).toMatch(/htn .*rules structured\+known_goal/);
    expect(route.candidates.map((c) => c.planner)).toEqual(['htn', 'llm']);
  });

  it('no matching rule → no_route with the reason, after a route event', async () => {
    const { router, events } = setup();
    const result = await router.plan(intent({ goal: 'ponder' }), world);
    expect(!result.ok && result.failure.code).toBe('no_route');
    expect(events[0]!.type === 'route' && events[0]!.chosen).toBeUndefined();
    expect(events[0]!.reason).toContain('no routing rule matched goal "ponder"');
  });

  it('falls back down the candidates when the chosen planner fails, and says why', async () => {
    const { router, events } = setup({ llmFails: true });
    const result = await router.plan(intent({ goal: 'craft the thing everyone wants', traits: ['ambiguous'] }), world);
    // llm (rule ambiguous_social) fails; htn (known_goal) cannot parse "craft the" → unobtainable item → no plan either.
    expect(result.ok).toBe(false);
    expect(events.filter((e) => e.type === 'fallback').map((e) => (e.type === 'fallback' ? `${e.from}→${e.to}` : ''))).toEqual(['llm→htn', 'htn→undefined']);
  });

  it('memory-conditioned priors: repeated failures of htn in a context route to llm there, not elsewhere', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sinew-router-'));
    const memory = new OutcomeMemory(join(dir, 'router.json'));
    const { router, events } = setup({ memory });
    const dusk = intent({ goal: 'craft stick', context: { biome: 'taiga', time: 'dusk' } });
    // Only the weak known_goal rule backs htn (1.0 vs llm 0.5): one recorded failure flips the route.
    const result = await router.plan(dusk, world);
    expect(result.ok && result.planner).toBe('htn');
    if (result.ok) router.recordOutcome(result.plan.planId, false);
    const decision = router.route(dusk);
    expect(decision.chosen).toBe('llm');
    expect(decision.memoryOverride).toBe(true);
    expect(decision.reason).toMatch(/memory override of htn/);
    expect(router.route(intent({ goal: 'craft stick', context: { biome: 'plains', time: 'day' } })).chosen).toBe('htn');
    expect(events.filter((e) => e.type === 'outcome')).toHaveLength(1);
    const file = JSON.parse(readFileSync(join(dir, 'router.json'), 'utf8'));
    expect(file.outcomes['planner:htn']['biome:taiga|time:dusk']).toEqual({ successes: 0, failures: 1 });
  });

  it('a strong rule needs much more evidence: three failures do not move a crafting intent off htn', async () => {
    const memory = new OutcomeMemory();
    const { router } = setup({ memory });
    const crafting = intent({ goal: 'craft stick', traits: ['crafting'], context: { time: 'dusk' } });
    for (let i = 0; i < 3; i += 1) {
      const result = await router.plan(crafting, world);
      expect(result.ok && result.planner).toBe('htn');
      if (result.ok) router.recordOutcome(result.plan.planId, false);
    }
    expect(router.route(crafting).chosen).toBe('htn');
    for (let i = 0; i < 3; i += 1) memory.record('planner:llm', 'time:dusk', true);
    for (let i = 0; i < 12; i += 1) memory.record('planner:htn', 'time:dusk', false);
    expect(router.route(crafting).chosen).toBe('llm');
  });

  it('verbs() is the union of its planners', () => {
    const { router } = setup();
    expect(router.verbs()).toEqual(expect.arrayContaining(['chat', 'craft_item', 'flee', 'gather']));
  });

  it('repair goes to the plan’s own planner first, then any planner that can repair', async () => {
    const { router } = setup();
    const result = await router.plan(intent({ goal: 'greet', traits: ['social'] }), world);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const hook = createPlannerRepairHook(router, () => ({ ...world, inventory: { oak_planks: 4 } }));
    const response = await hook.repair({
      plan: result.plan,
      step: result.plan.steps[0]!,
      failure: { code: 'precond_missing', reason: 'x', retryable: false, missing: ['has_item:stick:1'] },
      repairsSoFar: 0,
    });
    expect(response?.steps.map((s) => s.type)).toEqual(['craft_item']);
  });

  it('rejects duplicate planner names and non-positive rule weights at construction', () => {
    expect(() => createRouter({ planners: [chatPlanner(), chatPlanner()], rules: [] })).toThrow(/unique/);
    expect(() => createRouter({ planners: [chatPlanner()], rules: [{ name: 'r', route: ['llm'], weight: 0 }] })).toThrow(/weight/);
  });
});

describe('router: robustness and learning', () => {
  it('a planner that throws is a planner_error and the router falls back', async () => {
    const events: RouteEvent[] = [];
    const thrower: Planner = { name: 'htn', verbs: () => [], plan: () => { throw new Error('boom'); } };
    const router = createRouter({ planners: [thrower, chatPlanner()], rules: DEFAULT_ROUTING_RULES, onEvent: (e) => events.push(e) });
    const result = await router.plan(intent({ goal: 'craft stick' }), world);
    expect(result.ok && result.planner).toBe('llm');
    expect(events.find((e) => e.type === 'fallback')?.reason).toBe('planner_error: plan() threw: boom');
  });

  it('the router forgets a plan once its outcome is recorded and tracks at most the last 1000 plans', async () => {
    const router = createRouter({ planners: [chatPlanner()], rules: DEFAULT_ROUTING_RULES });
    const ids: string[] = [];
    for (let i = 0; i < 1002; i += 1) {
      const result = await router.plan(intent({ goal: `chat ${i}`, traits: ['social'] }), world);
      if (result.ok) ids.push(result.plan.planId);
    }
    expect(ids).toHaveLength(1002);
    expect(router.plannerFor(ids[0]!)).toBeUndefined();
    expect(router.plannerFor(ids[1]!)).toBeUndefined();
    expect(router.plannerFor(ids[2]!)?.name).toBe('llm');
    router.recordOutcome(ids[2]!, true);
    expect(router.plannerFor(ids[2]!)).toBeUndefined();
    expect(router.plannerFor(ids.at(-1)!)?.name).toBe('llm');
  });

  it('recordOutcome reaches the HTN method memory through the router', async () => {
    const memory = new OutcomeMemory();
    const htn = createMinecraftHtn({ memory, registry });
    const router = createRouter({ planners: [htn], rules: DEFAULT_ROUTING_RULES, memory });
    const acquire = intent({ goal: 'acquire wood', context: { time: 'night' } });
    const result = await router.plan(acquire, world);
    expect(result.ok && result.methods).toEqual(['wood.visible_tree']);
    if (result.ok) router.recordOutcome(result.plan.planId, false);
    expect(memory.stats('wood.visible_tree', 'time:night')).toEqual({ successes: 0, failures: 1 });
    expect(memory.stats('planner:htn', 'time:night')).toEqual({ successes: 0, failures: 1 });
    const next = await router.plan(acquire, world);
    expect(next.ok && next.methods).toEqual(['wood.any_log']);
  });

  it('the repair hook reports a throwing world observer with the reason and rethrows it for the executor', async () => {
    const reasons: string[] = [];
    const hook = createPlannerRepairHook(createMinecraftHtn({ registry }), () => { throw new Error('bot disconnected'); }, { onRepair: (e) => reasons.push(e.reason) });
    const plan = { planId: 'p', intentId: 'i', steps: [{ stepId: 's1', type: 'craft_item', args: { item: 'stick' } }] };
    await expect(hook.repair({ plan, step: plan.steps[0]!, failure: { code: 'precond_missing', reason: 'x', retryable: false, missing: ['has_item:oak_planks:2'] }, repairsSoFar: 0 })).rejects.toThrow('bot disconnected');
    expect(reasons).toEqual(['repair threw: bot disconnected']);
  });

  const stickPlan = { planId: 'p-repair', intentId: 'i-repair', planner: 'htn', steps: [{ stepId: 's1', type: 'craft_item', args: { item: 'stick' } }] };
  const stickFailure = { plan: stickPlan, step: stickPlan.steps[0]!, failure: { code: 'precond_missing' as const, reason: 'x', retryable: false, missing: ['has_item:oak_planks:2'] }, repairsSoFar: 0 };

  it('a throwing planner repair is a fallback event and the next planner still repairs', async () => {
    const events: RouteEvent[] = [];
    const broken: Planner = { name: 'htn', verbs: () => [], plan: () => planFailure('htn', 'no_method', 'x'), repair: () => { throw new Error('repair bug'); } };
    const fixer: Planner = { ...chatPlanner(), repair: async () => ({ steps: [{ stepId: 'r1', type: 'chat', args: { message: 'fixed' } }], reason: 'llm fixed it' }) };
    const router = createRouter({ planners: [broken, fixer], rules: DEFAULT_ROUTING_RULES, onEvent: (e) => events.push(e) });
    const response = await router.repair!(stickFailure, world);
    expect(response?.reason).toBe('llm fixed it');
    expect(events).toEqual([{ type: 'fallback', intentId: 'i-repair', from: 'htn', to: 'llm', reason: 'repair threw: repair bug' }]);
  });

  it('when no planner repairs and one threw, the router rethrows an AggregateError (the executor counts a repair error)', async () => {
    const events: RouteEvent[] = [];
    const broken: Planner = { name: 'htn', verbs: () => [], plan: () => planFailure('htn', 'no_method', 'x'), repair: () => { throw new Error('repair bug'); } };
    const silent: Planner = { ...chatPlanner(), repair: async () => undefined };
    const router = createRouter({ planners: [broken, silent], rules: DEFAULT_ROUTING_RULES, onEvent: (e) => events.push(e) });
    const error = await Promise.resolve(router.repair!(stickFailure, world)).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(AggregateError);
    expect((error as AggregateError).errors.map((e: Error) => e.message)).toEqual(['repair bug']);
    expect(events.map((e) => e.type === 'fallback' && e.reason)).toEqual(['repair threw: repair bug']);
    // Nobody threw and nobody answered: plainly no repair.
    const quiet = createRouter({ planners: [silent], rules: DEFAULT_ROUTING_RULES });
    await expect(quiet.repair!(stickFailure, world)).resolves.toBeUndefined();
  });

  it('a planner that refuses with a reason passes the repair on; when nobody repairs, every refusal is in the answer', async () => {
    const refusing: Planner = { name: 'htn', verbs: () => [], plan: () => planFailure('htn', 'no_method', 'x'), repair: () => ({ steps: [], reason: 'no source of planks' }) };
    const fixer: Planner = { ...chatPlanner(), repair: async () => ({ steps: [{ stepId: 'r1', type: 'chat', args: { message: 'fixed' } }], reason: 'llm fixed it' }) };
    const router = createRouter({ planners: [refusing, fixer], rules: DEFAULT_ROUTING_RULES });
    expect((await router.repair!(stickFailure, world))?.reason).toBe('llm fixed it');
    const alsoRefusing: Planner = { ...chatPlanner(), repair: () => ({ steps: [], reason: 'not mine' }) };
    const none = createRouter({ planners: [refusing, alsoRefusing], rules: DEFAULT_ROUTING_RULES });
    await expect(none.repair!(stickFailure, world)).resolves.toEqual({ steps: [], reason: 'htn: no source of planks; llm: not mine' });
    // A JavaScript planner's answer without steps is no repair either, not a throw: the next planner still repairs.
    const shapeless: Planner = { ...refusing, repair: () => ({}) as never };
    const events: RouteEvent[] = [];
    const past = createRouter({ planners: [shapeless, fixer], rules: DEFAULT_ROUTING_RULES, onEvent: (e) => events.push(e) });
    expect((await past.repair!(stickFailure, world))?.reason).toBe('llm fixed it');
    expect(events).toEqual([]);
  });
});

describe('a planner whose plan() never settles', () => {
  afterEach(() => void vi.useRealTimers());
  const hanging: Planner = { name: 'htn', verbs: () => ['gather'], plan: () => new Promise(() => undefined) };

  it('is cut off after planTimeoutMs on the injected clock and the router falls back to the next planner with a coded event', async () => {
    const clock = new ManualClock();
    const events: RouteEvent[] = [];
    const router = createRouter({ planners: [hanging, chatPlanner()], rules: DEFAULT_ROUTING_RULES, planTimeoutMs: 5_000, clock, onEvent: (e) => events.push(e) });
    let settled = false;
    const pending = Promise.resolve(router.plan(intent({ goal: 'craft iron_pickaxe', traits: ['crafting'] }), world)).finally(() => (settled = true));
    await clock.advance(4_999);
    expect(settled).toBe(false);
    await clock.advance(1);
    const result = await pending;
    expect(result.ok && result.planner).toBe('llm');
    expect(events.find((e) => e.type === 'fallback')).toMatchObject({ from: 'htn', to: 'llm', reason: 'planner_error: plan() did not settle within 5000 ms' });
  });

  it('defaults to 30 s, and with no planner left the router answers no_route instead of hanging', async () => {
    vi.useFakeTimers();
    const router = createRouter({ planners: [hanging], rules: DEFAULT_ROUTING_RULES });
    const pending = router.plan(intent({ goal: 'craft iron_pickaxe', traits: ['crafting'] }), world);
    await vi.advanceTimersByTimeAsync(30_000);
    const result = await pending;
    expect(result.ok ? 'ok' : result.failure).toMatchObject({ code: 'no_route', details: ['htn: planner_error: plan() did not settle within 30000 ms'] });
  });

  it('rejects a planTimeoutMs that is not a whole positive number of milliseconds when the router is built', () => {
    for (const planTimeoutMs of [0, -1, 1.5, Number.NaN]) {
      expect(() => createRouter({ planners: [hanging], rules: DEFAULT_ROUTING_RULES, planTimeoutMs })).toThrow(/planTimeoutMs/);
      expect(() => createRouter({ planners: [hanging], rules: DEFAULT_ROUTING_RULES, planTimeoutMs })).toThrow(
        expect.objectContaining({ code: 'invalid_config', where: 'createRouter', path: ['planTimeoutMs'] }),
      );
    }
    // Checks zod does not express are ConfigErrors too, with the field named.
    expect(() => createRouter({ planners: [hanging, hanging], rules: DEFAULT_ROUTING_RULES })).toThrow(expect.objectContaining({ code: 'invalid_config', path: ['planners'] }));
  });
});

describe('routing the tech tree', () => {
  it('routes "craft iron_pickaxe" and "iron_tools" to the HTN, which plans them', async () => {
    const { router } = setup();
    for (const goal of ['craft iron_pickaxe', 'iron_tools']) {
      expect(router.route(intent({ goal })).chosen).toBe('htn');
      const result = await router.plan(intent({ goal }), world);
      expect(result.ok && result.planner, goal).toBe('htn');
    }
    expect(router.verbs()).toContain('smelt_item');
  });
});
