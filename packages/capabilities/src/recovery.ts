import pathfinderPackage from 'mineflayer-pathfinder';
import { fail, type Vec3 } from '@sinew/executor-contracts';
import { SCAFFOLD_BLOCKS } from '@sinew/executor-contracts/minecraft';
import { z } from 'zod';
import type { BotRunContext } from './body.js';
import type { Failure } from './body/failures.js';
import { countItem } from './body/inventory.js';
import { movementsFor, walkTo } from './body/walking.js';

const { goals } = pathfinderPackage;

/** What the navigation recovery ladder may do beyond re-planning and approaching from another side. */
export const RecoveryOptionsSchema = z.strictObject({
  /** Rung 2: blocks the goal tolerance may widen by (0 skips the rung; acceptance allows the widened range). */
  widenBlocks: z.number().nonnegative().max(8).default(0),
  /** Rung 4: when walking cannot leave the spot (a pit), tower out on scaffold blocks the bot holds (places a few). */
  climbOut: z.boolean().default(true),
  /** Rung 5: dig through and tower over obstacles (changes the world, so off unless the plan allows it). */
  digThrough: z.boolean().default(false),
});
export type RecoveryOptions = z.output<typeof RecoveryOptionsSchema>;

/** The rungs, in the order they are tried (Nav2's recoveries are the model). */
export const RECOVERY_RUNGS = ['avoid_segment', 'widen_tolerance', 'approach_other_side', 'climb_out', 'dig_through'] as const;
/** One rung of the navigation recovery ladder. */
export type RecoveryRung = (typeof RECOVERY_RUNGS)[number];
/** A rung the ladder climbed, and what came of it. */
export interface RungRecord {
  readonly rung: RecoveryRung;
  readonly result: 'reached' | 'failed' | 'skipped';
  readonly reason: string;
}

export interface LadderInput {
  readonly goal: Vec3;
  readonly range: number;
  readonly recovery: RecoveryOptions;
  /** Block cells the failed walk stood on ("x,z" → visits): the flapping segment rung 1 costs. */
  readonly visited: ReadonlyMap<string, number>;
}

const SEGMENT_COST = 50;

const horizontal = (a: Vec3, b: Vec3) => Math.hypot(a.x - b.x, a.z - b.z);

/** Counts the block cells the body stands on while `walk` runs (the segment a flap walked over). */
export async function tracingCells<T>(ctx: BotRunContext, walk: () => Promise<T>): Promise<{ result: T; visited: Map<string, number> }> {
  const visited = new Map<string, number>();
  const onMove = () => {
    const p = ctx.body.entity.position;
    const key = `${Math.floor(p.x)},${Math.floor(p.z)}`;
    visited.set(key, (visited.get(key) ?? 0) + 1);
  };
  ctx.body.on('move', onMove);
  try {
    return { result: await walk(), visited };
  } finally {
    ctx.body.removeListener('move', onMove);
  }
}

/** Walks to `goal` within `within` blocks (horizontal + the usual one block of slack); a failure says why. */
async function reach(ctx: BotRunContext, goal: Vec3, within: number): Promise<string | undefined> {
  const failure = await walkTo(ctx, new goals.GoalNear(goal.x, goal.y, goal.z, within));
  if (failure) return `${failure.code}: ${failure.reason}`;
  const left = horizontal(ctx.body.entity.position, goal);
  return left <= within + 1 ? undefined : `stopped ${left.toFixed(1)} blocks away`;
}

/** Runs with the shared movements changed by `tweak`, restoring them afterwards (one step runs at a time, I1). */
async function withMovements<T>(ctx: BotRunContext, tweak: (m: ReturnType<typeof movementsFor>) => () => void, body: () => Promise<T>): Promise<T> {
  const restore = tweak(movementsFor(ctx.body));
  try {
    return await body();
  } finally {
    restore();
  }
}

function avoidSegment(ctx: BotRunContext, input: LadderInput): Promise<string | undefined> {
  return withMovements(
    ctx,
    (m) => {
      const before = m.exclusionAreasStep;
      m.exclusionAreasStep = [(block) => (input.visited.has(`${block.position.x},${block.position.z}`) ? SEGMENT_COST : 0)];
      return () => void (m.exclusionAreasStep = before);
    },
    () => reach(ctx, input.goal, input.range),
  );
}

/** Backs off three blocks, then approaches from the far side of the goal. */
async function approachOtherSide(ctx: BotRunContext, input: LadderInput): Promise<string | undefined> {
  const here = ctx.body.entity.position;
  const away = new goals.GoalInvert(new goals.GoalNear(here.x, here.y, here.z, 3));
  const backed = await walkTo(ctx, away, { budgetMs: 8_000 });
  if (backed?.code === 'aborted') return `aborted: ${backed.reason}`;
  const dx = input.goal.x - here.x;
  const dz = input.goal.z - here.z;
  const length = Math.hypot(dx, dz) || 1;
  const side = { x: input.goal.x + (dx / length) * (input.range + 1), y: input.goal.y, z: input.goal.z + (dz / length) * (input.range + 1) };
  const viaSide = await reach(ctx, side, 1);
  return viaSide ? `far side: ${viaSide}` : reach(ctx, input.goal, input.range);
}

