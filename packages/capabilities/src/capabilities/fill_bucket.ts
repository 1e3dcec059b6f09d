import { accepted, blockKey, effectsUnmet, fail, guardFailed, guardOk, precondMissing, pred } from '@sinew/executor-contracts';
import { EYE_HEIGHT } from '@sinew/executor-contracts/minecraft';
import pathfinderPackage from 'mineflayer-pathfinder';
import { iterators } from 'prismarine-world';
import { Vec3 } from 'vec3';
import { z } from 'zod';
import type { SinewBot } from '../bot.js';
import type { BotRunContext } from '../body.js';
import { defineBotCapability } from '../body.js';
import { findBlockPositions } from '../body/block-search.js';
import { ABORTED, thrown, type Failure } from '../body/failures.js';
import { eyeDistance, isAir } from '../body/geometry.js';
import { countItem } from '../body/inventory.js';
import { climbMovementsFor } from '../body/mining.js';
import { waitFor } from '../body/waiting.js';
import { GoalWithinReach, walkTo } from '../body/walking.js';
import { observeWorld } from '../world.js';

const { goals } = pathfinderPackage;

/** The filled bucket each fluid gives. */
const FILLED = { water: 'water_bucket', lava: 'lava_bucket' } as const;

/** Arguments of `fill_bucket`. */
export const FillBucketArgsSchema = z.strictObject({
  /** The fluid to take: a source block of it (flowing fluid does not fill a bucket). */
  fluid: z.enum(['water', 'lava']).default('water'),
  /** How many empty buckets to fill (buckets stack to 16). */
  count: z.number().int().positive().max(16).default(1),
  /** How far to look for a source. */
  maxDistance: z.number().positive().max(64).default(32),
});
/** Parsed arguments of `fill_bucket`. */
export type FillBucketArgs = z.output<typeof FillBucketArgsSchema>;

/** Eyes to the source's centre: vanilla's bucket ray reaches 5 blocks (1.20.4); half a block spare for the aim. */
const BUCKET_REACH = 4.5;
/** How many sources one step tries beyond one per bucket (a source seen across a bank may not be in view from it). */
const SPARE_SOURCES = 3;
const FILL_WAIT_MS = 2_000;
const LOOK_SENT_MS = 1_000;
const SETTLE_MS = 1_500;

/** Positions of `fluid` sources (level 0) with air above — a surface a bucket can reach from the bank — nearest first. */
function sources(bot: SinewBot, args: FillBucketArgs, skip: ReadonlySet<string>, count: number): Vec3[] {
  const id = bot.registry.blocksByName[args.fluid]?.id;
  if (id === undefined) return [];
  const isSource = (p: Vec3): boolean => bot.blockAt(p)?.metadata === 0 && isAir(bot.blockAt(p.offset(0, 1, 0))?.name) && !skip.has(blockKey(p));
  return findBlockPositions(bot, { matching: [id], maxDistance: args.maxDistance, count, accept: isSource });
}

/**
 * Where to aim at a surface source so the ray enters through its top face: the top centre (just under the fluid's 8/9
 * surface), else the centre. The centre over a bank at a shallow angle crosses the bank's edge first (the ray stops
 * there). Null when neither is in clear view: only air and flowing fluid between the eyes and the source.
 */
function aimAt(bot: SinewBot, source: Vec3, eyes = bot.entity.position.offset(0, EYE_HEIGHT, 0)): Vec3 | null {
  return [source.offset(0.5, 0.85, 0.5), source.offset(0.5, 0.5, 0.5)].find((aim) => clearView(bot, eyes, aim, source)) ?? null;
}

function clearView(bot: SinewBot, eyes: Vec3, aim: Vec3, source: Vec3): boolean {
  const cells = new iterators.RaycastIterator(eyes, aim.minus(eyes).normalize(), eyes.distanceTo(aim) + 1);
  for (let cell = cells.next(); cell; cell = cells.next()) {
    if (cell.x === source.x && cell.y === source.y && cell.z === source.z) return true;
    const block = bot.blockAt(new Vec3(cell.x, cell.y, cell.z));
    const flowing = (block?.name === 'water' || block?.name === 'lava') && block.metadata !== 0;
    if (!block || !(isAir(block.name) || flowing)) return false;
  }
  return false;
}

/** Aims at the source and uses the held bucket once the server has the aim: true when a filled bucket arrived. */
async function useBucketOn(ctx: BotRunContext, source: Vec3, filled: string): Promise<boolean> {
  const bot = ctx.body;
  const before = countItem(bot, filled);
  const bucket = bot.inventory.items().find((item) => item.name === 'bucket');
  if (!bucket) return false;
  if (bot.heldItem?.name !== 'bucket') await bot.equip(bucket, 'hand');
  // The aim is computed from where the body stands: a body still sinking into a pond's edge aims too steep.
  await waitFor(ctx, stillness(bot), SETTLE_MS);
  const aim = aimAt(bot, source);
  // Progress notes between the waits: none of them may add up to the stuck window (3 s) on a loaded machine.
  ctx.progress(aim ? `aim at ${blockKey(source)}` : `${blockKey(source)} is not in clear view`);
  if (!aim) return false;
  // A forced look is sent with the next physics tick's movement packet ('move'); the server reads the aim from it.
  let sent = false;
  const onMove = (): void => void (sent = true);
  bot.once('move', onMove);
  try {
    await bot.lookAt(aim, true);
    await waitFor(ctx, () => sent, LOOK_SENT_MS);
  } finally {
    bot.off('move', onMove);
  }
  bot.activateItem();
  ctx.progress(`bucket used at ${blockKey(source)}`);
  const arrived = await waitFor(ctx, () => countItem(bot, filled) > before, FILL_WAIT_MS);
  bot.deactivateItem();
  return arrived;
}

