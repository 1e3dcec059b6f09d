import type { Intent } from '@sinew/executor-contracts';
import type { HtnMethod, HtnTask } from '../htn/htn.js';
import type { PlannerWorld } from '../contract.js';
import { preferredWood, rankRecipes, type RecipeBook } from './recipes.js';
import { fuelHeld } from './operators.js';
import { SMELT_FUEL } from './smelting.js';
import { exploreFirst, item, missing, sourceFor, toolFirst, want, wildMethods } from './obtain.js';
import { minedDeep, sourceContext, type SourceContext } from './sources.js';
import { hutSite } from './shelter.js';
import { blockNear, count, ingredientOrder } from './state.js';


/** The materials a hut may be built from, best first. */
const HUT_MATERIALS = ['cobblestone', 'dirt'];

/** A 3×3 hut around the origin: two rings of walls and a roof (25 blocks). */
export function hutBlueprint(block: string): { dx: number; dy: number; dz: number; block: string }[] {
  const cells: { dx: number; dy: number; dz: number; block: string }[] = [];
  for (let dy = 0; dy <= 2; dy += 1) {
    for (let dx = -1; dx <= 1; dx += 1) {
      for (let dz = -1; dz <= 1; dz += 1) {
        if (dy < 2 && dx === 0 && dz === 0) continue;
        cells.push({ dx, dy, dz, block });
      }
    }
  }
  return cells;
}

/**
 * The Minecraft method library: wood, planks, sticks, crafting table, furnace, smelting, fuel,
 * wooden, stone and iron tools, shelter. Each method is data (name, task, description, subtasks)
 * or a small `expand` over the simulated world and the recipe book.
 */
/** `craft_tools` for one tier: obtain one of each tool, in order. */
function toolsMethod(tier: string, description: string, tools: readonly string[]): HtnMethod<PlannerWorld> {
  return {
    name: `tools.${tier}`,
    task: 'craft_tools',
    description,
    applicable: (_state, args) => args.tier === tier,
    subtasks: tools.map((tool) => ({ task: 'obtain', args: { item: `${tier}_${tool}`, count: 1 } })),
  };
}

/** The three ways to have a workstation block at hand: one nearby, place a held one, or craft one and place it. */
function ensureBlock(prefix: string, task: string, block: string, craftDescription: string): HtnMethod<PlannerWorld>[] {
  const name = block.replace('_', ' ');
  return [
    { name: `${prefix}.nearby`, task, description: `a ${name} is already within reach`, applicable: (state) => blockNear(state, block), subtasks: [] },
    {
      name: `${prefix}.place_held`,
      task,
      description: `place the ${name} from the inventory`,
      applicable: (state) => count(state, block) > 0,
      subtasks: [{ task: 'place_block', args: { item: block } }],
    },
    {
      name: `${prefix}.craft_and_place`,
      task,
      description: craftDescription,
      subtasks: [
        { task: 'obtain', args: { item: block, count: 1 } },
        { task: 'place_block', args: { item: block } },
      ],
    },
  ];
}

type ObtainTask = { task: 'obtain'; args: { item: string; count: number } };

/**
 * A craft with an ingredient mined deep (diamonds for a diamond pickaxe): the other ingredients first, the deep ones
 * last, mined without the climb back and with a table carried down (`atDepth`, see obtain.deep), then the table
 * placed down there and the craft made at depth. The climb from y −50 cost ~3 minutes and ran seeds 2 and 3 out of time.
 */
function craftAtDepth(obtains: readonly ObtainTask[], deep: readonly ObtainTask[], result: string, count: number): HtnTask[] {
  const shallow = obtains.filter((task) => !deep.includes(task));
  const below = deep.map((task) => ({ task: task.task, args: { ...task.args, atDepth: true } }));
  return [...shallow, ...below, { task: 'ensure_table' }, { task: 'craft_item', args: { item: result, count } }];
}

/**
 * The HTN methods for Minecraft items, from a recipe book and the world's sources (gather, mine, hunt, shear,
 * craft, smelt). Which source gives an item is derived (`itemSources`); what stays written here is the order a
 * player tries them in and the stations (table, furnace, fuel) a search would rediscover on every plan.
 */
