import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkStep, IntentSchema, type Intent } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { createHtnPlanner, loadOutcomeMemory, OutcomeMemory, type HtnMethod, type HtnOperator } from '../src/index.js';
import { createMinecraftHtn, minecraftTasks } from '../src/minecraft/index.js';
import { fakeRegistry } from './support/fake-minecraft.js';

type Toy = { at: string; has: string[] };
const intent = (goal: string, context: Record<string, unknown> = {}): Intent =>
  IntentSchema.parse({ id: `i-${goal.replace(/\s+/g, '-')}`, source: 'user', goal, urgency: 0.5, context });

const toyOperators: HtnOperator<Toy>[] = [
  { verb: 'navigate', apply: (s, a) => void (s.at = String(a.block)) },
  { verb: 'dig_block', apply: (s, a) => (s.at === a.block ? void s.has.push(String(a.block)) : false) },
  { verb: 'chat', effects: () => [] },
];
const toyMethods: HtnMethod<Toy>[] = [
  { name: 'fetch.walk_and_dig', task: 'fetch', description: 'walk to it, dig it', subtasks: [{ task: 'navigate', args: { block: '$what' } }, { task: 'dig_block', args: { block: '$what' } }] },
  { name: 'fetch.ask', task: 'fetch', description: 'ask for it', subtasks: [{ task: 'chat', args: { message: 'please bring $what' } }] },
  { name: 'fetch.broken', task: 'broken', description: 'digs where it is not', subtasks: [{ task: 'dig_block', args: { block: 'nowhere' } }] },
  { name: 'loop.forever', task: 'loop', description: 'recursion without end', subtasks: [{ task: 'loop' }] },
];
const toyPlanner = (memory?: OutcomeMemory) =>
  createHtnPlanner<Toy>({
    methods: toyMethods,
    operators: toyOperators,
    tasksFor: (i) => {
      const [task, what] = i.goal.split(' ');
      return task ? [{ task, args: { what } }] : undefined;
    },
    ...(memory ? { memory } : {}),
    maxDepth: 10,
  });
const toyWorld = (): Toy => ({ at: 'spawn', has: [] });

describe('HTN planner (core)', () => {
  it('decomposes a task into registry verbs with $arg substitution', () => {
    const result = toyPlanner().plan(intent('fetch stone'), toyWorld());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.plan.steps).toEqual([
      { stepId: 's1', type: 'navigate', args: { block: 'stone' } },
      { stepId: 's2', type: 'dig_block', args: { block: 'stone' } },
    ]);
    expect(result.methods).toEqual(['fetch.walk_and_dig']);
    expect(result.plan.planner).toBe('htn');
  });

  it('is deterministic: the same intent and world give the same steps', () => {
    const planner = toyPlanner();
    const a = planner.plan(intent('fetch stone'), toyWorld());
    const b = planner.plan(intent('fetch stone'), toyWorld());
    expect(a.ok && b.ok && a.plan.steps).toEqual(b.ok && b.plan.steps);
  });

  it('fails with coded errors: no method, depth bound, unsupported goal', () => {
    const planner = toyPlanner();
    const broken = planner.plan(intent('broken x'), toyWorld());
    expect(!broken.ok && broken.failure.code).toBe('no_method');
    const loop = planner.plan(intent('loop'), toyWorld());
    expect(!loop.ok && loop.failure.code).toBe('depth_exceeded');
    const none = createHtnPlanner<Toy>({ methods: toyMethods, operators: toyOperators, tasksFor: () => undefined }).plan(intent('x'), toyWorld());
    expect(!none.ok && none.failure.code).toBe('unsupported_goal');
  });

  it('rejects a method for a primitive task and a method with both or neither subtasks/expand', () => {
    expect(() => createHtnPlanner<Toy>({ methods: [{ name: 'bad', task: 'chat', description: '', subtasks: [] }], operators: toyOperators, tasksFor: () => [] })).toThrow(/primitive/);
    expect(() => createHtnPlanner<Toy>({ methods: [{ name: 'bad', task: 't', description: '' }], operators: toyOperators, tasksFor: () => [] })).toThrow(/exactly one/);
  });

  it('method-effectiveness memory reorders methods per context and is persisted to a JSON file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sinew-htn-'));
    const file = join(dir, 'memory.json');
    const memory = new OutcomeMemory(file);
    const planner = toyPlanner(memory);
    const night = intent('fetch stone', { time: 'night' });
    expect(planner.methodOrder('fetch', 'time:night')).toEqual(['fetch.walk_and_dig', 'fetch.ask']);
    const first = planner.plan(night, toyWorld());
    expect(first.ok && first.methods).toEqual(['fetch.walk_and_dig']);
    if (first.ok) planner.recordOutcome(first.plan.planId, false);
    // The plan is forgotten once its outcome is in: a repeated report records nothing more (and the map stays bounded).
    if (first.ok) planner.recordOutcome(first.plan.planId, false);
    expect(memory.stats('fetch.walk_and_dig', 'time:night')).toEqual({ successes: 0, failures: 1 });
    expect(planner.methodOrder('fetch', 'time:night')).toEqual(['fetch.ask', 'fetch.walk_and_dig']);
    // Other contexts keep the declared order.
    expect(planner.methodOrder('fetch', 'time:day')).toEqual(['fetch.walk_and_dig', 'fetch.ask']);
    const reordered = planner.plan(night, toyWorld());
    expect(reordered.ok && reordered.methods).toEqual(['fetch.ask']);
    expect(reordered.ok && reordered.plan.steps[0]!.args).toEqual({ message: 'please bring stone' });

    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved.outcomes['fetch.walk_and_dig']['time:night']).toEqual({ successes: 0, failures: 1 });
    const loaded = loadOutcomeMemory(file);
    expect(loaded.ok).toBe(true);
    if (loaded.ok) expect(toyPlanner(loaded.memory).methodOrder('fetch', 'time:night')[0]).toBe('fetch.ask');
  });

  it('a corrupt memory file is a coded error; a missing one is an empty memory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sinew-htn-'));
    writeFileSync(join(dir, 'bad.json'), '{"version":1,"outcomes":{"m":{"c":{"successes":-1,"failures":0}}}}');
    const bad = loadOutcomeMemory(join(dir, 'bad.json'));
    expect(!bad.ok && bad.error.code).toBe('memory_file_invalid');
    expect(!bad.ok && bad.error.reason).toContain('successes');
    writeFileSync(join(dir, 'junk.json'), 'not json');
    expect(loadOutcomeMemory(join(dir, 'junk.json')).ok).toBe(false);
    const missing = loadOutcomeMemory(join(dir, 'none.json'));
    expect(missing.ok && missing.memory.score('x', 'y')).toBe(0.5);
  });
});

