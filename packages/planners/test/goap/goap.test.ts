import { createStandardRegistry } from '@sinew/capabilities';
import { CapabilityRegistry, checkStep, defineCapability, IntentSchema, parsePredicate, pred, unverified, type Predicate } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createGoapPlanner, type PlannerWorld } from '../../src/index.js';
import { minecraftGoapDomain, OVERWORLD, recipeBook, subgoalsFor } from '../../src/minecraft/index.js';

/** Search bounds in tests are nodes, not the machine's speed: the injected clock never moves. */
const frozen = { now: () => 0 };

// A small kitchen: odd shapes on purpose (camelCase fields, a fixed-count effect, a capability with no effects).
const bakeBread = defineCapability({
  name: 'bake_bread',
  version: '2.1.0',
  description: 'bake loaves from flour at an oven',
  inputSchema: z.object({ loafCount: z.number().int().positive() }),
  expectedDurationMs: 4_000,
  preconds: (args) => [pred.hasItem('flour', args.loafCount), pred.nearBlock('oven')],
  effects: (args) => [pred.gained('bread', args.loafCount)],
  run: async () => {},
  acceptance: unverified('fake'),
});
const millWheat = defineCapability({
  name: 'mill',
  version: '1.0.0',
  description: 'grind wheat into flour, three at a time',
  inputSchema: z.object({ what: z.literal('flour').default('flour') }),
  expectedDurationMs: 2_000,
  preconds: () => [pred.hasItem('wheat', 3)],
  effects: () => [pred.gained('flour', 3)],
  run: async () => {},
  acceptance: unverified('fake'),
});
const buyFlour = defineCapability({
  name: 'buy',
  version: '1.0.0',
  description: 'buy any item at the market (slow)',
  inputSchema: z.object({ item: z.string(), count: z.number().int().positive() }),
  expectedDurationMs: 60_000,
  preconds: (args) => [pred.hasItem('emerald', args.count)],
  effects: (args) => [pred.gained(args.item, args.count)],
  run: async () => {},
  acceptance: unverified('fake'),
});
const buildOven = defineCapability({
  name: 'place_block',
  version: '1.0.0',
  description: 'place a block by the body',
  inputSchema: z.object({ item: z.string(), position: z.object({ x: z.number(), y: z.number(), z: z.number() }).optional() }),
  expectedDurationMs: 1_000,
  preconds: (args) => [pred.hasItem(args.item), pred.withinReach(args.position ?? pred.placeholder('position'))],
  effects: (args) => [pred.blockAt(args.position ?? pred.placeholder('position'), args.item)],
  run: async () => {},
  acceptance: unverified('fake'),
});
const wave = defineCapability({ name: 'wave', version: '1.0.0', description: 'no effects', inputSchema: z.object({}), run: async () => {}, acceptance: unverified('fake') });

const kitchen = () => new CapabilityRegistry().registerAll([wave, buyFlour, bakeBread, millWheat, buildOven]);
const world = (inventory: Record<string, number>, blocks: Record<string, string> = {}): PlannerWorld => ({
  position: { x: 0.5, y: 64, z: -3.2 },
  health: 20,
  food: 20,
  heldItem: null,
  inventory,
  blocks,
});
const summary = (steps: readonly { type: string; args: Record<string, unknown> }[]) => steps.map((s) => `${s.type} ${JSON.stringify(s.args)}`);
const limits = { maxNodes: 500, maxMs: 1_000 };

