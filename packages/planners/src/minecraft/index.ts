import type { CapabilityRegistry, Intent, IntentInput } from '@sinew/executor-contracts';
import { IntentSchema } from '@sinew/executor-contracts';
import { planFailure, type PlanResult, type PlannerWorld } from '../contract.js';
import { createHtnPlanner, type HtnPlanner } from '../htn/htn.js';
import type { OutcomeMemory } from '../memory/outcomes.js';
import { minecraftMethods, minecraftTasks } from './methods.js';
import { minecraftOperators } from './operators.js';
import { recipeBook, type RecipeBook } from './recipes.js';
import { minecraftRepair, requireRegistry } from './repair.js';
import { missingSource, sourceContext, type WorldSources } from './sources.js';

export { hutBlueprint, minecraftMethods, minecraftTasks } from './methods.js';
export { minecraftGoapDomain } from '../goap/minecraft.js';
export { minecraftOperators } from './operators.js';
export { focusAround } from './state.js';
export { recipeBook, woodFamily, type GatherSource, type RecipeBook, type RecipeOption } from './recipes.js';
export { FUEL_TICKS, SMELTING } from './smelting.js';
export { ITEM_VERBS, itemSources, missingSource, OVERWORLD, PLACED_WORLD, type ItemSource, type SourceGap, type WorldSources } from './sources.js';
export { minecraftRepair, subgoalsFor, type MinecraftRepairOptions, type RepairGap, type SubgoalResult } from './repair.js';

/** Options of `createMinecraftHtn`. */
export interface MinecraftHtnOptions {
  /** Method-effectiveness memory (e.g. `loadOutcomeMemory('.sinew/htn-memory.json')`). */
  readonly memory?: OutcomeMemory;
  /** Minecraft version of the recipes (default 1.20.4, the embedded server's). */
  readonly version?: string;
  readonly book?: RecipeBook;
  /** Which intent.context keys form the memory context (default: all scalar entries). */
  readonly contextKeys?: readonly string[];
  /** What the world holds to take items from (default `PLACED_WORLD`; `OVERWORLD` for generated terrain). */
  readonly world?: WorldSources;
  /** The body's verbs (e.g. `registry.verbs()`); explore, mine, hunt and shear are planned only when listed (default `ITEM_VERBS`). */
  readonly verbs?: readonly string[];
  /** The body's capabilities: precondition repair plans from their declared preconditions and effects (`createStandardRegistry()` plus your own). */
  readonly registry: CapabilityRegistry<unknown>;
}

/**
 * The HTN planner with the Minecraft method library and operators; its precondition repair plans from the registry's
 * declarations (`minecraftRepair`). A goal
 * whose item no source of the world gives fails `no_source` naming the item, before any decomposition.
 */
export function createMinecraftHtn(options: MinecraftHtnOptions): HtnPlanner<PlannerWorld> {
  const book = options.book ?? recipeBook(options.version);
  const context = sourceContext(options);
  const htn = createHtnPlanner<PlannerWorld>({
    name: 'htn',
    methods: minecraftMethods(book, context),
    operators: minecraftOperators(book, context),
    tasksFor: minecraftTasks,
    repairer: minecraftRepair({ book, registry: requireRegistry('createMinecraftHtn', options), ...(options.world ? { world: options.world } : {}), ...(options.verbs ? { verbs: options.verbs } : {}) }),
    ...(options.memory ? { memory: options.memory } : {}),
    ...(options.contextKeys ? { contextKeys: options.contextKeys } : {}),
  });
  const plan = (intent: Intent, world: PlannerWorld): PlanResult => {
    for (const root of minecraftTasks(intent) ?? []) {
      const wanted = root.task === 'obtain' ? String(root.args?.item) : undefined;
      const gap = wanted === undefined ? undefined : missingSource(book, wanted, context, (world as Partial<PlannerWorld> | undefined)?.inventory ?? {});
      if (gap) return planFailure('htn', 'no_source', `no source of ${gap.item} in this world (${gap.chain.join(' ← ')})`);
    }
    return htn.plan(intent, world);
  };
  return { ...htn, plan };
}

/** The need-wood demo intent: fell a tree and make a wooden pickaxe (sticks are left to repair). */
export function needWoodIntent(overrides: Partial<IntentInput> = {}) {
  return IntentSchema.parse({
    id: 'need-wood',
    source: 'system',
    goal: 'need wood',
    urgency: 0.6,
    traits: ['multi_step', 'crafting'],
    context: { tool: 'wooden_pickaxe' },
    ...overrides,
  });
}

/**
 * The need-wood demo plan: gather logs → planks → crafting table → craft the wooden pickaxe, whose
 * guard fails with `precond_missing: has_item:stick:2` so the repair hook crafts the sticks live.
 */
export function planNeedWood(world: PlannerWorld, options: MinecraftHtnOptions): PlanResult {
  return createMinecraftHtn(options).plan(needWoodIntent(), world);
}
