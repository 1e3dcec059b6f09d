// The moves of a mine: one stair down or one block along a tunnel (hazards read before any dig), an ore in the
// tunnel walls taken, a torch left behind in the dark.
import { blockKey, fail } from '@sinew/executor-contracts';
import { EYE_HEIGHT } from '@sinew/executor-contracts/minecraft';
import pathfinderPackage from 'mineflayer-pathfinder';
import { Vec3 } from 'vec3';
import type { BotRunContext } from '../body.js';
import type { SinewBot } from '../bot.js';
import { findBlockPositions } from './block-search.js';
import { digWithBestTool } from './digging.js';
import { dropsNear, pickUpDrops } from './drops.js';
import { ABORTED, type Failure } from './failures.js';
import { eyeDistance, isAir, REACH, standsOn, touchesAir } from './geometry.js';
import { countItem } from './inventory.js';
import { isReplaceable, placeAt } from './placing.js';
import { blockHazard, cellsToOpen, DIRECTIONS, STATIONS, stepHazard, type BlockReader, type Hazard } from './staircase.js';
import { waitFor } from './waiting.js';
import { walkTo } from './walking.js';

const { goals, Movements } = pathfinderPackage;
const MOVE_BUDGET_MS = 1_500;
const DROP_APPEAR_MS = 1_500;
/** How high above the head a roof makes it dark enough for a torch (no sky light read: the server may send none). */
const ROOF_SEARCH = 16;

/** The blocks the bot sees, as hazard checks read them. */
export function readerOf(bot: SinewBot): BlockReader {
  return (position) => bot.blockAt(position);
}

function describe(hazard: Hazard): string {
  return `${hazard.kind} (${hazard.block}) at ${blockKey(hazard.at)}`;
}

/** Breaks the cells a move opens, top first (plants and air left alone); a failure when one did not break. */
async function openCells(ctx: BotRunContext, cells: readonly Vec3[], home: Vec3): Promise<Failure | undefined> {
  const bot = ctx.body;
  for (const cell of cells) {
    const block = bot.blockAt(cell);
    if (!block || block.boundingBox === 'empty') continue;
    // Slid into the cell ahead as it opened (the slide outlasts a quick dig): back home before digging its floor.
    if (standsOn(bot, cell) && !(await stepInto(ctx, home))) {
      return fail.stuck(`standing on ${blockKey(cell)}, the next block to dig, and could not step back to ${blockKey(home)}`);
    }
    if (!(await digWithBestTool(ctx, block))) return ABORTED;
    if (bot.blockAt(cell)?.boundingBox !== 'empty') return fail.effectsUnmet(`${block.name} at ${blockKey(cell)} did not break`);
  }
  return undefined;
}

/**
 * Walks into the neighbouring cell `next` (level or one down) by looking at it and holding forward until the feet
 * reach its centre or pass it, read on every physics tick: where no rock beyond stops the body (a stair cut into a
 * hillside), a poll of the clock let a loaded machine's catch-up ticks carry it past the cell, and forward stayed
 * held for the whole budget (goal glass, seed 32: down the hill into a lake). True once the feet stand in it.
 */
async function stepInto(ctx: BotRunContext, next: Vec3): Promise<boolean> {
  const bot = ctx.body;
  const centre = next.offset(0.5, 0, 0.5);
  const offset = () => [bot.entity.position.x - centre.x, bot.entity.position.z - centre.z] as const;
  const [startX, startZ] = offset();
  const inCell = () => Math.hypot(...offset()) < 0.3;
  const passed = () => {
    const [x, z] = offset();
    return x * startX + z * startZ <= 0;
  };
  const arrived = () => inCell() || passed();
  const release = () => {
    if (!arrived()) return;
    bot.off('physicsTick', release);
    bot.setControlState('forward', false);
  };
  await bot.lookAt(new Vec3(centre.x, bot.entity.position.y + EYE_HEIGHT, centre.z), true);
  bot.setControlState('forward', true);
  bot.on('physicsTick', release);
  try {
    await waitFor(ctx, arrived, MOVE_BUDGET_MS);
  } finally {
    bot.off('physicsTick', release);
    bot.setControlState('forward', false);
  }
  return waitFor(ctx, () => bot.entity.onGround && bot.entity.position.floored().equals(next), MOVE_BUDGET_MS / 2);
}