export function minecraftMethods(book: RecipeBook, context: SourceContext = sourceContext()): HtnMethod<PlannerWorld>[] {
  const craftVia = (rank: number): HtnMethod<PlannerWorld>['expand'] => (state, args) => {
    const deficit = missing(state, args);
    if (deficit < 1) return undefined;
    const option = rankRecipes(book, item(args), state.inventory, preferredWood(state), (name) => context.sourced(book, name))[rank];
    if (!option) return undefined;
    const crafts = Math.ceil(deficit / option.resultCount);
    const obtains = ingredientOrder(book, option).map((ingredient): ObtainTask => ({ task: 'obtain', args: { item: ingredient, count: option.ingredients[ingredient]! * crafts } }));
    const deep = option.needsTable ? obtains.filter((task) => count(state, task.args.item) < task.args.count && minedDeep(book, task.args.item, context)) : [];
    if (deep.length) return craftAtDepth(obtains, deep, item(args), deficit);
    // The table again before the craft: nothing to do when it still stands near, another when an ingredient's search
    // took the body away from it (sugar cane for paper).
    const table = option.needsTable ? [{ task: 'ensure_table' }] : [];
    return [...table, ...obtains, ...table, { task: 'craft_item', args: { item: item(args), count: deficit } }];
  };
  return [
    {
      name: 'obtain.held',
      task: 'obtain',
      description: 'already holding enough: nothing to do',
      applicable: (state, args) => count(state, item(args)) >= want(args),
      subtasks: [],
    },
    {
      name: 'obtain.gather',
      task: 'obtain',
      description: 'gather a raw item from its block (logs, dirt, sand)',
      expand(state, args) {
        const source = sourceFor(book, context, 'gather', state, args);
        if (!source || source.tools.length) return undefined;
        return [...exploreFirst(state, context, { block: source.block }), { task: 'gather', args: { block: source.block, count: missing(state, args) } }];
      },
    },
    {
      name: 'obtain.mine',
      task: 'obtain',
      description: 'mine a raw item that needs a tool (cobblestone ← stone with a pickaxe): get and equip the tool first',
      expand(state, args) {
        const source = sourceFor(book, context, 'gather', state, args);
        if (!source?.tools.length) return undefined;
        return [...toolFirst(state, source.tools), ...exploreFirst(state, context, { block: source.block }), { task: 'gather', args: { block: source.block, count: missing(state, args) } }];
      },
    },
    {
      name: 'obtain.smelt',
      task: 'obtain',
      description: 'smelt it in a furnace (iron_ingot ← raw_iron): the input, fuel, a furnace, then smelt_item',
      expand(state, args) {
        const input = sourceFor(book, context, 'smelt_item', state, args)?.input;
        const deficit = missing(state, args);
        if (!input) return undefined;
        return [
          { task: 'obtain', args: { item: input, count: deficit } },
          { task: 'fuel', args: { items: deficit, coal: Math.ceil(deficit / 8) } },
          // Last before smelting: the furnace stands where the bot smelts, not where it started.
          { task: 'ensure_furnace' },
          { task: 'smelt_item', args: { item: item(args), input, count: deficit } },
        ];
      },
    },
    {
      name: 'fuel.held',
      task: 'fuel',
      description: 'enough coal or charcoal for the smelts is already held',
      applicable: (state, args) => ['coal', 'charcoal'].some((fuel) => count(state, fuel) >= Number(args.coal)),
      subtasks: [],
    },
    {
      name: 'fuel.coal',
      task: 'fuel',
      description: 'mine coal: one burns for 8 smelts',
      subtasks: [{ task: 'obtain', args: { item: SMELT_FUEL, count: '$coal' } }],
    },
    {
      name: 'fuel.planks',
      task: 'fuel',
      description: 'burn held planks (one per 1.5 smelts) when they cover the smelts',
      applicable: (state, args) => fuelHeld(state, want({ count: args.items })) !== undefined,
      subtasks: [],
    },
    ...ensureBlock('furnace', 'ensure_furnace', 'furnace', 'craft a furnace from 8 cobblestone at a crafting table, then place it'),
    ...wildMethods(book, context),
    { name: 'obtain.craft', task: 'obtain', description: 'craft by the best-ranked recipe (held ingredients, local wood)', expand: craftVia(0) },
    { name: 'obtain.craft_alt', task: 'obtain', description: 'craft by the second-ranked recipe', expand: craftVia(1) },
    ...ensureBlock('table', 'ensure_table', 'crafting_table', 'craft a crafting table, then place it'),
    {
      name: 'wood.visible_tree',
      task: 'acquire_wood',
      description: 'fell the tree in view: gather logs of its kind',
      expand(state, args) {
        const log = Object.values(state.blocks).find((b) => /_log$/.test(b) && !b.startsWith('stripped_'));
        return log ? [{ task: 'gather', args: { block: `${preferredWood(state)}_log`, count: want(args) } }] : undefined;
      },
    },
    {
      name: 'wood.any_log',
      task: 'acquire_wood',
      description: 'no tree in view: gather any log (the gather BT explores)',
      subtasks: [{ task: 'gather', args: { block: 'log', count: '$count' } }],
    },
    {
      name: 'need_wood.fell_then_craft',
      task: 'need_wood',
      description: 'fell a tree, make planks and a table, then craft the tool; sticks are left to precondition repair (FM-02)',
      expand(state, args) {
        const tool = String(args.tool);
        const planks = `${preferredWood(state)}_planks`;
        return [
          { task: 'acquire_wood', args: { count: 3 } },
          { task: 'craft_item', args: { item: planks, count: 12 } },
          { task: 'ensure_table' },
          { task: 'craft_item', args: { item: tool, count: 1 }, deferPreconds: true },
        ];
      },
    },
    toolsMethod('wooden', 'wooden pickaxe and axe', ['pickaxe', 'axe']),
    toolsMethod('stone', 'stone pickaxe, axe and sword (mines cobblestone with a wooden pickaxe first)', ['pickaxe', 'axe', 'sword']),
    toolsMethod('iron', 'iron pickaxe (stone pickaxe for the ore, a furnace and coal to smelt it first)', ['pickaxe']),
    {
      name: 'shelter.hut',
      task: 'shelter',
      description: 'build a 3×3 hut from the best held material (else planks) on the nearest free spot, from inside it (the bot ends under its roof)',
      expand(state) {
        const material = HUT_MATERIALS.find((m) => count(state, m) >= 25) ?? `${preferredWood(state)}_planks`;
        const origin = hutSite(state, material);
        if (!origin) return undefined;
        return [
          { task: 'obtain', args: { item: material, count: 25 } },
          { task: 'navigate', args: { position: { x: origin.x + 0.5, y: origin.y, z: origin.z + 0.5 }, range: 0.5 } },
          { task: 'build_structure', args: { origin, blueprint: hutBlueprint(material) } },
        ];
      },
    },
    {
      name: 'shelter.pillar',
      task: 'shelter',
      description: 'pillar up three blocks out of reach of mobs',
      expand(state) {
        const material = [...HUT_MATERIALS, `${preferredWood(state)}_planks`].find((m) => count(state, m) >= 3) ?? `${preferredWood(state)}_planks`;
        return [
          { task: 'obtain', args: { item: material, count: 3 } },
          { task: 'pillar_up', args: { height: 3, item: material } },
        ];
      },
    },
  ];
}

