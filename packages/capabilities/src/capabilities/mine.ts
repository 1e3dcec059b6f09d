import { accepted, effectsUnmet, fail, guardFailed, guardOk, precondMissing, pred, type PredicateTemplate } from '@sinew/executor-contracts';
import type { Vec3 } from 'vec3';
import { z } from 'zod';
import type { SinewBot } from '../bot.js';
import { defineBotCapability, targetMemo, type BotRunContext } from '../body.js';
import { ABORTED, type Failure } from '../body/failures.js';
import { blockIds } from '../body/geometry.js';
import { countItem, missingHarvestTool } from '../body/inventory.js';
import { climbBack, lightBehind, mineStep, nextAim, takeOre, turnToward, type Aim } from '../body/mining.js';
import { oreBlocks, oreKind, ORES } from '../body/ores.js';
import { observeWorld } from '../world.js';

/** Where `mine` goes: down to a depth (feet y), to an ore (`iron`, `iron_ore`, `deepslate_iron_ore`), or both. */
export const MineTargetSchema = z
  .strictObject({
    /** Feet y to reach (bedrock starts at -64; -59 is the lowest safe floor). */
    depth: z.number().int().min(-59).max(319).optional(),
    ore: z
      .string()
      .min(1)
      .refine((name) => oreKind(name) !== undefined, { message: `one of ${Object.keys(ORES).join(', ')} (or their _ore block names)` })
      .optional(),
  })
  .refine((t) => t.depth !== undefined || t.ore !== undefined, { message: 'give a depth, an ore or both' });

/** At most a stack of drops gained in one step; a need counted as `held` may be anything the inventory holds (36 stacks). */
const GAINED_MAX = 64;
const HELD_MAX = 36 * 64;

/** Arguments of `mine`. */
export const MineArgsSchema = z.strictObject({
  target: MineTargetSchema,
  /** With an ore: how many of its drops to gain before stopping (one redstone ore gives 4–5 redstone); see `counting`. */
  count: z.number().int().positive().max(HELD_MAX).default(1),
  /**
   * What `count` counts: the drops `gained` since the step began (default), or the drops `held` in all — a plan's
   * need (8 cobblestone for a furnace), met at once by what earlier mines dug on their way (seeds 4 and 9 held 35).
   */
  counting: z.enum(['gained', 'held']).default('gained'),
  /** Walk back up the staircase to where the step started once the target is reached. */
  returnToSurface: z.boolean().default(false),
  /**
   * At most this many moves (a stair down or a block of tunnel) beyond the stairs from where the step starts down to
   * the target's level, before giving up: a mine from a hilltop is not out of moves by the time it gets there.
   */
  maxMoves: z.number().int().positive().max(400).default(160),
}).refine((args) => args.counting === 'held' || args.count <= GAINED_MAX, {
  path: ['count'],
  message: `at most ${GAINED_MAX} drops gained in one step; a plan's need above a stack is counted as held (counting: 'held', up to ${HELD_MAX})`,
});
/** Parsed arguments of `mine`. */
export type MineArgs = z.output<typeof MineArgsSchema>;

const TORCH_EVERY = 8;

/**
 * What one move takes (a stair down or a block of tunnel: two or three digs and a step, a torch now and then) and
 * one cell of the climb back along the trail, on a quiet machine; a loaded one took 2.2 s a move (diamond, seed 2).
 */
const MOVE_MS = 1_500;
const CLIMB_MS = 750;
/** The dig's own budget per move it may make, in multiples of MOVE_MS: inside the executor's deadline (3 × expected). */
const MOVE_BUDGET_FACTOR = 2;
/** The highest ground a mine is expected to set out from in a generated world (seed 2's diamond mine began at y 89). */
const SURFACE_Y = 120;

/** The level (feet y) a mine digs down to: the depth asked, else the ore's branch-mining level, else where it stands. */
const levelOf = (target: MineArgs['target'], fromY: number): number => {
  const kind = target.ore === undefined ? undefined : oreKind(target.ore);
  return target.depth ?? (kind ? ORES[kind].level : fromY);
};

/** The moves a mine may make from feet y `fromY`: the stairs down to its level, then `maxMoves` more. */
export function mineMoveLimit(args: Pick<MineArgs, 'target' | 'maxMoves'>, fromY: number): number {
  return Math.max(0, Math.floor(fromY) - levelOf(args.target, fromY)) + args.maxMoves;
}

/** The dig's own time budget from feet y `fromY`: MOVE_BUDGET_FACTOR × the expected time of every move it may make. */
export function mineBudgetMs(args: Pick<MineArgs, 'target' | 'maxMoves'>, fromY: number): number {
  return mineMoveLimit(args, fromY) * MOVE_MS * MOVE_BUDGET_FACTOR;
}

