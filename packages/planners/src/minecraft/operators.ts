import { blockKey, formatPredicate, pred } from '@sinew/executor-contracts';
import type { HtnOperator } from '../htn/htn.js';
import type { PlannerWorld } from '../contract.js';
import { preferredWood, rankRecipes, type RecipeBook } from './recipes.js';
import { fuelFor } from './smelting.js';
import { sourceContext, type SourceContext } from './sources.js';
import { add, applyCraft, blockNear, count, placeSpot } from './state.js';

type Args = Readonly<Record<string, unknown>>;
const str = (args: Args, key: string): string | undefined => (typeof args[key] === 'string' ? (args[key] as string) : undefined);
const num = (args: Args, key: string, fallback: number): number => (typeof args[key] === 'number' ? (args[key] as number) : fallback);
/** A name arg is a non-empty string; a count arg, when given, a whole number ≥ 1 (the verbs' schemas). */
/** Whether a block needing one of `tools` (none: a hand) can be dug with what is held. */
const hasTool = (state: PlannerWorld, tools: readonly string[]): boolean => tools.length === 0 || tools.some((tool) => count(state, tool) > 0);
const named = (args: Args, key: string): boolean => typeof args[key] === 'string' && (args[key] as string).length > 0;
const positive = (args: Args, key: string, required = false): boolean =>
  args[key] === undefined ? !required : Number.isInteger(args[key]) && (args[key] as number) >= 1;

/**
 * How each standard verb changes the simulated world while the HTN plans ahead (items gathered,
 * crafted, placed), plus explore, mine, hunt and shear when the body has them (`context.verbs`).
 * The item effects stay written here: the capabilities declare `gained(<block>)` for a dig, the drop is the recipe book's.
 */
