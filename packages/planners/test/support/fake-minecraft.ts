import { createTestRunContext } from '@sinew/bt-runtime/testing';
import {
  accepted,
  CapabilityRegistry,
  checkStep,
  defineCapability,
  guardFailed,
  guardOk,
  ManualClock,
  precondMissing,
  pred,
  unverified,
  type Plan,
  type PlanStep,
  type RepairHook,
  type StepFailure,
} from '@sinew/executor-contracts';
import { z } from 'zod';
import type { PlannerWorld } from '../../src/index.js';

/**
 * A small fake Minecraft body for unit tests: an inventory, a tree with a fixed number of logs and
 * a crafting table flag. Its crafting rules are written out by hand (independently of the planner's
 * minecraft-data recipe book), and its craft guard reports missing predicates the way the real
 * craft_item capability does (`has_item:<ingredient>:<total>`, `near_block:crafting_table`).
 */
export class FakeBody {
  inventory: Record<string, number> = {};
  tableNear = false;
  heldItem: string | null = null;
  readonly actions: string[] = [];
  constructor(public logsInTree: number) {}

  snapshot(): PlannerWorld {
    return {
      position: { x: 0, y: 64, z: 0 },
      health: 20,
      food: 20,
      heldItem: this.heldItem,
      inventory: { ...this.inventory },
      blocks: { '2,64,0': 'oak_log', ...(this.tableNear ? { '1,64,0': 'crafting_table' } : {}) },
    };
  }
}

const RECIPES: Record<string, { makes: number; needs: Record<string, number>; table: boolean }> = {
  oak_planks: { makes: 4, needs: { oak_log: 1 }, table: false },
  stick: { makes: 4, needs: { oak_planks: 2 }, table: false },
  crafting_table: { makes: 1, needs: { oak_planks: 4 }, table: false },
  wooden_pickaxe: { makes: 1, needs: { oak_planks: 3, stick: 2 }, table: true },
};

const Vec3 = z.object({ x: z.number(), y: z.number(), z: z.number() });
const have = (body: FakeBody, item: string) => body.inventory[item] ?? 0;
const give = (body: FakeBody, item: string, n: number) => {
  body.inventory[item] = have(body, item) + n;
  if (body.inventory[item] === 0) delete body.inventory[item];
};

function craftMissing(body: FakeBody, item: string, count: number): string[] {
  const recipe = RECIPES[item]!;
  const times = Math.ceil(count / recipe.makes);
  const missing = Object.entries(recipe.needs)
    .filter(([name, n]) => have(body, name) < n * times)
    .map(([name, n]) => `has_item:${name}:${n * times}`);
  if (recipe.table && !body.tableNear) missing.push('near_block:crafting_table');
  return missing;
}

