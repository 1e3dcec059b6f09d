import { defineBehavior, type LeafContext } from '@sinew/bt-runtime';
import { accepted, blackboardKey, blockKey, effectsUnmet, guardFailed, guardOk, precondMissing, pred, type Vec3 } from '@sinew/executor-contracts';
import pathfinderPackage from 'mineflayer-pathfinder';
import { z } from 'zod';
import type { SinewBot } from '../bot.js';
import { defineBotCapability, targetMemo } from '../body.js';
import { findBlockPositions } from '../body/block-search.js';
import { digWithBestTool } from '../body/digging.js';
import { dropsNear, pickUpDrops } from '../body/drops.js';
import { blockIds, blockMatcher, eyeDistance, isAir, REACH, standsOn, toBlockVec } from '../body/geometry.js';
import { countMatching, dropNames, missingHarvestTool } from '../body/inventory.js';
import { waitFor } from '../body/waiting.js';
import { GoalWithinReach, walkTo } from '../body/walking.js';
import { inventoryCounts, observeWorld } from '../world.js';

const { goals } = pathfinderPackage;

/** Arguments of `gather`. */
export const GatherArgsSchema = z.strictObject({
  /** A block name (`oak_log`) or a suffix group (`log` = any `*_log`). */
  block: z.string().min(1),
  count: z.number().int().positive().max(256).default(1),
  maxDistance: z.number().positive().max(128).default(48),
});
export type GatherArgs = z.output<typeof GatherArgsSchema>;

type Leaf = LeafContext<SinewBot, GatherArgs>;

const matchers = targetMemo<(item: string) => boolean>();
/**
 * The yield count in the `pre` of the running attempt, so the runner stops exactly where acceptance (pre vs
 * post) is met. Recorded by observe, which runs right before every attempt, a resumed one included (an
 * attempt number is no key: a step resumed after a preemption runs the same number again).
 */
const baselines = targetMemo<number>();

/**
 * find → go → dig → collect, repeated until the count is reached; when nothing is found (or it cannot
 * be reached) the bot explores (16 blocks east, south, west, north) and tries again. Bounded by the retry
 * count and by four explorations without a find.
 */
export const GATHER_TREE = `
root {
  selector {
    condition [HasEnough]
    retry [64] {
      sequence {
        selector {
          sequence {
            action [FindTarget]
            action [GoToTarget]
            action [DigTarget]
            action [CollectDrops]
          }
          action [Explore]
        }
        condition [HasEnough]
      }
    }
  }
}`;

const EXPLORE_DISTANCE = 16;
const NEAR_SEARCH = 16;
const DROP_APPEAR_MS = 1_000;
const EXPLORE_DIRECTIONS = [
  [1, 0],
  [0, 1],
  [-1, 0],
  [0, -1],
] as const;

/** Item names a gathered block yields: the group's own items for a suffix group, else minecraft-data drops. */
export function gatheredItemMatcher(bot: SinewBot, pattern: string): (item: string) => boolean {
  if (bot.registry.blocksByName[pattern]) {
    const names = new Set(dropNames(bot, pattern));
    return (item) => names.has(item);
  }
  return blockMatcher(bot, pattern);
}

function yieldCount(bot: SinewBot, args: GatherArgs): number {
  return countMatching(inventoryCounts(bot), gatheredItemMatcher(bot, args.block));
}

/** Block keys no walk could reach from where the bot stood. */
const UNREACHABLE = blackboardKey<Set<string>>('gather.unreachable');
/** The block FindTarget chose. */
const TARGET = blackboardKey<Vec3>('gather.target');
/** The block DigTarget just broke (its drops are about to spawn). */
const DUG = blackboardKey<Vec3>('gather.dug');
/** How many explore walks ran since something was last found. */
const EXPLORE = blackboardKey<number>('gather.explore');


function unreachable(ctx: Leaf): Set<string> {
  let set = ctx.blackboard.get(UNREACHABLE);
  if (!set) ctx.blackboard.set(UNREACHABLE, (set = new Set()));
  return set;
}

