import { createStandardRegistry } from '@sinew/capabilities';
import { checkStep, type Intent, type PlanStep } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { contextKey, createHtnPlanner, OutcomeMemory, type HtnMethod, type HtnOperator, type PlannerWorld } from '../src/index.js';
import { createMinecraftHtn, needWoodIntent, woodFamily } from '../src/minecraft/index.js';

// Regression for the demo defect: one recorded failure of htn in `need:tools|time:dawn` reordered the
// methods and the next need-wood plan gathered spruce_log ×1, ×3 and ×0 in an oak-only world.

const registry = createStandardRegistry();
const context = { tool: 'wooden_pickaxe', need: 'tools', time: 'dawn' };
const intent = needWoodIntent({ context });
const key = contextKey(intent.context);

const world = (log: string, inventory: Record<string, number> = {}): PlannerWorld => ({
  position: { x: 0, y: 64, z: 0 },
  health: 20,
  food: 20,
  heldItem: null,
  inventory,
  blocks: { '3,64,0': log, '3,65,0': log, '3,66,0': log },
  time: 0,
});

const permutations = <T>(items: readonly T[]): T[][] =>
  items.length <= 1 ? [[...items]] : items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));

/** A memory whose records put each task's methods in exactly the given order (k failures for the k-th). */
function memoryFor(orders: readonly (readonly string[])[]): OutcomeMemory {
  const memory = new OutcomeMemory();
  for (const order of orders) order.forEach((method, k) => Array.from({ length: k }, () => memory.record(method, key, false)));
  return memory;
}

/** Every way the plan can be broken that the demo showed, as readable complaints (empty = sensible). */
function complaints(steps: readonly PlanStep[], family: string): string[] {
  const out: string[] = [];
  const gathered = new Set<string>();
  for (const step of steps) {
    const args = step.args as Record<string, unknown>;
    const label = `${step.stepId} ${step.type} ${JSON.stringify(args)}`;
    const checked = checkStep(registry, step);
    if (!checked.ok) out.push(`${label}: rejected by the registry (${JSON.stringify(checked)})`);
    for (const field of ['count', 'height'] as const) {
      if (field in args && !(Number.isInteger(args[field]) && (args[field] as number) >= 1)) out.push(`${label}: ${field} must be a whole number ≥ 1`);
    }
    for (const name of [args.item, args.block].filter((v): v is string => typeof v === 'string')) {
      const kind = woodFamily(name);
      if (kind && kind !== family) out.push(`${label}: ${kind} wood, but the world shows ${family}`);
    }
    if (step.type === 'gather') {
      if (gathered.has(String(args.block))) out.push(`${label}: a second gather of ${String(args.block)}`);
      gathered.add(String(args.block));
    }
  }
  return out;
}

const OBTAIN = ['obtain.held', 'obtain.gather', 'obtain.mine', 'obtain.smelt', 'obtain.craft', 'obtain.craft_alt'];
const TABLE = ['table.nearby', 'table.place_held', 'table.craft_and_place'];
const WOOD = ['wood.visible_tree', 'wood.any_log'];

describe('HTN method memory: reordered methods still give a valid, sensible plan', () => {
  it('after a recorded failure of the need-wood plan, replanning in that context is valid (the demo defect)', () => {
    const memory = new OutcomeMemory();
    const htn = createMinecraftHtn({ memory, registry });
    const first = htn.plan(intent, world('oak_log'));
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    htn.recordOutcome(first.plan.planId, false);
    expect(htn.methodOrder('obtain', key)[0]).not.toBe('obtain.held'); // the failure did reorder the methods

    const second = htn.plan(intent, world('oak_log'));
    expect(second.ok).toBe(true);
    if (!second.ok) return;
    expect(complaints(second.plan.steps, 'oak')).toEqual([]);
    expect(second.plan.steps.map((s) => s.type)).toEqual(['gather', 'craft_item', 'craft_item', 'place_block', 'craft_item']);
    expect(second.plan.steps.at(-1)?.args).toEqual({ item: 'wooden_pickaxe', count: 1 });
  });

  it('the demo memory file (one failure of every method the first plan used) plans oak, no count 0', () => {
    const memory = new OutcomeMemory();
    for (const method of ['need_wood.fell_then_craft', 'obtain.craft', 'obtain.held', 'table.craft_and_place', 'wood.visible_tree']) memory.record(method, key, false);
    const result = createMinecraftHtn({ memory, registry }).plan(intent, world('oak_log'));
    expect(result.ok && complaints(result.plan.steps, 'oak')).toEqual([]);
  });

  it('no ordering of the obtain, table and wood methods yields a count-0 step, an unseen wood or a duplicate gather', () => {
    let plans = 0;
    for (const obtain of permutations(OBTAIN)) {
      for (const table of permutations(TABLE)) {
        for (const wood of permutations(WOOD)) {
          const htn = createMinecraftHtn({ registry, memory: memoryFor([obtain, table, wood]) });
          // The records really produce this order, so every ordering is exercised.
          expect([htn.methodOrder('obtain', key), htn.methodOrder('ensure_table', key), htn.methodOrder('acquire_wood', key)]).toEqual([obtain, table, wood]);
          const result = htn.plan(intent, world('oak_log'));
          expect(result.ok, `${obtain} | ${table} | ${wood}`).toBe(true);
          if (!result.ok) continue;
          expect(complaints(result.plan.steps, 'oak'), `${obtain} | ${table} | ${wood}`).toEqual([]);
          plans += 1;
        }
      }
    }
    expect(plans).toBe(720 * 6 * 2);
  });

  it('other goals stay valid under every obtain ordering, with partial inventories', () => {
    const goals: [string, Record<string, number>][] = [
      ['craft wooden_pickaxe', {}],
      ['craft wooden_pickaxe', { oak_planks: 1 }],
      ['craft stick', { oak_log: 1 }],
      ['craft crafting_table', { oak_planks: 2 }],
      ['wooden_tools', {}],
    ];
    for (const [goal, inventory] of goals) {
      const goalIntent: Intent = { ...intent, id: `i-${goal.replace(/\s+/g, '-')}`, goal };
      for (const obtain of permutations(OBTAIN)) {
        const result = createMinecraftHtn({ registry, memory: memoryFor([obtain]) }).plan(goalIntent, world('oak_log', inventory));
        expect(result.ok, `${goal} ${JSON.stringify(inventory)} | ${obtain}`).toBe(true);
        if (result.ok) expect(complaints(result.plan.steps, 'oak'), `${goal} ${JSON.stringify(inventory)} | ${obtain}`).toEqual([]);
      }
    }
  });

  it('the wood kind follows the logs the world shows, whichever methods come first', () => {
    for (const family of ['spruce', 'birch', 'dark_oak']) {
      for (const obtain of permutations(OBTAIN)) {
        for (const table of permutations(TABLE)) {
          const result = createMinecraftHtn({ registry, memory: memoryFor([obtain, table, ['wood.visible_tree', 'wood.any_log']]) }).plan(intent, world(`${family}_log`));
          expect(result.ok).toBe(true);
          if (!result.ok) continue;
          expect(complaints(result.plan.steps, family), `${family} | ${obtain} | ${table}`).toEqual([]);
          expect(result.plan.steps[0]?.args).toEqual({ block: `${family}_log`, count: 3 });
          expect(result.plan.steps).toContainEqual(expect.objectContaining({ args: { item: `${family}_planks`, count: 12 } }));
        }
      }
    }
  });

  it('held wood counts as evidence: spruce planks in hand, oak in view — no third kind', () => {
    for (const obtain of permutations(OBTAIN)) {
      const result = createMinecraftHtn({ registry, memory: memoryFor([obtain]) }).plan({ ...intent, goal: 'craft crafting_table' }, world('oak_log', { spruce_planks: 4 }));
      expect(result.ok && result.plan.steps).toEqual([{ stepId: 's1', type: 'craft_item', args: { item: 'crafting_table', count: 1 }, effects: ['has_item:crafting_table:+1'] }]);
    }
  });
});