/**
 * How long a mine from feet y `fromY` is expected to take: every move it may make, and the climb back along them
 * when it returns to the surface. The deeper the target, the longer: from y 70 with the climb back, redstone 10.5 min,
 * coal 6.5 min (both with their 160 spare moves).
 */
export function mineExpectedMs(args: Pick<MineArgs, 'target' | 'maxMoves' | 'returnToSurface'>, fromY: number = SURFACE_Y): number {
  const moves = mineMoveLimit(args, fromY);
  return moves * MOVE_MS + (args.returnToSurface ? moves * CLIMB_MS : 0);
}

/**
 * Where the step started, the cells its moves passed and the lowest feet y, kept across the step's attempts: a retry
 * that begins at depth (the last climb failed) still climbs back to the surface the step left, not to its own start.
 */
interface Descent {
  readonly start: Vec3;
  readonly trail: Vec3[];
  lowestY: number;
  /**
   * The ore's drop held when the step began: a retry counts what the earlier attempts gained (seed 7: the first
   * attempt took 3 diamonds and timed out on the climb; the retry set out to mine 3 more).
   */
  readonly dropsBefore: number;
}
const descents = targetMemo<Descent>();

/** The pickaxe the target needs at least (the ore's tier; any pickaxe for stone). */
function toolFor(target: MineArgs['target']): string {
  const kind = target.ore === undefined ? undefined : oreKind(target.ore);
  return kind ? ORES[kind].tool : 'wooden_pickaxe';
}

/**
 * The declared effects: the ore's drop gained, and/or the feet at or below the depth (`y:<=<depth>`) — not
 * declared when the step climbs back to the surface (`surfaced`): then the feet end above it.
 */
function mineEffects(target: MineArgs['target'] | { placeholder: string }, count: number, options: { surfaced?: boolean; held?: boolean } = {}): PredicateTemplate[] {
  if ('placeholder' in target) return [pred.gained(pred.placeholder('ore_drop'), 1)];
  const kind = target.ore === undefined ? undefined : oreKind(target.ore);
  const effects: PredicateTemplate[] = [];
  if (kind) effects.push(options.held ? pred.hasItem(ORES[kind].drop, count) : pred.gained(ORES[kind].drop, count));
  if (target.depth !== undefined && !options.surfaced) effects.push(pred.belowY(target.depth));
  return effects;
}

/** How many of the ore's drops the step still lacks: held in all, or gained since its start (0 without an ore). */
function shortOf(bot: SinewBot, args: MineArgs, descent: Descent): number {
  const kind = args.target.ore === undefined ? undefined : oreKind(args.target.ore);
  return kind ? Math.max(0, args.count - counted(countItem(bot, ORES[kind].drop), args, descent.dropsBefore)) : 0;
}

/** The drops that count toward `count`: all held, or those gained since the step began. */
const counted = (held: number, args: Pick<MineArgs, 'counting'>, before: number): number => (args.counting === 'held' ? held : held - before);

/** Stairs down to the target level, then tunnels along it, taking the ore when the walls show one. */
async function dig(ctx: BotRunContext, args: MineArgs): Promise<Failure | { moves: number; found: boolean }> {
  const bot = ctx.body;
  const kind = args.target.ore === undefined ? undefined : oreKind(args.target.ore);
  const level = levelOf(args.target, bot.entity.position.y);
  const oreIds = kind ? oreBlocks(kind).flatMap((name) => blockIds(bot, name)) : [];
  const tried = new Set<string>();
  const startedAt = ctx.now();
  const feet = bot.entity.position.floored();
  const moveLimit = mineMoveLimit(args, feet.y);
  const budgetMs = mineBudgetMs(args, feet.y);
  const drop = kind ? ORES[kind].drop : undefined;
  const descent = descents.get(args) ?? descents.set(args, { start: feet, trail: [feet], lowestY: feet.y, dropsBefore: drop ? countItem(bot, drop) : 0 });
  // An ore in the way of the tunnel is dug with it, and picked up by stepping over its drop.
  const enough = () => drop !== undefined && shortOf(bot, args, descent) === 0;
  // Back where the step started (a retry after the climb): the old trail no longer leads back from the new stairs.
  if (descent.trail.length > 1 && feet.equals(descent.start)) descent.trail.splice(1);
  let facing = 0;
  let aim: Aim | undefined;
  for (let moves = 0; ; moves++) {
    if (ctx.signal.aborted) return ABORTED;
    if (kind && drop) {
      if (enough()) return { moves, found: true };
      const took = await takeOre(ctx, oreIds, drop, tried, { floors: kind !== 'stone' });
      if (typeof took !== 'boolean') return took;
      if ((took && args.count === 1) || enough()) return { moves, found: true };
    } else if (bot.entity.position.y <= level) return { moves, found: false };
    if (moves >= moveLimit || ctx.now() - startedAt > budgetMs) {
      const what = kind ? `no ${kind} ore seen` : `still at y ${Math.floor(bot.entity.position.y)}`;
      return fail.effectsUnmet(`not_found: ${what} after ${moves} moves`, { retryable: false });
    }
    const from = bot.entity.position.floored();
    // An ore seen nearby sets the way (down toward it or level); else down to the level, then straight on.
    // Stone is in every wall: heading for the nearest one would turn the stairs back into their own steps.
    aim = kind && kind !== 'stone' ? nextAim(bot, aim, oreIds, tried) : undefined;
    if (aim) facing = turnToward(moves > 0 ? facing : undefined, from, aim.at);
    const step = await mineStep(ctx, facing, aim ? aim.at.y < from.y : from.y > level);
    if ('ok' in step) return step;
    facing = step.facing;
    const at = bot.entity.position.floored();
    if (!descent.trail.at(-1)!.equals(at)) descent.trail.push(at);
    descent.lowestY = Math.min(descent.lowestY, at.y);
    ctx.progress(`mine: y ${Math.floor(bot.entity.position.y)}, ${moves + 1} moves`);
    if ((moves + 1) % TORCH_EVERY === 0) await lightBehind(ctx, from);
  }
}