/** Within this many blocks of where it stands, the bot counts as boxed in when walking reaches nothing farther. */
const BOXED_IN_BLOCKS = 2;

/** Whether walking (no digging, no towers) can take the bot more than two blocks from where it stands. */
function boxedIn(ctx: BotRunContext): boolean {
  const here = ctx.body.entity.position;
  const away = new goals.GoalInvert(new goals.GoalNear(here.x, here.y, here.z, BOXED_IN_BLOCKS));
  // A pit has a handful of reachable cells: the search ends at once with no path out.
  return ctx.body.pathfinder.getPathTo(movementsFor(ctx.body), away, 1_000).status === 'noPath';
}

/** Scaffold items the bot holds, as pathfinder wants them (item ids, in SCAFFOLD_BLOCKS order). */
function heldScaffold(ctx: BotRunContext): number[] {
  const { registry } = ctx.body;
  return SCAFFOLD_BLOCKS.filter((name) => countItem(ctx.body, name) > 0).flatMap((name) => registry.itemsByName[name]?.id ?? []);
}

/** Towers out of a pit on held scaffold blocks (no digging), then walks to the goal as usual. */
async function climbOut(ctx: BotRunContext, input: LadderInput, scaffold: number[]): Promise<string | undefined> {
  const here = ctx.body.entity.position.clone();
  const out = new goals.GoalInvert(new goals.GoalNear(here.x, here.y, here.z, BOXED_IN_BLOCKS));
  const climbed = await withMovements(
    ctx,
    (m) => {
      const before = { towers: m.allow1by1towers, blocks: m.scafoldingBlocks };
      Object.assign(m, { allow1by1towers: true, scafoldingBlocks: scaffold });
      return () => void Object.assign(m, { allow1by1towers: before.towers, scafoldingBlocks: before.blocks });
    },
    () => walkTo(ctx, out, { budgetMs: 15_000 }),
  );
  if (climbed) return `climbing out: ${climbed.code}: ${climbed.reason}`;
  return reach(ctx, input.goal, input.range);
}

/** Rung 4 unless skipped: why it is skipped, or the climb. */
function climbOutRung(ctx: BotRunContext, input: LadderInput): string | Promise<string | undefined> {
  if (!input.recovery.climbOut) return 'climbOut not allowed';
  if (!boxedIn(ctx)) return 'not boxed in';
  const scaffold = heldScaffold(ctx);
  return scaffold.length > 0 ? climbOut(ctx, input, scaffold) : 'boxed in without scaffold blocks';
}

function digThrough(ctx: BotRunContext, input: LadderInput): Promise<string | undefined> {
  return withMovements(
    ctx,
    (m) => {
      const before = { canDig: m.canDig, towers: m.allow1by1towers };
      m.canDig = true;
      m.allow1by1towers = true;
      return () => void Object.assign(m, { canDig: before.canDig, allow1by1towers: before.towers });
    },
    () => reach(ctx, input.goal, input.range),
  );
}

/** One rung: why it is skipped, or its walk. */
function rung(ctx: BotRunContext, name: RecoveryRung, input: LadderInput): string | Promise<string | undefined> {
  if (name === 'avoid_segment') return input.visited.size > 0 ? avoidSegment(ctx, input) : 'no segment recorded';
  if (name === 'widen_tolerance') return input.recovery.widenBlocks > 0 ? reach(ctx, input.goal, input.range + input.recovery.widenBlocks) : 'widenBlocks is 0';
  if (name === 'approach_other_side') return approachOtherSide(ctx, input);
  if (name === 'climb_out') return climbOutRung(ctx, input);
  return input.recovery.digThrough ? digThrough(ctx, input) : 'digThrough not allowed';
}

/**
 * The recovery ladder after a stuck or flapping walk (FM-03/FM-04): each rung in order until one reaches the
 * goal; otherwise `stuck` whose reason carries the ladder's record. Returns the record either way.
 */
export async function climbLadder(ctx: BotRunContext, input: LadderInput, first: Failure): Promise<{ failure?: Failure; ladder: RungRecord[] }> {
  const ladder: RungRecord[] = [];
  for (const name of RECOVERY_RUNGS) {
    if (ctx.signal.aborted) return { failure: fail.aborted('recovery aborted'), ladder };
    const attempt = rung(ctx, name, input);
    if (typeof attempt === 'string') {
      ladder.push({ rung: name, result: 'skipped', reason: attempt });
      continue;
    }
    ctx.progress(`recovery: ${name}`);
    const failed = await attempt;
    ladder.push({ rung: name, result: failed ? 'failed' : 'reached', reason: failed ?? 'reached the goal' });
    if (!failed) return { ladder };
  }
  const record = ladder.map((r) => `${r.rung} ${r.result} (${r.reason})`).join('; ');
  return { failure: fail.stuck(`${first.reason}; recovery ladder exhausted: ${record}`, { retryable: false }), ladder };
}