/**
 * Whether the body left its cell for another and came to rest there, dry: it slid on down a hillside (a stair cut
 * into a slope opens onto it, and nothing stops the walk) or a hit knocked it aside (seed 5, at night). The mine
 * goes on from where it stands rather than fail the step.
 */
function movedOn(bot: SinewBot, feet: Vec3): boolean {
  const body = bot.entity as { isInWater?: boolean; isInLava?: boolean };
  return bot.entity.onGround && !bot.entity.position.floored().equals(feet) && body.isInWater !== true && body.isInLava !== true;
}

/**
 * One move down a stair (`down`) or along a level tunnel, in the first of the four directions (starting with
 * `facing`, then right, left, back) whose cells are free of hazards — when no stair down is safe (a cave under every
 * side), a level move first — : the direction taken, or a failure naming the hazard of every side.
 */
export async function mineStep(ctx: BotRunContext, facing: number, down: boolean): Promise<Failure | { facing: number }> {
  const bot = ctx.body;
  const feet = bot.entity.position.floored();
  const hazards: string[] = [];
  let bridge: { index: number; plan: StepPlan } | undefined;
  for (const [downward, turn] of (down ? [true, false] : [false]).flatMap((d) => [0, 1, 3, 2].map((t) => [d, t] as const))) {
    const index = (facing + turn) % DIRECTIONS.length;
    const plan = cellsToOpen(feet, DIRECTIONS[index]!, downward);
    const hazard = stepHazard(readerOf(bot), plan.cells, plan.standOn);
    if (!hazard) return takeStep(ctx, feet, { index, plan });
    hazards.push(describe(hazard));
    if (!bridge && bridgeable(bot, plan, hazard)) bridge = { index, plan };
  }
  // A cave under every stair and beside every level move: floor the first one with a block the mine dug.
  const filler = FILLERS.find((name) => countItem(bot, name) > 0);
  if (bridge && filler) return takeStep(ctx, feet, bridge, filler);
  return fail.stuck(`hazards on every side of ${blockKey(feet)}: ${hazards.join('; ')}`, { retryable: false });
}

type StepPlan = ReturnType<typeof cellsToOpen>;
/** Blocks a mine carries from its own digging, placed as a floor over a cave. */
const FILLERS = ['cobblestone', 'cobbled_deepslate', 'dirt'];

/** Whether the only hazard of a move is the hole it would land on, and a block placed there makes it safe. */
function bridgeable(bot: SinewBot, plan: StepPlan, hazard: Hazard): boolean {
  if (hazard.kind !== 'fall' || !hazard.at.equals(plan.standOn) || !isReplaceable(bot.blockAt(plan.standOn))) return false;
  const floored: BlockReader = (at) => (at.equals(plan.standOn) ? { name: 'stone', boundingBox: 'block' } : bot.blockAt(at));
  return stepHazard(floored, plan.cells, plan.standOn) === undefined;
}

