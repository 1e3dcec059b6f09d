import { accepted, blockKey, effectsUnmet, fail, formatPredicate, guardFailed, guardOk, precondMissing, pred } from '@sinew/executor-contracts';
import { NEAR_BLOCK_DISTANCE } from '@sinew/executor-contracts/minecraft';
import type { Furnace } from 'mineflayer';
import { z } from 'zod';
import type { SinewBot } from '../bot.js';
import { defineBotCapability, type BotRunContext } from '../body.js';
import { ABORTED, thrown, type Failure } from '../body/failures.js';
import { lastSeenInFurnace, rememberFurnace, type FurnaceContents } from '../body/furnace-memory.js';
import { eyeDistance, nearestBlock, REACH } from '../body/geometry.js';
import { countItem } from '../body/inventory.js';
import { freeSpotNextTo, placeAt } from '../body/placing.js';
import { settleWithin, waitFor } from '../body/waiting.js';
import { GoalWithinReach, walkTo } from '../body/walking.js';
import type { Block } from '../mc-types.js';
import { observeWorld } from '../world.js';

/**
 * The usual input of a smelted item, used when `input` is left out: raw meat for cooked meat (food), raw metal
 * for an ingot (ore), and the common building smelts.
 */
export const SMELT_INPUTS: Readonly<Record<string, string>> = {
  cooked_beef: 'beef', cooked_porkchop: 'porkchop', cooked_mutton: 'mutton', cooked_chicken: 'chicken', cooked_rabbit: 'rabbit',
  cooked_cod: 'cod', cooked_salmon: 'salmon', baked_potato: 'potato', dried_kelp: 'kelp',
  iron_ingot: 'raw_iron', gold_ingot: 'raw_gold', copper_ingot: 'raw_copper',
  glass: 'sand', stone: 'cobblestone', smooth_stone: 'stone', deepslate: 'cobbled_deepslate', brick: 'clay_ball', terracotta: 'clay', charcoal: 'oak_log',
};

/** Arguments of `smelt_item`. */
export const SmeltItemArgsSchema = z
  .strictObject({
    /** The item wanted out of the furnace (`iron_ingot`, `cooked_beef`). */
    item: z.string().min(1),
    /** The item put in to smelt (`raw_iron`, `beef`); default: the usual input of `item` (`SMELT_INPUTS`). */
    input: z.string().min(1).optional(),
    /** How many more of `item` the inventory should hold afterwards. */
    count: z.number().int().positive().max(64).default(1),
  })
  .transform((args, ctx) => {
    const input = args.input ?? SMELT_INPUTS[args.item];
    if (input !== undefined) return { ...args, input };
    ctx.addIssue({ code: 'custom', path: ['input'], message: `required: no usual input is known for ${args.item}` });
    return z.NEVER;
  });
/** Parsed arguments of `smelt_item` (`input` filled in). */
export type SmeltItemArgs = z.output<typeof SmeltItemArgsSchema>;

/** Fuels the capability burns, best first, with the items one of them smelts (never cobblestone or tools). */
const FUELS: readonly { readonly matches: (name: string) => boolean; readonly smelts: number }[] = [
  { matches: (name) => name === 'coal' || name === 'charcoal', smelts: 8 },
  { matches: (name) => name.endsWith('_planks'), smelts: 1.5 },
];
const OPEN_TIMEOUT_MS = 5_000;
const POLL_MS = 200;
const PROPERTIES_WAIT_MS = 1_000;
/** Vanilla cooks one item in 200 ticks. */
const SECONDS_PER_ITEM = 10;

/** How many of `args.item` the furnace already holds or is cooking from `args.input`, as last seen. */
function alreadyInFurnace(bot: SinewBot, furnace: Block | undefined, args: SmeltItemArgs): number {
  const seen = furnace ? lastSeenInFurnace(bot, furnace.position) : undefined;
  const input = seen?.input?.name === args.input ? seen.input.count : 0;
  const output = seen?.output?.name === args.item ? seen.output.count : 0;
  return input + output;
}

/** The fuel to burn for `items` smelts: the first kind held in enough quantity, with how many to put in. */
function chooseFuel(bot: SinewBot, items: number): { name: string; count: number } | undefined {
  for (const fuel of FUELS) {
    const held = bot.inventory.items().filter((stack) => fuel.matches(stack.name));
    const need = Math.ceil(items / fuel.smelts);
    for (const stack of held) if (countItem(bot, stack.name) >= need) return { name: stack.name, count: need };
  }
  return undefined;
}