/**
 * Maps an intent's goal to root tasks: `craft <item>` / `obtain <item>`, `acquire wood`
 * (`AcquireWood`), `need wood`, `wooden_tools` / `stone_tools` / `iron_tools`, `shelter`. Counts come from
 * `intent.context.count` (defaults: 1 item, 4 logs).
 */
export function minecraftTasks(intent: Intent): HtnTask[] | undefined {
  const words = intent.goal
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .trim()
    .split(/\s+/);
  const [verb, target] = words;
  const count = typeof intent.context.count === 'number' ? intent.context.count : undefined;
  const joined = words.join('_');
  if ((verb === 'craft' || verb === 'obtain' || verb === 'get') && target) return [{ task: 'obtain', args: { item: target, count: count ?? 1 } }];
  if (['acquire_wood', 'gather_wood', 'get_wood'].includes(joined)) return [{ task: 'acquire_wood', args: { count: count ?? 4 } }];
  if (joined === 'need_wood') {
    const tool = typeof intent.context.tool === 'string' ? intent.context.tool : 'wooden_pickaxe';
    return [{ task: 'need_wood', args: { tool } }];
  }
  if (['wooden_tools', 'stone_tools', 'iron_tools'].includes(joined)) return [{ task: 'craft_tools', args: { tier: joined.split('_')[0] } }];
  if (['shelter', 'build_shelter'].includes(joined)) return [{ task: 'shelter' }];
  return undefined;
}