export function minecraftOperators(book: RecipeBook, context: SourceContext = sourceContext()): HtnOperator<PlannerWorld>[] {
  return [
    ...wildOperators(book).filter((operator) => context.verbs.has(operator.verb)),
    {
      verb: 'gather',
      valid: (args) => named(args, 'block') && positive(args, 'count'),
      apply(state, args) {
        const block = str(args, 'block');
        if (!block) return false;
        // Without one of the block's harvest tools it breaks and drops nothing (iron ore with a wooden pickaxe).
        if (!hasTool(state, book.harvestTools(block))) return false;
        // The `log` group drops whichever log is nearest; plan with the preferred family.
        const drop = block === 'log' ? `${preferredWood(state)}_log` : book.dropOf(block);
        add(state, drop, num(args, 'count', 1));
        return true;
      },
      // Same block (and reach) twice is one trip for the sum.
      merge: (earlier, later) =>
        earlier.block === later.block && earlier.maxDistance === later.maxDistance
          ? { ...earlier, count: num(earlier, 'count', 1) + num(later, 'count', 1) }
          : undefined,
      // A gain of the dropped item; a block pattern (`log`) names no one item, so it declares no effect.
      effects: (args) => {
        const drop = book.dropOf(String(args.block));
        return book.isItem(drop) ? [formatPredicate(pred.gained(drop, num(args, 'count', 1)))] : [];
      },
    },
    {
      verb: 'craft_item',
      valid: (args) => named(args, 'item') && positive(args, 'count'),
      apply(state, args) {
        const item = str(args, 'item');
        if (!item) return false;
        const option = rankRecipes(book, item, state.inventory, preferredWood(state)).find((o) => !o.needsTable || blockNear(state, 'crafting_table'));
        return option ? applyCraft(state, option, Math.ceil(num(args, 'count', 1) / option.resultCount)) : false;
      },
      assume: (state, args) => add(state, String(args.item), num(args, 'count', 1)),
      effects: (args) => [formatPredicate(pred.gained(String(args.item), num(args, 'count', 1)))],
    },
    {
      verb: 'smelt_item',
      valid: (args) => named(args, 'item') && named(args, 'input') && positive(args, 'count'),
      apply: (state, args) => applySmelt(book, state, args),
      effects: (args) => [formatPredicate(pred.gained(String(args.item), num(args, 'count', 1)))],
    },
    {
      verb: 'place_block',
      valid: (args) => named(args, 'item'),
      apply(state, args) {
        const item = str(args, 'item');
        if (!item || count(state, item) < 1) return false;
        add(state, item, -1);
        const position = args.position as { x: number; y: number; z: number } | undefined;
        state.blocks[position ? blockKey(position) : placeSpot(state)] = item;
        return true;
      },
      effects: (args) => (args.item === 'crafting_table' || args.item === 'furnace' ? [formatPredicate(pred.nearBlock(String(args.item)))] : []),
    },
    {
      verb: 'equip',
      valid: (args) => named(args, 'item'),
      apply(state, args) {
        const item = str(args, 'item');
        if (!item || count(state, item) < 1) return false;
        state.heldItem = item;
        return true;
      },
    },
    {
      verb: 'build_structure',
      apply(state, args) {
        const blueprint = (args.blueprint ?? []) as readonly { block: string; dx: number; dy: number; dz: number }[];
        const origin = (args.origin as { x: number; y: number; z: number } | undefined) ?? state.position;
        const need = new Map<string, number>();
        for (const cell of blueprint) need.set(cell.block, (need.get(cell.block) ?? 0) + 1);
        for (const [block, n] of need) if (count(state, block) < n) return false;
        for (const cell of blueprint) {
          add(state, cell.block, -1);
          state.blocks[blockKey({ x: Math.floor(origin.x) + cell.dx, y: Math.floor(origin.y) + cell.dy, z: Math.floor(origin.z) + cell.dz })] = cell.block;
        }
        return true;
      },
    },
    {
      verb: 'pillar_up',
      valid: (args) => positive(args, 'height', true),
      apply(state, args) {
        const height = num(args, 'height', 1);
        const item = str(args, 'item');
        if (item && count(state, item) < height) return false;
        if (item) add(state, item, -height);
        state.position = { ...state.position, y: state.position.y + height };
        return true;
      },
    },
    {
      verb: 'navigate',
      apply(state, args) {
        const position = args.position as { x: number; y: number; z: number } | undefined;
        if (position) state.position = { ...position };
      },
    },
    {
      verb: 'consume_food',
      apply(state, args) {
        const item = str(args, 'item');
        if (item && count(state, item) < 1) return false;
        if (item) add(state, item, -1);
        state.food = 20;
        return true;
      },
    },
    { verb: 'flee', apply: (state) => void (state.threats = []) },
    { verb: 'dig_block' },
    { verb: 'collect_drops' },
    { verb: 'attack_entity' },
    { verb: 'chat' },
  ];
}

/** How far below its start a mine that does not climb back leaves the body, as the simulated world counts it. */
const MINED_BELOW = 64;

/** How far from where it set out the simulated world puts what an explore finds. */
const EXPLORED = 32;