describe('Minecraft method library', () => {
  const world = (inventory: Record<string, number> = {}, blocks: Record<string, string> = { '2,64,0': 'oak_log' }) => ({
    position: { x: 0, y: 64, z: 0 },
    health: 20,
    food: 20,
    heldItem: null,
    inventory,
    blocks,
  });
  const registry = fakeRegistry();
  const planOf = (goal: string, w = world(), context: Record<string, unknown> = {}) => {
    const result = createMinecraftHtn({ registry }).plan(intent(goal, context), w);
    if (!result.ok) throw new Error(`${goal}: ${result.failure.code} ${result.failure.reason}`);
    return result;
  };
  const validAgainstRegistry = (steps: readonly unknown[]) => steps.every((step) => checkStep(registry, step).ok);

  it('maps goals to root tasks', () => {
    expect(minecraftTasks(intent('craft stick', { count: 4 }))).toEqual([{ task: 'obtain', args: { item: 'stick', count: 4 } }]);
    expect(minecraftTasks(intent('AcquireWood'))).toEqual([{ task: 'acquire_wood', args: { count: 4 } }]);
    expect(minecraftTasks(intent('stone_tools'))).toEqual([{ task: 'craft_tools', args: { tier: 'stone' } }]);
    expect(minecraftTasks(intent('dance'))).toBeUndefined();
  });

  it('wood: fells the tree in view, or gathers any log when none is in view', () => {
    expect(planOf('acquire wood').plan.steps.map((s) => s.args)).toEqual([{ block: 'oak_log', count: 4 }]);
    const blind = planOf('acquire wood', world({}, {}));
    expect(blind.methods).toEqual(['wood.any_log']);
    expect(blind.plan.steps[0]!.args).toEqual({ block: 'log', count: 4 });
  });

  it('planks, sticks, crafting table, wooden and stone tools, shelter: every step is a valid registry step', () => {
    for (const goal of ['craft oak_planks', 'craft stick', 'craft crafting_table', 'craft wooden_pickaxe', 'wooden_tools', 'stone_tools', 'shelter']) {
      const result = planOf(goal);
      expect(validAgainstRegistry(result.plan.steps), goal).toBe(true);
    }
    const stone = planOf('stone_tools');
    const types = stone.plan.steps.map((s) => `${s.type}:${String(s.args.item ?? s.args.block)}`);
    expect(types.indexOf('craft_item:wooden_pickaxe')).toBeLessThan(types.indexOf('gather:stone'));
    expect(types).toContain('craft_item:stone_pickaxe');
    expect(types).toContain('craft_item:stone_sword');
    const shelter = planOf('shelter');
    expect(shelter.methods?.[0]).toBe('shelter.hut');
    expect(shelter.plan.steps.at(-1)!.type).toBe('build_structure');
  });

  it('shelter: the hut goes on the nearest free spot (not over the table the pickaxe left beside the bot), built from inside', () => {
    // Feet at (0, 64, -1); the table placed east of them, a trunk two blocks west, and a pit where the hut would go south.
    const blocks: Record<string, string> = { '1,64,-1': 'crafting_table', '-2,64,-1': 'oak_log', '-2,65,-1': 'oak_log', '0,63,-3': 'air', '0,64,-2': 'short_grass' };
    const result = planOf('shelter', { ...world({ dirt: 30 }, blocks), position: { x: 0.3, y: 64, z: -0.8 } });
    expect(result.methods?.[0]).toBe('shelter.hut');
    const [walk, build] = result.plan.steps;
    expect(result.plan.steps.map((s) => s.type)).toEqual(['navigate', 'build_structure']);
    const origin = build!.args.origin as { x: number; y: number; z: number };
    expect(walk!.args).toEqual({ position: { x: origin.x + 0.5, y: 64, z: origin.z + 0.5 }, range: 0.5 });
    const cells = (build!.args.blueprint as { dx: number; dy: number; dz: number }[]).map((c) => `${origin.x + c.dx},${origin.y + c.dy},${origin.z + c.dz}`);
    expect(cells.filter((cell) => blocks[cell] !== undefined && blocks[cell] !== 'short_grass')).toEqual([]);
    expect(origin.y).toBe(64);
    expect(Math.abs(origin.x) + Math.abs(origin.z + 1)).toBeGreaterThan(0);
    // A hut begun and left (the flee that preempted it took the bot five blocks away): that one is finished, not a new one begun.
    const begun: Record<string, string> = { ...blocks, '6,64,-1': 'dirt', '6,65,-1': 'dirt', '5,64,-2': 'dirt', '5,64,0': 'dirt' };
    const resumed = planOf('shelter', { ...world({ dirt: 30 }, begun), position: { x: 0.3, y: 64, z: -0.8 } });
    expect(resumed.plan.steps.at(-1)!.args.origin).toEqual({ x: 5, y: 64, z: -1 });
    // Walled in on every side within reach: no room for a hut, so the bot pillars up instead.
    const walled: Record<string, string> = {};
    for (let x = -10; x <= 10; x += 1) for (let z = -11; z <= 9; z += 1) if (x !== 0 || z !== -1) walled[`${x},64,${z}`] = 'stone';
    const pillar = planOf('shelter', { ...world({ dirt: 30 }, walled), position: { x: 0.3, y: 64, z: -0.8 } });
    expect(pillar.methods?.[0]).toBe('shelter.pillar');
    expect(pillar.plan.steps.map((s) => s.type)).toEqual(['pillar_up']);
  });

  it('uses a crafting table already in reach instead of placing one', () => {
    const result = planOf('craft wooden_pickaxe', world({ oak_planks: 3, stick: 2 }, { '1,64,1': 'crafting_table' }));
    expect(result.plan.steps.map((s) => s.type)).toEqual(['craft_item']);
    expect(result.methods).toContain('table.nearby');
  });

  it('need wood leaves the sticks to precondition repair (the demo)', () => {
    const result = planOf('need wood');
    expect(result.plan.steps.map((s) => `${s.type}:${String(s.args.item ?? s.args.block)}`)).toEqual([
      'gather:oak_log',
      'craft_item:oak_planks',
      'craft_item:crafting_table',
      'place_block:crafting_table',
      'craft_item:wooden_pickaxe',
    ]);
  });

  it('lists only registry verbs', () => {
    const planner = createMinecraftHtn({ registry });
    expect(planner.verbs().every((v) => registry.has(v))).toBe(true);
  });
});