/** A check that holds once the body has not moved for three polls in a row. */
function stillness(bot: SinewBot): () => boolean {
  let last = bot.entity.position.clone();
  let still = 0;
  return () => {
    still = bot.entity.position.distanceTo(last) < 0.01 ? still + 1 : 0;
    last = bot.entity.position.clone();
    return still >= 3;
  };
}

/**
 * Get a source in view: the search heads for its bank (beside the air over it, feet level with the fluid's top) and
 * ends there or at any cell on the way with the source in reach and in clear view. With "in reach and in view" as its
 * only aim, the search first tried every cell in reach behind the rock; with the bank alone, it found none where a
 * cave's floor is all lava.
 */
class GoalBank extends goals.Goal {
  constructor(
    private readonly bot: SinewBot,
    private readonly source: Vec3,
  ) {
    super();
  }
  heuristic(node: { x: number; y: number; z: number }): number {
    return Math.hypot(node.x - this.source.x, node.y - this.source.y - 1, node.z - this.source.z);
  }
  isEnd(node: { x: number; y: number; z: number }): boolean {
    if (node.y === this.source.y + 1 && Math.max(Math.abs(node.x - this.source.x), Math.abs(node.z - this.source.z)) === 1) return true;
    const eyes = new Vec3(node.x + 0.5, node.y + EYE_HEIGHT, node.z + 0.5);
    return eyes.distanceTo(this.source.offset(0.5, 0.5, 0.5)) <= BUCKET_REACH - 1 && aimAt(this.bot, this.source, eyes) !== null;
  }
}

/**
 * Walks within a bucket's reach of one source and fills a bucket from it: undefined when filled, else why not. A body
 * holding a pickaxe walks with the mine's climbing movements toward the source's bank, so a source no walk reaches
 * (a cave's lava pool behind the rock a mine stairs through, a walled pond) is dug to: pathfinder digs (never a block
 * next to fluid) and sets the blocks it carries as floor (a cave's floor beside its pool is lava too: seed 10, y -55).
 */
async function fillFrom(ctx: BotRunContext, source: Vec3, filled: string): Promise<Failure | 'missed' | undefined> {
  // With a pickaxe, one walk that may dig (pathfinder prices a dig above a step, so an open way is walked). On foot
  // first and digging after cost a search of all the open ground around a walled source, long enough under load
  // (no path found, nothing sent) for the step's 3 s stuck watchdog to end it.
  const digs = ctx.body.inventory.items().some((item) => item.name.endsWith('_pickaxe'));
  const walked = digs
    ? await walkTo(ctx, new GoalBank(ctx.body, source), { budgetMs: 60_000, movements: climbMovementsFor(ctx.body) })
    : await walkTo(ctx, new GoalWithinReach(source, BUCKET_REACH - 1), { budgetMs: 60_000 });
  if (walked?.code === 'aborted' || ctx.signal.aborted) return ABORTED;
  if (eyeDistance(ctx.body, source) > BUCKET_REACH) return 'missed';
  return (await useBucketOn(ctx, source, filled)) ? undefined : 'missed';
}

/** Fills `count` empty buckets from the nearest sources of a fluid. */
export const fillBucket = defineBotCapability({
  name: 'fill_bucket',
  version: '1.0.0',
  description: 'Fill `count` empty buckets from the nearest water (or lava) source blocks: walk to the bank (holding a pickaxe, dig a way there), aim at a source, use the bucket.',
  inputSchema: FillBucketArgsSchema,
  expectedDurationMs: 60_000,
  preconds: (args) => [pred.hasItem('bucket', args.count)],
  effects: (args) => [pred.gained(typeof args.fluid === 'string' ? FILLED[args.fluid] : pred.placeholder('filled_bucket'), args.count)],
  guard: ({ body }, args) => {
    if (countItem(body, 'bucket') < args.count) return precondMissing([pred.hasItem('bucket', args.count)]);
    if (sources(body, args, new Set(), 1).length === 0) return guardFailed(`no ${args.fluid} source with open air above within ${args.maxDistance} blocks`);
    return guardOk;
  },
  observe: ({ body }) => observeWorld(body),
  run: async (ctx, args) => {
    const filled = FILLED[args.fluid];
    const tried = new Set<string>();
    const filledFrom: string[] = [];
    while (filledFrom.length < args.count) {
      const done = filledFrom.length;
      if (tried.size >= args.count + SPARE_SOURCES) return fail.effectsUnmet(`filled ${done} of ${args.count}: ${tried.size} ${args.fluid} sources tried (${[...tried].join(' ')})`);
      const [source] = sources(ctx.body, args, tried, 1);
      if (!source) return fail.guardFailed(`filled ${done} of ${args.count}: no ${args.fluid} source left within ${args.maxDistance} blocks`);
      tried.add(blockKey(source));
      ctx.progress(`${args.fluid} source ${blockKey(source)}: walk within reach`);
      try {
        const result = await fillFrom(ctx, source, filled);
        if (result === 'missed') continue;
        if (result) return result;
      } catch (error) {
        return ctx.signal.aborted ? ABORTED : thrown('runner_error', `fill a bucket at ${blockKey(source)}`, error);
      }
      filledFrom.push(blockKey(source));
      ctx.progress(`filled ${filledFrom.length} of ${args.count} from ${blockKey(source)}`);
    }
    return { ok: true, observables: { filledFrom, missed: tried.size - filledFrom.length } };
  },
  acceptance: (pre, post, args) => {
    const item = FILLED[args.fluid];
    const gained = (post.inventory[item] ?? 0) - (pre.inventory[item] ?? 0);
    return gained >= args.count ? accepted : effectsUnmet([pred.gained(item, args.count)], `${item} rose by ${gained}, not ${args.count}`);
  },
});