describe('createGoapPlanner over fake declarations', () => {
  it('binds args from the goal and chains the cheapest producers (mill over buy)', () => {
    const goap = createGoapPlanner({ clock: frozen, registry: kitchen(), limits });
    expect(() => createGoapPlanner({ clock: frozen, registry: kitchen(), limits: { maxNodes: 0, maxMs: 10 } })).toThrow(
      expect.objectContaining({ code: 'invalid_config', where: 'createGoapPlanner.limits', path: ['maxNodes'] }),
    );
    const result = goap.planGoal([pred.hasItem('bread', 4)], world({ wheat: 7, oven: 1 }));
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (!result.ok) return;
    expect(summary(result.plan.steps)).toEqual(['place_block {"item":"oven"}', 'mill {"what":"flour"}', 'mill {"what":"flour"}', 'bake_bread {"loafCount":4}']);
    expect(result.plan.steps[3]).toMatchObject({ preconds: ['has_item:flour:4', 'near_block:oven'], effects: ['has_item:bread:+4'], expectedDurationMs: 4_000, cost: 4 });
    // A target the step picks itself is not carried: the executor could not check `block:<position>=oven`.
    expect(result.plan.steps[0]).toMatchObject({ preconds: ['has_item:oven:1'], effects: [] });
  });

  it('takes the expensive producer only when the cheap one cannot be fed, and then the cheapest use of it', () => {
    const goap = createGoapPlanner({ clock: frozen, registry: kitchen(), limits });
    // Buying the bread (60 s) beats buying flour and baking it (64 s).
    const result = goap.planGoal([pred.hasItem('bread', 2)], world({ emerald: 5 }, { '0,64,-4': 'oven' }));
    expect(result.ok && summary(result.plan.steps)).toEqual(['buy {"item":"bread","count":2}']);
  });

  it('plans nothing when the world already meets the goal, and counts what is held', () => {
    const goap = createGoapPlanner({ clock: frozen, registry: kitchen(), limits });
    const done = goap.planGoal([pred.hasItem('bread', 2)], world({ bread: 2 }));
    expect(done.ok && done.plan.steps).toEqual([]);
    const gained = goap.planGoal([pred.gained('flour', 2)], world({ flour: 5, wheat: 3 }));
    expect(gained.ok && summary(gained.plan.steps)).toEqual(['mill {"what":"flour"}']);
    // near_block: a block in focus within reach distance; one seen far away does not count.
    const near = goap.planGoal([pred.nearBlock('oven')], world({ oven: 1 }, { '2,65,-5': 'oven' }));
    expect(near.ok && near.plan.steps).toEqual([]);
    const far = goap.planGoal([pred.nearBlock('oven')], world({ oven: 1 }, { '0,64,-40': 'oven' }));
    expect(far.ok && summary(far.plan.steps)).toEqual(['place_block {"item":"oven"}']);
  });

  it('fails with no_method naming the predicate no capability produces', () => {
    const goap = createGoapPlanner({ clock: frozen, registry: kitchen(), limits });
    const result = goap.planGoal([pred.hasItem('bread', 1)], world({}));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failure.code).toBe('no_method');
    expect(result.failure.reason).toMatch(/^no capability produces has_item:emerald:\+\d+ from this world/);
    expect(result.failure.details?.join('\n')).toContain('every producer needs it first (buy)');
    const chat = goap.planGoal([pred.chatEchoed()], world({}));
    expect(!chat.ok && chat.failure.reason).toMatch(/^no capability produces chat:echoed/);
  });

  it('stops at the node bound and at the time bound of the injected clock', () => {
    const nodes = createGoapPlanner({ clock: frozen, registry: kitchen(), limits: { maxNodes: 2, maxMs: 1_000 } }).planGoal([pred.hasItem('bread', 4)], world({ wheat: 12 }));
    expect(!nodes.ok && [nodes.failure.code, nodes.failure.reason]).toEqual(['depth_exceeded', expect.stringMatching(/bound \(nodes\) reached after 2 nodes/)]);
    let now = 0;
    const clock = { now: () => (now += 40) };
    const slow = createGoapPlanner({ registry: kitchen(), clock, limits: { maxNodes: 500, maxMs: 100 } });
    const timed = slow.planGoal([pred.hasItem('bread', 4)], world({ wheat: 12 }));
    expect(!timed.ok && timed.failure.reason).toMatch(/bound \(time\)/);
    expect(slow.lastSearch()!.ms).toBeGreaterThan(100);
  });

  it('refuses bad limits when built, and reads goals from intent text', async () => {
    expect(() => createGoapPlanner({ clock: frozen, registry: kitchen(), limits: { maxNodes: 0 } })).toThrow(/maxNodes/);
    expect(() => createGoapPlanner({ clock: frozen, registry: kitchen(), limits: { maxNode: 5 } as never })).toThrow(/maxNode/);
    const goap = createGoapPlanner({ clock: frozen, registry: kitchen(), limits });
    const intent = (goal: string) => IntentSchema.parse({ id: 'i1', source: 'user', goal, urgency: 0.2 });
    const ok = await goap.plan(intent('has_item:bread:1, near_block:oven'), world({ flour: 1, oven: 1 }));
    expect(ok.ok && summary(ok.plan.steps)).toEqual(['place_block {"item":"oven"}', 'bake_bread {"loafCount":1}']);
    const prose = await goap.plan(intent('bake me some bread'), world({}));
    expect(!prose.ok && prose.failure.code).toBe('unsupported_goal');
    const badWorld = goap.planGoal([pred.hasItem('bread')], { ...world({}), inventory: { bread: -1 } });
    expect(!badWorld.ok && badWorld.failure.code).toBe('invalid_world');
  });

  it('is deterministic: the same registry, goal and world give the same plan', () => {
    const goal = [pred.hasItem('bread', 5), pred.nearBlock('oven')];
    const plans = [0, 1, 2].map(() => {
      const result = createGoapPlanner({ clock: frozen, registry: kitchen(), limits }).planGoal(goal, world({ wheat: 9, emerald: 3, oven: 1 }));
      return result.ok ? result.plan : undefined;
    });
    expect(plans[0]).toBeDefined();
    expect(plans[1]).toEqual(plans[0]);
    expect(plans[2]).toEqual(plans[0]);
  });
});

