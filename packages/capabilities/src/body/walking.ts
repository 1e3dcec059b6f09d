import { fail, type Vec3 } from '@sinew/executor-contracts';
import { EYE_HEIGHT } from '@sinew/executor-contracts/minecraft';
import type { Bot } from 'mineflayer';
import pathfinderPackage from 'mineflayer-pathfinder';
import type { BotRunContext } from '../body.js';
import { createFlapDetector, type FlapPolicyInput } from '../flap.js';
import type { Failure } from './failures.js';
import { REACH } from './geometry.js';
import { waitFor } from './waiting.js';

const { Movements, goals } = pathfinderPackage;
type Goal = InstanceType<(typeof pathfinderPackage.goals)['Goal']>;

/** Keyed by the bot's connection (else the bot): each attempt's runner gets a fresh view of the bot, which never hits. */
const movementsByClient = new WeakMap<object, InstanceType<typeof Movements>>();

/**
 * Pathfinder movements for a bot, built once (building them scans the registry). Walking never digs or
 * towers: breaking and placing blocks are steps of their own, so a path never changes the world unseen.
 */
export function movementsFor(bot: Bot): InstanceType<typeof Movements> {
  const key = (bot._client as object | undefined) ?? bot;
  let movements = movementsByClient.get(key);
  if (!movements) {
    movements = new Movements(bot);
    movements.canDig = false;
    movements.allow1by1towers = false;
    movements.scafoldingBlocks = [];
    movementsByClient.set(key, movements);
  }
  return movements;
}

/**
 * A pathfinder goal: stand where the eyes are within `reach` of a block's centre (no line-of-sight rule), but
 * never on the block itself: it is about to be dug or used, and digging it would drop the bot into its own hole.
 */
export class GoalWithinReach extends goals.Goal {
  constructor(
    readonly position: Vec3,
    readonly reach: number = REACH - 0.5,
  ) {
    super();
  }
  heuristic(node: { x: number; y: number; z: number }): number {
    const dx = node.x + 0.5 - (Math.floor(this.position.x) + 0.5);
    const dy = node.y + EYE_HEIGHT - (Math.floor(this.position.y) + 0.5);
    const dz = node.z + 0.5 - (Math.floor(this.position.z) + 0.5);
    return Math.max(0, Math.hypot(dx, dy, dz) - this.reach);
  }
  isEnd(node: { x: number; y: number; z: number }): boolean {
    const onTop = node.x === Math.floor(this.position.x) && node.z === Math.floor(this.position.z) && node.y === Math.floor(this.position.y) + 1;
    return !onTop && this.heuristic(node) === 0;
  }
}

/** Seconds-long window in which the body must move at least `MIN_PROGRESS_BLOCKS` while walking. */
const NO_PROGRESS_MS = 6_000;
const MIN_PROGRESS_BLOCKS = 0.5;
/** At most one "moved" progress note per this long of walking (a note per sample would crowd the step's trace). */
const MOVED_NOTE_MS = 1_000;

export interface WalkOptions {
  /** Give up after this long (the executor's attempt timeout usually fires first). */
  readonly budgetMs?: number;
  readonly flap?: FlapPolicyInput;
  /** Position sampling interval for flap detection. */
  readonly sampleMs?: number;
  /** Movements other than walking's own (which never dig or tower), for a capability that changes the world anyway. */
  readonly movements?: InstanceType<typeof Movements>;
}

const NAVIGATION_ABORTED: Failure = fail.aborted('navigation aborted');

/**
 * Walks to a pathfinder goal: abortable, FM-04 flap detection, progress while the body moves. Resolves
 * undefined when pathfinder says it is done — which can happen without reaching the goal (an empty
 * computed path), so callers must check the position — or a `stuck` failure.
 */
export async function walkTo(ctx: BotRunContext, goal: Goal, options: WalkOptions = {}): Promise<Failure | undefined> {
  const bot = ctx.body;
  bot.pathfinder.setMovements(options.movements ?? movementsFor(bot));
  if (ctx.signal.aborted) return NAVIGATION_ABORTED;
  const walk = { over: false };
  const walking = bot.pathfinder.goto(goal).then(() => undefined, pathfinderFailure);
  const watching = watchWalk(ctx, options, walk);
  const failure = await Promise.race([walking, watching]);
  walk.over = true;
  // The watcher ends within one poll of `over`: awaiting it leaves no timer behind the walk (or the step).
  await watching;
  if (failure) {
    bot.pathfinder.setGoal(null);
    bot.clearControlStates();
  }
  return failure;
}

/** A failure from pathfinder's rejection of `goto`. */
function pathfinderFailure(error: unknown): Failure {
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  if (name === 'NoPath') return fail.stuck(`no path: ${message}`, { retryable: false });
  if (name === 'Timeout') return fail.stuck(`pathfinder gave up: ${message}`);
  return fail.stuck(`navigation failed: ${message}`);
}

/**
 * Samples the body every `sampleMs` of the context's clock until the walk is over (undefined), aborted,
 * flapping, making no progress or past its budget. After the walk ends it stops within one `waitFor` poll.
 */
async function watchWalk(ctx: BotRunContext, options: WalkOptions, walk: { readonly over: boolean }): Promise<Failure | undefined> {
  const bot = ctx.body;
  const { budgetMs = 60_000, sampleMs = 250 } = options;
  const flap = createFlapDetector(options.flap);
  const startedAt = ctx.now();
  // pathfinder keeps re-planning a partial path on the spot (each re-plan clears control states, which looks
  // like activity): the body must actually move, or the walk is stuck.
  let anchor = bot.entity.position.clone();
  let anchorAt = startedAt;
  let reportedAt = startedAt;
  // pathfinder thinks over several ticks before a long path's first step (a `partial` update each tick, up to its
  // 5 s think budget), sending no command while the body stands: that is the walk working, not stuck. The walk's own
  // no-movement bound below still ends a walk that only ever re-plans.
  const onPathUpdate = (results: { readonly status?: unknown; readonly path?: readonly unknown[] }) => {
    const now = ctx.now();
    if (now - reportedAt < MOVED_NOTE_MS) return;
    reportedAt = now;
    ctx.progress(`walking: path ${String(results.status)} (${results.path?.length ?? 0} nodes)`);
  };
  bot.on('path_update', onPathUpdate);
  try {
    for (;;) {
      if (await waitFor(ctx, () => walk.over, sampleMs)) return undefined;
      if (ctx.signal.aborted) return NAVIGATION_ABORTED;
      const now = ctx.now();
      if (bot.entity.position.distanceTo(anchor) >= MIN_PROGRESS_BLOCKS) {
        anchor = bot.entity.position.clone();
        anchorAt = now;
        // The body moving is progress (A4), whatever pathfinder sends meanwhile: a walk's liveness should not rest on
        // how often pathfinder re-issues a command it already holds.
        if (now - reportedAt >= MOVED_NOTE_MS) {
          reportedAt = now;
          ctx.progress('walking: moved');
        }
      }
      if (flap.sample(bot.entity.position, now)) {
        return fail.stuck(`navigation flapping (FM-04): ${flap.reversals(now)} direction reversals within 10 s`);
      }
      if (now - anchorAt > NO_PROGRESS_MS) return fail.stuck(`no progress toward the goal for ${NO_PROGRESS_MS / 1000} s`);
      if (now - startedAt > budgetMs) return fail.timeout(`navigation did not finish within ${budgetMs} ms`);
    }
  } finally {
    bot.off('path_update', onPathUpdate);
  }
}