/** The 13 standard verbs with the arg schemas of /tmp/sinew-verbs.md; the crafting chain verbs really act on the fake body. */
export function fakeRegistry(): CapabilityRegistry<FakeBody> {
  const registry = new CapabilityRegistry<FakeBody>();
  const stub = (name: string, inputSchema: z.ZodType) =>
    defineCapability<z.ZodType, FakeBody>({ name, version: '1.0.0', description: `${name} (fake)`, inputSchema, run: async () => {}, acceptance: unverified('fake') });
  registry.register(
    defineCapability<z.ZodType<{ block: string; count: number }>, FakeBody>({
      name: 'gather',
      version: '1.0.0',
      description: 'gather blocks',
      inputSchema: z.object({ block: z.string().min(1), count: z.number().int().positive().default(1), maxDistance: z.number().positive().default(48) }),
      run: async ({ body }, { block, count }) => {
        if (!/(^|_)log$/.test(block) || body.logsInTree < count) return { ok: false, reason: `tree has ${body.logsInTree} logs`, code: 'runner_error' };
        body.logsInTree -= count;
        give(body, 'oak_log', count);
        body.actions.push(`gather ${block} ${count}`);
      },
      acceptance: () => accepted,
    }),
  );
  registry.register(
    defineCapability<z.ZodType<{ item: string; count: number }>, FakeBody>({
      name: 'craft_item',
      version: '1.0.0',
      description: 'craft',
      inputSchema: z.object({ item: z.string().min(1), count: z.number().int().positive().default(1) }),
      guard: ({ body }, { item, count }) => {
        if (!RECIPES[item]) return guardFailed(`no recipe for ${item}`);
        const missing = craftMissing(body, item, count);
        return missing.length ? precondMissing(missing) : guardOk;
      },
      effects: (args) => [pred.gained(args.item, args.count)],
      run: async ({ body }, { item, count }) => {
        const recipe = RECIPES[item]!;
        const times = Math.ceil(count / recipe.makes);
        for (const [name, n] of Object.entries(recipe.needs)) give(body, name, -n * times);
        give(body, item, recipe.makes * times);
        body.actions.push(`craft ${item} ${count}`);
      },
      acceptance: () => accepted,
    }),
  );
  registry.register(
    defineCapability<z.ZodType<{ item: string }>, FakeBody>({
      name: 'place_block',
      version: '1.0.0',
      description: 'place',
      inputSchema: z.object({ item: z.string().min(1), position: Vec3.optional() }),
      guard: ({ body }, { item }) => (have(body, item) >= 1 ? guardOk : precondMissing([`has_item:${item}:1`])),
      run: async ({ body }, { item }) => {
        give(body, item, -1);
        if (item === 'crafting_table') body.tableNear = true;
        body.actions.push(`place ${item}`);
      },
      acceptance: () => accepted,
    }),
  );
  registry.register(
    defineCapability<z.ZodType<{ item: string }>, FakeBody>({
      name: 'equip',
      version: '1.0.0',
      description: 'equip',
      inputSchema: z.object({ item: z.string().min(1), destination: z.enum(['hand', 'off-hand', 'head', 'torso', 'legs', 'feet']).default('hand') }),
      guard: ({ body }, { item }) => (have(body, item) >= 1 ? guardOk : precondMissing([`has_item:${item}:1`])),
      run: async ({ body }, { item }) => {
        body.heldItem = item;
        body.actions.push(`equip ${item}`);
      },
      acceptance: () => accepted,
    }),
  );
  const one = (keys: string[]) => (v: Record<string, unknown>) => keys.filter((k) => v[k] !== undefined).length === 1;
  registry.register(
    stub('navigate', z.object({ position: Vec3.optional(), block: z.string().optional(), entity: z.string().optional(), range: z.number().positive().default(2) }).refine(one(['position', 'block', 'entity']), 'exactly one of position, block, entity')),
  );
  registry.register(stub('dig_block', z.object({ position: Vec3.optional(), block: z.string().optional(), maxDistance: z.number().default(32) })));
  registry.register(stub('collect_drops', z.object({ item: z.string().optional(), radius: z.number().positive().default(8) })));
  registry.register(stub('smelt_item', z.object({ item: z.string().min(1), input: z.string().min(1), count: z.number().int().positive().default(1) })));
  registry.register(stub('consume_food', z.object({ item: z.string().optional() })));
  registry.register(stub('attack_entity', z.object({ entity: z.string().optional(), maxDistance: z.number().positive().default(16) })));
  registry.register(stub('flee', z.object({ from: Vec3.optional(), entity: z.string().optional(), distance: z.number().positive().default(12) })));
  registry.register(stub('pillar_up', z.object({ height: z.number().int().positive(), item: z.string().optional() })));
  registry.register(
    stub('build_structure', z.object({ origin: Vec3.optional(), blueprint: z.array(z.object({ dx: z.number(), dy: z.number(), dz: z.number(), block: z.string() })).min(1) })),
  );
  registry.register(stub('chat', z.object({ message: z.string().min(1) })));
  return registry;
}

export interface MiniRun {
  readonly ok: boolean;
  readonly failure?: StepFailure;
  readonly repairs: readonly string[];
  readonly executed: readonly string[];
}

/**
 * A minimal stand-in for the executor's step loop (V1–V3 via checkStep, run, precond_missing → the
 * repair hook, repair steps run first, then the parent retried) — enough to prove a repair chain.
 */
export async function runWithRepair(registry: CapabilityRegistry<FakeBody>, plan: Plan, body: FakeBody, hook: RepairHook): Promise<MiniRun> {
  const queue: PlanStep[] = [...plan.steps];
  const repairs: string[] = [];
  const executed: string[] = [];
  let repairsSoFar = 0;
  for (let guard = 0; queue.length && guard < 200; guard += 1) {
    const step = queue[0]!;
    const check = checkStep(registry, step, { body });
    if (!check.ok) {
      if (check.failure.code !== 'precond_missing') return { ok: false, failure: check.failure, repairs, executed };
      const response = await hook.repair({ plan, step, failure: check.failure, repairsSoFar });
      if (!response) return { ok: false, failure: check.failure, repairs, executed };
      repairsSoFar += 1;
      repairs.push(response.reason);
      queue.splice(0, response.replace ? 1 : 0, ...response.steps);
      continue;
    }
    const result = await check.capability.run(
      createTestRunContext({ body, clock: new ManualClock(), log: console, step: { planId: plan.planId, stepId: step.stepId, verb: step.type, version: '1.0.0' } }),
      check.args,
    );
    if (result && !result.ok) return { ok: false, failure: { code: 'runner_error', reason: result.reason, retryable: true }, repairs, executed };
    executed.push(step.stepId);
    queue.shift();
  }
  return { ok: queue.length === 0, repairs, executed };
}