const gatherTree = defineBehavior<SinewBot, GatherArgs>({
  tree: GATHER_TREE,
  maxNodeDurationMs: 45_000,
  conditions: {
    HasEnough: (ctx) => {
      const now = yieldCount(ctx.body, ctx.args);
      // Run without an executor (no observe): counted from this run's first check.
      const baseline = baselines.get(ctx.args) ?? baselines.set(ctx.args, now);
      return now - baseline >= ctx.args.count;
    },
  },
  actions: {
    FindTarget: (ctx) => {
      const bot = ctx.body;
      const skip = unreachable(ctx);
      const matching = blockIds(bot, ctx.args.block);
      // Never the block underfoot: a player digging straight down sinks into a shaft that walking (no digging,
      // no towering) cannot leave, and the next step's walk fails from there.
      const usable = (position: Vec3) => !skip.has(blockKey(position)) && !standsOn(bot, position);
      let next: Vec3 | undefined;
      // Near first: a 16-block scan costs a fraction of a 48-block one, and it is on the TTFA path.
      for (const radius of new Set([Math.min(NEAR_SEARCH, ctx.args.maxDistance), ctx.args.maxDistance])) {
        const found = findBlockPositions(bot, { matching, maxDistance: radius, count: skip.size + 2 });
        next = found.find(usable);
        if (next) break;
      }
      if (!next) {
        ctx.blackboard.delete(TARGET);
        return false;
      }
      ctx.blackboard.set(TARGET, next);
      // Found something: exploring may start over from here.
      ctx.blackboard.set(EXPLORE, 0);
      return true;
    },
    GoToTarget: async (ctx) => {
      const bot = ctx.body;
      const position = ctx.blackboard.get(TARGET);
      if (!position) return false;
      if (eyeDistance(bot, position) <= REACH - 0.3) return true;
      const failure = await walkTo(ctx, new GoalWithinReach(position), { budgetMs: 30_000 });
      if (failure?.code === 'aborted') return false;
      if (failure || eyeDistance(bot, position) > REACH) {
        unreachable(ctx).add(blockKey(position));
        return false;
      }
      return true;
    },
    DigTarget: async (ctx) => {
      const bot = ctx.body;
      const position = ctx.blackboard.get(TARGET);
      const block = position ? bot.blockAt(toBlockVec(position)) : null;
      if (!block || isAir(block.name)) return true; // someone else got it; the drops may still be there
      if (!(await digWithBestTool(ctx, block))) return false;
      ctx.blackboard.set(DUG, block.position);
      return isAir(bot.blockAt(block.position)?.name);
    },
    CollectDrops: async (ctx) => {
      const bot = ctx.body;
      const matches = gatheredItemMatcher(bot, ctx.args.block);
      // The server spawns the drop just after the block breaks: give it a moment to appear.
      if (ctx.blackboard.has(DUG)) await waitFor(ctx, () => dropsNear(bot, 6, matches).length > 0, DROP_APPEAR_MS);
      ctx.blackboard.delete(DUG);
      const result = await pickUpDrops(ctx, 6, matches);
      return result.ok;
    },
    Explore: async (ctx) => {
      const bot = ctx.body;
      const turn = ctx.blackboard.get(EXPLORE) ?? 0;
      // One walk in each direction, then give up: the step fails at this node instead of wandering.
      if (turn >= EXPLORE_DIRECTIONS.length) return false;
      ctx.blackboard.set(EXPLORE, turn + 1);
      const [dx, dz] = EXPLORE_DIRECTIONS[turn % EXPLORE_DIRECTIONS.length]!;
      const start = bot.entity.position.clone();
      const goal = new goals.GoalNearXZ(start.x + dx * EXPLORE_DISTANCE, start.z + dz * EXPLORE_DISTANCE, 2);
      const failure = await walkTo(ctx, goal, { budgetMs: 20_000 });
      if (failure?.code === 'aborted') return false;
      // Newly seen ground may hold blocks skipped as unreachable from the old spot.
      unreachable(ctx).clear();
      return bot.entity.position.distanceTo(start) >= 4;
    },
  },
});

/** Gathers `count` items from blocks of a kind (a BT: find → go → dig → collect, explore when nothing is found). */
export const gather = defineBotCapability({
  name: 'gather',
  version: '1.0.0',
  description: 'Collect `count` items from blocks of a kind nearby (find → go → dig → collect; explore when none is found).',
  inputSchema: GatherArgsSchema,
  expectedDurationMs: 120_000,
  effects: (args) => [pred.gained(args.block, args.count)],
  behavior: gatherTree,
  guard: ({ body }, args) => {
    const matches = blockMatcher(body, args.block);
    const kinds = body.registry.blocksArray.filter((block) => matches(block.name));
    if (kinds.length === 0) return guardFailed(`"${args.block}" is neither a block name nor a block group`);
    // Digging by hand what drops nothing without a tool would loop until the timeout: ask for the tool instead
    // (for a group, only when no kind in it can be harvested with what we have).
    const tools = kinds.map((block) => missingHarvestTool(body, block));
    const [tool] = tools;
    return tool && tools.every((missing) => missing !== undefined) ? precondMissing([tool]) : guardOk;
  },
  observe: ({ body }, args) => {
    // Acceptance has no body: remember which item names count for these args (stone → cobblestone).
    const matches = matchers.get(args) ?? matchers.set(args, gatheredItemMatcher(body, args.block));
    const world = observeWorld(body);
    // A post-observe overwrites it too; harmless, as the next attempt observes its own pre first.
    baselines.set(args, countMatching(world.inventory, matches));
    return world;
  },
  acceptance: (pre, post, args) => {
    const matches = matchers.get(args) ?? ((name: string) => name === args.block || name.endsWith(`_${args.block}`));
    const gained = countMatching(post.inventory, matches) - countMatching(pre.inventory, matches);
    return gained >= args.count
      ? accepted
      : effectsUnmet([pred.gained(args.block, args.count)], `gathered ${gained} of ${args.count} ${args.block}`);
  },
});