/** Opens the move's cells (a floor of `filler` placed under the landing first when given) and steps into it. */
async function takeStep(ctx: BotRunContext, feet: Vec3, { index, plan }: { index: number; plan: StepPlan }, filler?: string): Promise<Failure | { facing: number }> {
  const bot = ctx.body;
  // A dig the server refused (it thought it too quick) comes back as the block: open again, then step again.
  for (let attempt = 0; ; attempt++) {
    const failure = await openCells(ctx, plan.cells, feet);
    if (failure) return failure;
    if (filler && bot.blockAt(plan.standOn)?.boundingBox !== 'block') {
      const placed = await placeAt(ctx, filler, plan.standOn);
      if (placed) return placed.code === 'aborted' ? placed : fail.stuck(`no floor over the cave at ${blockKey(plan.standOn)}: ${placed.reason}`, { retryable: false });
      ctx.progress(`floored the cave at ${blockKey(plan.standOn)} with ${filler}`);
    }
    if (await stepInto(ctx, plan.next)) return { facing: index };
    if (ctx.signal.aborted) return ABORTED;
    if (movedOn(bot, feet)) return { facing: index };
    if (attempt === 1) {
      const cells = plan.cells.map((c) => bot.blockAt(c)?.name ?? 'unloaded').join(', ');
      return fail.stuck(`could not step from ${blockKey(feet)} into ${blockKey(plan.next)} (at ${blockKey(bot.entity.position)}; cells ${cells})`);
    }
  }
}

/**
 * Takes an ore within reach that the tunnel exposes (air touches it, no fluid next to it, not the floor underfoot):
 * digs it and picks up its drop. True when the inventory gained `drop`; false when there was none to take.
 * `floors: false` leaves every block with air above it: the stairs stay whole (taking stone by the dozen, the
 * bot would otherwise dig the steps it must walk back up).
 */
export async function takeOre(ctx: BotRunContext, oreIds: readonly number[], drop: string, skip: Set<string>, options: { floors?: boolean } = {}): Promise<Failure | boolean> {
  const bot = ctx.body;
  const read = readerOf(bot);
  const candidates = findBlockPositions(bot, { matching: oreIds, maxDistance: 6, count: 8 });
  const floor = (p: Vec3) => options.floors === false && bot.blockAt(p.offset(0, 1, 0))?.boundingBox === 'empty';
  const ore = candidates.find((p) => !skip.has(blockKey(p)) && eyeDistance(bot, p) <= REACH - 0.2 && touchesAir(bot, p) && !standsOn(bot, p) && !floor(p) && !blockHazard(read, p));
  if (!ore) return false;
  skip.add(blockKey(ore));
  const before = countItem(bot, drop);
  // Only this dig's drop is gone after: drops an earlier dig or mine left out of reach (the same stairs, walked down
  // again) were chased through every approach on each take — 11 moves in 300 s (seed 4, the furnace's stone).
  const earlier = new Set(dropsNear(bot, Infinity).map((entity) => entity.id));
  const block = bot.blockAt(ore);
  if (!block || !(await digWithBestTool(ctx, block))) return ctx.signal.aborted ? ABORTED : false;
  await waitFor(ctx, () => dropsNear(bot, 6, drop, earlier).length > 0, DROP_APPEAR_MS);
  const picked = await pickUpDrops(ctx, 6, drop, { except: earlier });
  if (!picked.ok) return picked;
  ctx.progress(`took ${block.name} at ${blockKey(ore)}`);
  return countItem(bot, drop) > before;
}

const climbByClient = new WeakMap<object, InstanceType<typeof Movements>>();

/**
 * Pathfinder movements for the climb out of a mine: digging and towering on the cobblestone it carries are allowed
 * (the mine changes the world anyway): an ore taken from a step, or a tunnel turned back across the stairs, leaves
 * the way up with a gap that walking alone cannot cross. Pathfinder does not break blocks next to fluid.
 */
export function climbMovementsFor(bot: SinewBot): InstanceType<typeof Movements> {
  const key = (bot._client as object | undefined) ?? bot;
  let movements = climbByClient.get(key);
  if (!movements) {
    movements = new Movements(bot);
    movements.canDig = true;
    movements.allow1by1towers = true;
    movements.allowParkour = false;
    movements.scafoldingBlocks = ['cobblestone', 'cobbled_deepslate', 'dirt'].map((name) => bot.registry.itemsByName[name]?.id).filter((id): id is number => id !== undefined);
    // The table and furnace the plan works at stay where they stand, however short the way through them.
    for (const name of STATIONS) {
      const id = bot.registry.blocksByName[name]?.id;
      if (id !== undefined) movements.blocksCantBreak.add(id);
    }
    climbByClient.set(key, movements);
  }
  return movements;
}