describe('createGoapPlanner over createStandardRegistry() declarations', () => {
  const registry = createStandardRegistry();
  const planner = () => createGoapPlanner({ clock: frozen, registry, domain: minecraftGoapDomain(recipeBook()), limits: { maxNodes: 5_000, maxMs: 2_000 } });
  const empty = world({}, { '3,64,-3': 'oak_log' });

  it('has_item:torch:4 becomes craft_item { item: torch, count: 4 } after the chain that feeds it', () => {
    const result = planner().planGoal([pred.hasItem('torch', 4)], empty);
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (!result.ok) return;
    const steps = summary(result.plan.steps);
    expect(steps.at(-1)).toBe('craft_item {"item":"torch","count":4}');
    expect(steps[0]).toMatch(/^gather {"block":"oak_log"/);
    expect(steps).toContain('gather {"block":"coal_ore","count":1,"maxDistance":48}');
    expect(steps.indexOf('craft_item {"item":"wooden_pickaxe","count":1}')).toBeLessThan(steps.indexOf('gather {"block":"coal_ore","count":1,"maxDistance":48}'));
    for (const step of result.plan.steps) expect(checkStep(registry, step).ok).toBe(true);
  });

  it('uses what is held and a table already in view: sticks from planks only', () => {
    const result = planner().planGoal([pred.hasItem('stick', 4)], world({ oak_planks: 2 }, { '1,64,-3': 'crafting_table' }));
    expect(result.ok && summary(result.plan.steps)).toEqual(['craft_item {"item":"stick","count":4}']);
  });

  it('plans smelting through a placed furnace, with fuel, from the declarations of smelt_item', () => {
    const result = planner().planGoal([pred.hasItem('iron_ingot', 2)], world({ stone_pickaxe: 1, furnace: 1, coal: 1, raw_iron: 2 }));
    expect(result.ok && summary(result.plan.steps)).toEqual(['place_block {"item":"furnace"}', 'smelt_item {"item":"iron_ingot","input":"raw_iron","count":2}']);
  });

  it('names what the declarations cannot produce (no recipe, no source)', () => {
    const result = planner().planGoal([pred.hasItem('bedrock', 1)], empty);
    expect(!result.ok && result.failure.reason).toMatch(/^no capability produces has_item:bedrock:\+1 from this world/);
  });

  // Issue 31 item 4: the plans the hand-written recipe regression (deleted) wrote, now derived from the declarations.
  it.each([
    [['has_item:stick:2'], world({}, { '2,64,0': 'oak_log' }), [['gather', 'oak_log', 1], ['craft_item', 'oak_planks', 2], ['craft_item', 'stick', 2]]],
    [['near_block:furnace'], world({ cobblestone: 8 }, { '1,64,-2': 'crafting_table' }), [['craft_item', 'furnace', 1], ['place_block', 'furnace', undefined]]],
    [['near_block:furnace'], world({ furnace: 1 }), [['place_block', 'furnace', undefined]]],
  ])('derives what the recipe regression once wrote by hand for %j', (missing, at, handWritten) => {
    const derived = planner().planGoal(missing.map((text) => (parsePredicate(text) as { predicate: Predicate }).predicate), at);
    expect(derived.ok && derived.plan.steps.map((s) => [s.type, s.args.item ?? s.args.block, s.args.count])).toEqual(handWritten);
    // The repair (`subgoalsFor`) plans the same steps: it is this planner.
    const repaired = subgoalsFor(missing, at, { registry });
    expect(repaired.ok && repaired.steps.map((s) => [s.type, s.args.item ?? s.args.block, s.args.count])).toEqual(handWritten);
  });
});

// Issue 31 item 2: explore comes from its declared effects (`near_block:<block>` for `target.block`, `seen_mob:<mob>`),
// only where the known world lacks the source, one per block, each bounded by its maxRadius.
describe('goap decides when to explore (generated-world sources, the standard verbs)', () => {
  const registry = createStandardRegistry();
  const wild = (exploreRadius?: number) =>
    createGoapPlanner({
      clock: frozen,
      registry,
      domain: minecraftGoapDomain(recipeBook(), { world: OVERWORLD, verbs: registry.verbs(), ...(exploreRadius ? { exploreRadius } : {}) }),
      limits: { maxNodes: 20_000, maxMs: 5_000 },
    });
  // A spawn on grass by water: no log in the focus, sand and dirt about.
  const bare = world({}, { '0,63,0': 'grass_block', '1,63,0': 'sand', '-2,62,4': 'water', '3,63,-1': 'dirt' });
  const plan = (goal: string, at: PlannerWorld, exploreRadius?: number) => {
    const result = wild(exploreRadius).planGoal([(parsePredicate(goal) as { predicate: Predicate }).predicate], at);
    expect(result.ok, JSON.stringify(result)).toBe(true);
    return result.ok ? result.plan.steps : [];
  };

  it('no log in the known world nor held: explore for any log first, bound by maxRadius, gather it, and end there', () => {
    const steps = plan('has_item:stick:4', bare);
    // Which wood grows here is unknown until a log is in hand: planks of a guessed family (oak) would fail.
    expect(summary(steps)).toEqual(['explore {"target":{"block":"log"},"maxRadius":64}', 'gather {"block":"log","count":1,"maxDistance":48}']);
    expect(steps.map((s) => s.effects)).toEqual([[], []]);
    expect(steps[1]!.preconds).not.toContain('near_block:oak_log');
    for (const step of steps) expect(checkStep(registry, step).ok, JSON.stringify(step)).toBe(true);
    expect(summary(plan('has_item:stick:4', bare, 24)).slice(0, 1)).toEqual(['explore {"target":{"block":"log"},"maxRadius":24}']);
    // Planned again with the log in hand, the plan follows its family.
    expect(summary(plan('has_item:stick:4', { ...bare, inventory: { spruce_log: 1 } }))).toEqual([
      'craft_item {"item":"spruce_planks","count":2}',
      'craft_item {"item":"stick","count":4}',
    ]);
  });

  it('explore bound by maxRadius, its declared effect as the gather’s precondition (a log of a known family held, more needed)', () => {
    const steps = plan('has_item:birch_log:3', { ...bare, inventory: { birch_log: 1 } });
    expect(summary(steps)).toEqual(['explore {"target":{"block":"birch_log"},"maxRadius":64}', 'gather {"block":"birch_log","count":2,"maxDistance":48}']);
    expect(steps[0]).toMatchObject({ effects: ['near_block:birch_log'] });
    expect(steps[1]!.preconds).toContain('near_block:birch_log');
  });

  it('a log in view (any wood) needs no explore, and the wood in view is the one gathered', () => {
    const steps = summary(plan('has_item:stick:4', { ...bare, blocks: { ...bare.blocks, '6,64,-5': 'spruce_log' } }));
    expect(steps.some((s) => s.startsWith('explore'))).toBe(false);
    expect(steps[0]).toMatch(/^gather {"block":"spruce_log"/);
  });

  it('never explores for what the body makes (a table) nor for what lies everywhere (dirt)', () => {
    const table = summary(plan('near_block:crafting_table', bare));
    // A table subgoal takes any log that grows here, not oak_log (issue 31), and the plan ends with the log in hand.
    expect(table).toEqual(['explore {"target":{"block":"log"},"maxRadius":64}', 'gather {"block":"log","count":1,"maxDistance":48}']);
    const withLog = summary(plan('near_block:crafting_table', { ...bare, inventory: { spruce_log: 1 } }));
    expect(withLog.filter((s) => s.startsWith('explore'))).toEqual([]);
    expect(withLog.at(-1)).toBe('place_block {"item":"crafting_table"}');
    expect(summary(plan('has_item:dirt:3', world({}, {})))).toEqual(['gather {"block":"dirt","count":3,"maxDistance":48}']);
  });

  it('an animal is never in the snapshot: explore for the mob (its declared seen_mob effect) before the hunt', () => {
    const steps = plan('has_item:beef:2', bare);
    expect(summary(steps)).toEqual(['explore {"target":{"mob":"cow"},"maxRadius":64}', 'hunt {"animal":"cow","count":2,"maxDistance":32}']);
    expect(steps[1]!.preconds).toEqual([steps[0]!.effects![0]]);
  });

  it('a body without explore (the placed world’s verbs) plans the gather alone, of any log', () => {
    const placed = createGoapPlanner({ clock: frozen, registry, domain: minecraftGoapDomain(recipeBook()), limits: { maxNodes: 5_000, maxMs: 2_000 } }).planGoal([pred.hasItem('stick', 4)], bare);
    expect(placed.ok && summary(placed.plan.steps)).toEqual(['gather {"block":"log","count":1,"maxDistance":48}']);
  });
});