/** What the guard and the runner find missing, as predicates; empty when the step can run. */
function missingFor(bot: SinewBot, args: SmeltItemArgs): string[] {
  const furnace = nearestBlock(bot, 'furnace', NEAR_BLOCK_DISTANCE);
  const missing: string[] = [];
  if (!furnace && countItem(bot, 'furnace') < 1) missing.push(formatPredicate(pred.nearBlock('furnace')));
  const toPut = Math.max(0, args.count - alreadyInFurnace(bot, furnace, args));
  if (countItem(bot, args.input) < toPut) missing.push(formatPredicate(pred.hasItem(args.input, toPut)));
  if (toPut > 0 && !chooseFuel(bot, toPut)) missing.push(formatPredicate(pred.hasItem('coal', Math.ceil(toPut / 8))));
  return missing;
}

/** The furnace to use: the nearest one, else one placed from the inventory next to the bot. */
async function findOrPlaceFurnace(ctx: BotRunContext): Promise<Block | Failure> {
  const bot = ctx.body;
  const near = nearestBlock(bot, 'furnace', NEAR_BLOCK_DISTANCE);
  if (near) return near;
  const spot = freeSpotNextTo(bot);
  if (!spot) return fail.guardFailed('no free spot next to the bot to place a furnace');
  const failure = await placeAt(ctx, 'furnace', spot);
  if (failure) return failure;
  ctx.progress(`placed a furnace at ${blockKey(spot)}`);
  return bot.blockAt(spot) ?? fail.runnerError(`the furnace placed at ${blockKey(spot)} is not loaded`);
}

/** Opens a furnace within reach (walking up to it), bounded: a window that never opens is a failure, not a hang. */
async function openFurnace(ctx: BotRunContext, block: Block): Promise<Furnace | Failure> {
  const bot = ctx.body;
  if (eyeDistance(bot, block.position) > REACH) {
    const failure = await walkTo(ctx, new GoalWithinReach(block.position), { budgetMs: 15_000 });
    if (failure) return failure;
  }
  try {
    const opened = await settleWithin(ctx, bot.openFurnace(block), OPEN_TIMEOUT_MS);
    if (ctx.signal.aborted) return ABORTED;
    return opened ?? fail.runnerError(`the furnace at ${blockKey(block.position)} opened no window within ${OPEN_TIMEOUT_MS} ms`);
  } catch (error) {
    return ctx.signal.aborted ? ABORTED : thrown('runner_error', 'open furnace', error);
  }
}

/** Seconds the current flame still burns (mineflayer tracks it; its types omit it). */
function fuelSecondsOf(furnace: Furnace): number {
  const seconds = (furnace as Furnace & { fuelSeconds?: number | null }).fuelSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) ? seconds : 0;
}

function contentsOf(furnace: Furnace): FurnaceContents {
  const input = furnace.inputItem();
  const output = furnace.outputItem();
  return { ...(input ? { input: { name: input.name, count: input.count } } : {}), ...(output ? { output: { name: output.name, count: output.count } } : {}) };
}

/** Puts the missing input in and enough fuel for everything the input slot then holds. */
async function load(ctx: BotRunContext, furnace: Furnace, args: SmeltItemArgs): Promise<Failure | undefined> {
  const bot = ctx.body;
  const input = furnace.inputItem();
  if (input && input.name !== args.input) {
    return fail.guardFailed(`the furnace is busy smelting ${input.count} ${input.name}`);
  }
  const output = furnace.outputItem();
  // Someone else's result blocks ours: take it out first (it lands in the inventory, never lost).
  if (output && output.name !== args.item) await furnace.takeOutput();
  const held = contentsOf(furnace);
  const inside = (held.input?.count ?? 0) + (held.output?.name === args.item ? held.output.count : 0);
  const toPut = Math.max(0, args.count - inside);
  const registry = bot.registry.itemsByName;
  // The guard trusted what the furnace held when last seen; the window is the truth.
  if (countItem(bot, args.input) < toPut) {
    const missing = [formatPredicate(pred.hasItem(args.input, toPut))];
    return fail.precondMissing(`the furnace holds ${inside}, ${toPut} more ${args.input} needed`, { missing });
  }
  if (toPut > 0) await furnace.putInput(registry[args.input]!.id, null, toPut);
  const toCook = furnace.inputItem()?.count ?? 0;
  const fuelSlot = furnace.fuelItem();
  // The flame already burning (a retry, a furnace in use) covers its seconds left at 10 s per item.
  const burning = fuelSecondsOf(furnace) / SECONDS_PER_ITEM;
  const fuelled = burning + (fuelSlot ? (FUELS.find((f) => f.matches(fuelSlot.name))?.smelts ?? 1) * fuelSlot.count : 0);
  if (toCook > fuelled) {
    const fuel = chooseFuel(bot, toCook - fuelled);
    if (!fuel) return fail.precondMissing('no coal or planks to burn', { missing: [formatPredicate(pred.hasItem('coal', Math.ceil(toCook / 8)))] });
    if (fuelSlot && fuelSlot.name !== fuel.name) await furnace.takeFuel();
    await furnace.putFuel(registry[fuel.name]!.id, null, fuel.count);
  }
  ctx.progress(`furnace loaded: ${toCook} ${args.input} to cook`);
  return undefined;
}