/** Reaches a depth or an ore by a staircase (never straight down), reading hazards before every dig. */
export const mine = defineBotCapability({
  name: 'mine',
  version: '1.0.0',
  description:
    'Reach a depth or an ore safely: a staircase down (never straight down), then a tunnel; lava, water, falling gravel and drops read before every dig; torches left in the dark when held; back up the stairs if asked.',
  inputSchema: MineArgsSchema,
  // The executor reads one number per capability (a step may carry its own): the deepest target with the climb back
  // from high ground, so no mine is cut by its own deadline (redstone × 4, seed 15: 3 × 120 s ran out on the climb).
  expectedDurationMs: mineExpectedMs({ target: { ore: 'diamond' }, maxMoves: 160, returnToSurface: true }),
  preconds: (args) => [pred.hasItem('placeholder' in args.target ? pred.placeholder('pickaxe') : toolFor(args.target), 1)],
  effects: (args) => mineEffects(args.target, typeof args.count === 'number' ? args.count : 1, { surfaced: args.returnToSurface === true, held: args.counting === 'held' }),
  guard: ({ body }, { target }) => {
    const kind = target.ore === undefined ? undefined : oreKind(target.ore);
    const block = body.registry.blocksByName[kind ? oreBlocks(kind)[0]! : 'stone'];
    const tool = block ? missingHarvestTool(body, block) : undefined;
    if (tool) return precondMissing([tool]);
    if (target.depth !== undefined && !kind && body.entity.position.y <= target.depth) return guardFailed(`already at y ${Math.floor(body.entity.position.y)}, at or below ${target.depth}`);
    return guardOk;
  },
  observe: ({ body }) => observeWorld(body),
  run: async (ctx, args) => {
    const result = await dig(ctx, args);
    if ('ok' in result) return result;
    const descent = descents.get(args)!;
    if (args.returnToSurface) {
      const failure = await climbBack(ctx, descent.trail, descent.start);
      if (failure) return failure;
      // The climb towers on cobblestone it carries: mining stone, it may spend what it came for (seed 9: 35 → 33).
      const short = shortOf(ctx.body, args, descent);
      if (short > 0) return fail.effectsUnmet(`${short} ${ORES[oreKind(args.target.ore!)!].drop} short after the climb (spent as scaffolding): mining again`, { retryable: true });
    }
    return { ok: true, observables: { moves: result.moves, lowestY: descent.lowestY } };
  },
  acceptance: (pre, post, args) => {
    const kind = args.target.ore === undefined ? undefined : oreKind(args.target.ore);
    const effects = mineEffects(args.target, args.count, { held: args.counting === 'held' });
    if (kind) {
      const drop = ORES[kind].drop;
      const held = post.inventory[drop] ?? 0;
      // Since the step began, as the runner counts (a retry's own pre would miss what the first attempt took).
      const before = descents.get(args)?.dropsBefore ?? pre.inventory[drop] ?? 0;
      if (counted(held, args, before) >= args.count) return accepted;
      return effectsUnmet(effects, args.counting === 'held' ? `holds ${held} ${drop}, wanted ${args.count}` : `${drop} did not rise by ${args.count} (${before} → ${held})`);
    }
    const depth = args.target.depth!;
    // Back at the surface, the depth reached is what the step recorded on the way; else where the feet are.
    const descent = descents.get(args);
    const y = args.returnToSurface ? (descent?.lowestY ?? post.position.y) : post.position.y;
    const back = !args.returnToSurface || post.position.y >= (descent?.start.y ?? pre.position.y) - 1;
    return Math.floor(y) <= depth && back ? accepted : effectsUnmet(effects, `feet at y ${Math.floor(y)}, wanted ≤ ${depth}${back ? '' : ', and not back up'}`);
  },
});