describe('HTN core: operator validity and step folding', () => {
  type Bag = { items: number };
  const CAPACITY = 5;
  const operators: HtnOperator<Bag>[] = [
    {
      verb: 'take',
      valid: (args) => Number.isInteger(args.count) && (args.count as number) >= 1,
      apply: (s, a) => (s.items + (a.count as number) > CAPACITY ? false : void (s.items += a.count as number)),
      merge: (a, b) => ({ count: (a.count as number) + (b.count as number) }),
    },
    { verb: 'use', apply: (s, a) => (s.items < (a.count as number) ? false : void (s.items -= a.count as number)) },
  ];
  // `get.take` deliberately does not check the deficit itself: only the operator's `valid` stops a count-0 step.
  const methods: HtnMethod<Bag>[] = [
    { name: 'get.have', task: 'get', description: 'enough already', applicable: (s, a) => s.items >= (a.count as number), subtasks: [] },
    { name: 'get.take', task: 'get', description: 'take the rest', expand: (s, a) => [{ task: 'take', args: { count: (a.count as number) - s.items } }] },
  ];
  const planner = (memory?: OutcomeMemory) =>
    createHtnPlanner<Bag>({
      methods,
      operators,
      ...(memory ? { memory } : {}),
      tasksFor: (i) =>
        i.goal === 'two'
          ? [{ task: 'get', args: { count: 2 } }, { task: 'take', args: { count: 1 } }, { task: 'get', args: { count: 4 } }]
          : [{ task: 'get', args: { count: 2 } }, { task: 'use', args: { count: 2 } }, { task: 'take', args: { count: 4 } }],
    });
  const goal = (g: string): Intent => ({ ...intent, id: `i-${g}`, goal: g, context: { k: 'v' } });

  it('never emits a step its operator rejects, whatever the method order (backtracks instead)', () => {
    const memory = new OutcomeMemory();
    memory.record('get.have', 'k:v', false); // get.take is now tried first, even when nothing is missing
    const htn = planner(memory);
    expect(htn.methodOrder('get', 'k:v')).toEqual(['get.take', 'get.have']);
    // Two held: get.take would emit take ×0 for the first get; the HTN rejects it and uses get.have.
    const result = htn.plan(goal('two'), { items: 2 });
    expect(result.ok && result.plan.steps.map((s) => s.args)).toEqual([{ count: 2 }]);
    expect(result.ok && result.methods).toEqual(['get.have', 'get.take']);
  });

  it('folds later steps into an earlier one of the same verb only when the plan still simulates', () => {
    const folded = planner().plan(goal('two'), { items: 0 });
    expect(folded.ok && folded.plan.steps.map((s) => [s.type, s.args])).toEqual([['take', { count: 4 }]]);
    // take 2 + take 4 would exceed the capacity of 5 before `use`: kept apart.
    const apart = planner().plan(goal('apart'), { items: 0 });
    expect(apart.ok && apart.plan.steps.map((s) => [s.type, s.args])).toEqual([
      ['take', { count: 2 }],
      ['use', { count: 2 }],
      ['take', { count: 4 }],
    ]);
  });
});