/** Waits while the furnace cooks, reporting each change as progress, until `count` of the item are ready. */
async function cook(ctx: BotRunContext, furnace: Furnace, args: SmeltItemArgs, furnaceBlock: Block): Promise<Failure | undefined> {
  let last = '';
  for (;;) {
    if (ctx.signal.aborted) return ABORTED;
    const contents = contentsOf(furnace);
    rememberFurnace(ctx.body, furnaceBlock.position, contents);
    const ready = contents.output?.name === args.item ? contents.output.count : 0;
    if (ready >= args.count || (!contents.input && ready > 0)) return undefined;
    if (!contents.input && ready === 0) return fail.runnerError(`the furnace holds no ${args.input} and no ${args.item}`);
    // Only a change is progress: a furnace gone cold stays silent and the stuck watchdog ends the step.
    const state = `${ready}/${args.count} ${args.item}, cooking ${Math.round(furnace.progress * 100)}%`;
    if (state !== last) ctx.progress(state);
    last = state;
    await ctx.sleep(POLL_MS);
  }
}

async function smelt(ctx: BotRunContext, args: SmeltItemArgs): Promise<Failure | { ok: true; observables: Record<string, unknown> }> {
  const missing = missingFor(ctx.body, args);
  if (missing.length) return fail.precondMissing(`missing ${missing.join(', ')}`, { missing });
  const block = await findOrPlaceFurnace(ctx);
  if ('ok' in block) return block;
  const furnace = await openFurnace(ctx, block);
  if ('ok' in furnace) return furnace;
  try {
    // The window's properties follow the window (fuel left needs the total first, a tick later); a lit furnace has some.
    const lit = block.getProperties().lit === true || block.getProperties().lit === 'true';
    await waitFor(ctx, () => fuelSecondsOf(furnace) > 0 || (!lit && furnace.fuel !== null), PROPERTIES_WAIT_MS);
    rememberFurnace(ctx.body, block.position, contentsOf(furnace));
    const failure = (await load(ctx, furnace, args)) ?? (await cook(ctx, furnace, args, block));
    if (failure) return failure;
    const taken = furnace.outputItem()?.count ?? 0;
    await furnace.takeOutput();
    rememberFurnace(ctx.body, block.position, contentsOf(furnace));
    return { ok: true, observables: { smelted: taken, furnace: blockKey(block.position) } };
  } catch (error) {
    return ctx.signal.aborted ? ABORTED : thrown('runner_error', `smelt ${args.input}`, error);
  } finally {
    furnace.close();
  }
}

/** Smelts items in a furnace nearby (placing one from the inventory if none is near), fuelled with coal else planks. */
export const smeltItem = defineBotCapability({
  name: 'smelt_item',
  version: '1.0.0',
  description: 'Smelt `input` (default: the usual one, raw meat for cooked food, raw metal for ingots) into `count` more `item` in a furnace within 4 blocks (placing one from the inventory if none), fuelled with coal, else planks.',
  inputSchema: SmeltItemArgsSchema,
  // 10 s of furnace time per item (200 ticks); the attempt timeout (×3 by default) covers about 16 items.
  expectedDurationMs: 60_000,
  preconds: (args) => [
    pred.nearBlock('furnace'),
    pred.hasItem(args.input, args.count),
    pred.hasItem('coal', typeof args.count === 'number' ? Math.ceil(args.count / 8) : pred.placeholder('fuel')),
  ],
  effects: (args) => [pred.gained(args.item, args.count)],
  guard: ({ body }, args) => {
    for (const name of [args.item, args.input]) if (!body.registry.itemsByName[name]) return guardFailed(`unknown item ${name}`);
    const missing = missingFor(body, args);
    return missing.length ? precondMissing(missing, `cannot smelt ${args.count} ${args.item}: missing ${missing.join(', ')}`) : guardOk;
  },
  observe: ({ body }) => observeWorld(body),
  run: smelt,
  acceptance: (pre, post, args) => {
    const before = pre.inventory[args.item] ?? 0;
    const after = post.inventory[args.item] ?? 0;
    return after - before >= args.count
      ? accepted
      : effectsUnmet([pred.gained(args.item, args.count)], `${args.item} went ${before} → ${after}, wanted +${args.count}`);
  },
});