/** The verbs of generated worlds (explore, mine, hunt, shear, fill_bucket) on the simulated world. */
function wildOperators(book: RecipeBook): HtnOperator<PlannerWorld>[] {
  /** A mine counting what is held in all (`counting: 'held'`), not what it gains. */
  const held = (args: Args): boolean => args.counting === 'held';
  const ore = (args: Args): string | undefined => {
    const target = args.target as { ore?: unknown } | undefined;
    return typeof target?.ore === 'string' ? target.ore : undefined;
  };
  const depth = (args: Args): number | undefined => {
    const target = args.target as { depth?: unknown } | undefined;
    return typeof target?.depth === 'number' ? target.depth : undefined;
  };
  return [
    {
      verb: 'explore',
      // A block found is in view from then on and the body stands beside it, as far from where it set out as a search
      // goes: the plan explores for it once, and the stations it placed before are out of reach (book, seed 30: the
      // table stood ~200 blocks back from the sugar cane, and the paper's craft failed twice before repairs placed one).
      apply(state, args) {
        const block = (args.target as { block?: unknown } | undefined)?.block;
        if (typeof block !== 'string') return;
        state.blocks[blockKey({ x: state.position.x + EXPLORED, y: state.position.y, z: state.position.z })] = block;
        state.position = { ...state.position, x: state.position.x + EXPLORED - 1 };
      },
    },
    {
      verb: 'mine',
      valid: (args) => (ore(args) !== undefined || depth(args) !== undefined) && positive(args, 'count'),
      apply(state, args) {
        const block = ore(args);
        // Down to a depth only (a lava pool's level): stairs through deepslate, the body left down there.
        if (block === undefined) {
          if (!hasTool(state, book.harvestTools('deepslate'))) return false;
          if (args.returnToSurface !== true) state.position = { ...state.position, y: Math.min(state.position.y, depth(args)!) };
          return true;
        }
        if (!hasTool(state, book.harvestTools(block))) return false;
        const drop = book.dropOf(block);
        add(state, drop, held(args) ? Math.max(0, num(args, 'count', 1) - count(state, drop)) : num(args, 'count', 1));
        // Left down there: every station the plan placed is out of reach from now on.
        if (args.returnToSurface === false) state.position = { ...state.position, y: state.position.y - MINED_BELOW };
        return true;
      },
      effects: (args) => {
        const block = ore(args);
        if (block === undefined) return args.returnToSurface === true ? [] : [formatPredicate(pred.belowY(depth(args)!))];
        const [drop, n] = [book.dropOf(block), num(args, 'count', 1)];
        return [formatPredicate(held(args) ? pred.hasItem(drop, n) : pred.gained(drop, n))];
      },
    },
    {
      verb: 'hunt',
      valid: (args) => named(args, 'animal') && positive(args, 'count'),
      // One of each drop per animal (minecraft-data loot).
      apply: (state, args) => book.mobLoot(String(args.animal)).forEach((item) => add(state, item, num(args, 'count', 1))),
    },
    {
      verb: 'shear',
      valid: (args) => positive(args, 'count'),
      apply(state, args) {
        if (count(state, 'shears') < 1) return false;
        add(state, 'white_wool', num(args, 'count', 1));
        return true;
      },
      effects: (args) => [formatPredicate(pred.gained('white_wool', num(args, 'count', 1)))],
    },
    {
      verb: 'fill_bucket',
      valid: (args) => (args.fluid === 'water' || args.fluid === 'lava') && positive(args, 'count'),
      apply(state, args) {
        const n = num(args, 'count', 1);
        if (count(state, 'bucket') < n) return false;
        add(state, 'bucket', -n);
        add(state, `${String(args.fluid)}_bucket`, n);
        return true;
      },
      effects: (args) => [formatPredicate(pred.gained(`${String(args.fluid)}_bucket`, num(args, 'count', 1)))],
    },
  ];
}

/**
 * `smelt_item` on the simulated world, as the capability does it: a furnace near (or one held, which it
 * places), the input, and coal else planks for fuel; the input and fuel are used up, the output gained.
 */
export function applySmelt(book: RecipeBook, state: PlannerWorld, args: Args): boolean {
  const item = str(args, 'item');
  const input = str(args, 'input');
  const n = num(args, 'count', 1);
  if (!item || !input || book.smeltSource(item) !== input || count(state, input) < n) return false;
  const fuel = fuelHeld(state, n);
  if (!fuel) return false;
  if (!blockNear(state, 'furnace')) {
    if (count(state, 'furnace') < 1) return false;
    add(state, 'furnace', -1);
    state.blocks[placeSpot(state)] = 'furnace';
  }
  add(state, fuel.name, -fuel.count);
  add(state, input, -n);
  add(state, item, n);
  return true;
}

/** The fuel the smelt_item capability would burn for `items` smelts: coal or charcoal, else planks. */
export function fuelHeld(state: Pick<PlannerWorld, 'inventory'>, items: number): { name: string; count: number } | undefined {
  const names = Object.keys(state.inventory).sort();
  for (const candidates of [['coal', 'charcoal'], names.filter((name) => name.endsWith('_planks'))]) {
    for (const name of candidates) {
      const need = fuelFor(name, items);
      if (need !== undefined && count(state, name) >= need) return { name, count: need };
    }
  }
  return undefined;
}