/** Cells of the trail between two waypoints of the climb: a short path pathfinder decides at once, however loaded the machine. */
const CLIMB_LEG = 6;
/**
 * No wall-clock budget per leg: a leg ends when it arrives, when pathfinder gives up, or when the body stops moving
 * (walking's 0.5 block in 6 s) or flaps; the executor's watchdogs bound the step. A 20 s budget failed a leg that was
 * still climbing on a loaded machine (seed 9: "navigation did not finish within 20000 ms"); the server's ticks would
 * be the fair clock, but a mineflayer client on flying-squid does not see them (its time packets carry no world age
 * and stop with the daylight cycle).
 */
const CLIMB_LEG_BUDGET_MS = Number.POSITIVE_INFINITY;

/**
 * Back up a mine the way it came: the cells its moves passed (`trail`, oldest first), in reverse, a short walk at a
 * time, then onto `start`. One path up ~120 stairs at once was more than pathfinder could decide in its think time
 * ("Took to long to decide path to goal"). A leg that fails is left for the next one up; only `start` must be reached.
 */
export async function climbBack(ctx: BotRunContext, trail: readonly Vec3[], start: Vec3): Promise<Failure | undefined> {
  const movements = climbMovementsFor(ctx.body);
  const legs = trail.filter((_, index) => index > 0 && (trail.length - 1 - index) % CLIMB_LEG === 0).reverse();
  // The start twice: a last leg that stalled (seed 1: no progress for 6 s) gets a fresh path from where it stopped.
  const way = [...legs.slice(1), start, start];
  for (const [index, cell] of way.entries()) {
    const failure = await walkTo(ctx, new goals.GoalBlock(cell.x, cell.y, cell.z), { budgetMs: CLIMB_LEG_BUDGET_MS, movements });
    if (failure?.code === 'aborted') return ABORTED;
    if (!failure && cell === start) return undefined;
    if (failure && index === way.length - 1) return { ...failure, reason: `back up the stairs: ${failure.reason}` };
    ctx.progress(`climbing: at ${blockKey(ctx.body.entity.position)}${failure ? ` (leg to ${blockKey(cell)}: ${failure.code})` : ''}`);
  }
  return undefined;
}

/**
 * How far the bot looks for the ore to head for: it reads the blocks of the chunks it has loaded (the server sends
 * every block within its view distance, 4 chunks in the testkit), as a player's x-ray would. The tunnel's walls alone
 * (12 blocks) missed the iron and coal of whole seeds in 160 moves; 32 blocks covers ~19 times the rock.
 */
export const ORE_SCAN = 32;

/**
 * The nearest ore within `ORE_SCAN` blocks to tunnel toward: not above head height (the mine only goes down or
 * level), no fluid next to it, not tried before. Undefined when none is near.
 */
export function oreToward(bot: SinewBot, oreIds: readonly number[], skip: Set<string>): Vec3 | undefined {
  const feet = bot.entity.position.floored();
  const read = readerOf(bot);
  const accept = (p: Vec3) => p.y <= feet.y + 1 && !skip.has(blockKey(p)) && !blockHazard(read, p);
  return findBlockPositions(bot, { matching: oreIds, maxDistance: ORE_SCAN, count: 1, accept })[0];
}

/** The ore blocks of the vein around `at` (itself included): within 3 blocks, as far as a vein spreads from one block. */
export function veinAround(bot: SinewBot, oreIds: readonly number[], at: Vec3): Vec3[] {
  return [at, ...findBlockPositions(bot, { matching: oreIds, maxDistance: 3, count: 64, point: at })];
}