describe('contextKey', () => {
  it('is the sorted categorical entries; numbers do not split the evidence', async () => {
    const { contextKey } = await import('../src/index.js');
    expect(contextKey({ time: 'dusk', biome: 'taiga', count: 4, night: true, nested: { a: 1 } })).toBe('biome:taiga|night:true|time:dusk');
    expect(contextKey({})).toBe('*');
    expect(contextKey({ time: 'dusk', biome: 'taiga' }, ['time'])).toBe('time:dusk');
  });
});

describe('methods as data', () => {
  it('loads JSON methods that plan beside coded ones', async () => {
    const { loadHtnMethods } = await import('../src/index.js');
    const loaded = loadHtnMethods<Toy>(JSON.parse('[{"name":"greet.wave","task":"greet","description":"say hello","subtasks":[{"task":"chat","args":{"message":"hello $who"}}]}]'));
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    const planner = createHtnPlanner<Toy>({ methods: [...toyMethods, ...loaded.methods], operators: toyOperators, tasksFor: (i) => [{ task: 'greet', args: { who: i.goal } }] });
    const result = planner.plan(intent('Steve'), toyWorld());
    expect(result.ok && result.plan.steps).toEqual([{ stepId: 's1', type: 'chat', args: { message: 'hello Steve' } }]);
  });

  it('rejects bad method data naming the field', async () => {
    const { loadHtnMethods } = await import('../src/index.js');
    const bad = loadHtnMethods([{ name: 'Bad Name', task: 't', description: 'd', subtasks: [{ verb: 'chat' }] }]);
    expect(!bad.ok && bad.error.issues.map((i) => i.path.join('.'))).toEqual(['0.name', '0.subtasks.0.task', '0.subtasks.0']);
    const duplicate = loadHtnMethods([
      { name: 'a.b', task: 't', description: 'd', subtasks: [] },
      { name: 'a.b', task: 't', description: 'd', subtasks: [] },
    ]);
    expect(!duplicate.ok && duplicate.error.message).toContain('duplicate method name a.b');
  });
});