/** The ore a mine heads for, and how many more moves it may spend reaching it. */
export interface Aim {
  readonly at: Vec3;
  movesLeft: number;
  /** The cells the feet passed while heading for it: a cell passed twice is a loop around a hazard. */
  readonly passed: Set<string>;
}

/**
 * Keeps heading for the same ore until it is taken, its moves run out or the feet come back to a cell they passed
 * (a cave or water between the tunnel and the ore turned it aside, back and forth: seed 5 spent 160 moves so), then
 * gives up its whole vein (the same hazard hides the rest) and picks the nearest other: one chunk scan per ore.
 */
export function nextAim(bot: SinewBot, aim: Aim | undefined, oreIds: readonly number[], tried: Set<string>): Aim | undefined {
  const feet = bot.entity.position.floored();
  if (aim && !tried.has(blockKey(aim.at)) && oreIds.includes(bot.blockAt(aim.at)?.type ?? -1)) {
    const looped = aim.passed.has(blockKey(feet));
    aim.passed.add(blockKey(feet));
    if (aim.movesLeft-- > 0 && !looped) return aim;
    for (const ore of veinAround(bot, oreIds, aim.at)) tried.add(blockKey(ore));
  }
  const at = oreToward(bot, oreIds, tried);
  if (!at) return undefined;
  // Twice the way there and a margin: a stair moves one block across and one down at once.
  const movesLeft = 2 * (Math.abs(at.x - feet.x) + Math.abs(at.y - feet.y) + Math.abs(at.z - feet.z)) + 8;
  return { at, movesLeft, passed: new Set([blockKey(feet)]) };
}

/** The direction index (of `DIRECTIONS`) that brings `from` closest to `to` along the longer horizontal axis. */
function directionToward(from: Vec3, to: Vec3): number {
  const [dx, dz] = [to.x - from.x, to.z - from.z];
  if (Math.abs(dx) >= Math.abs(dz)) return dx >= 0 ? 0 : 2;
  return dz >= 0 ? 1 : 3;
}

/**
 * The way the next move takes toward `to` when the last went `facing` (undefined before the first): never straight
 * back, a quarter turn instead (toward `to` on the other axis, else right). Heading for an ore straight below, east
 * then west then east dug a shaft two wide with no step left in it, which the climb back could not get up (goal
 * iron_pickaxe, seed 27, and diamond seed 4: 3 attempts failed on the climb). Quarter turns wind the stairs round a
 * 2×2 spiral, four blocks down a turn: each stair keeps its floor.
 */
export function turnToward(facing: number | undefined, from: Vec3, to: Vec3): number {
  const toward = directionToward(from, to);
  if (facing === undefined || toward !== (facing + 2) % DIRECTIONS.length) return toward;
  const across = toward % 2 === 0 ? to.z - from.z : to.x - from.x;
  if (across === 0) return (facing + 1) % DIRECTIONS.length;
  return toward % 2 === 0 ? (across > 0 ? 1 : 3) : across > 0 ? 0 : 2;
}

/** Leaves a torch in the cell the bot just left when it holds one and a roof shuts out the sky. */
export async function lightBehind(ctx: BotRunContext, cell: Vec3): Promise<void> {
  const bot = ctx.body;
  if (countItem(bot, 'torch') === 0) return;
  const head = bot.entity.position.floored().offset(0, 2, 0);
  let roofed = false;
  for (let dy = 0; dy < ROOF_SEARCH && !roofed; dy++) roofed = bot.blockAt(head.offset(0, dy, 0))?.boundingBox === 'block';
  if (!roofed || !isAir(bot.blockAt(cell)?.name)) return;
  const failure = await placeAt(ctx, 'torch', cell);
  ctx.progress(failure ? `no torch at ${blockKey(cell)}: ${failure.reason}` : `torch at ${blockKey(cell)}`);
}
