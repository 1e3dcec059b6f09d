import { capabilityFactory, EYE_HEIGHT, type RunContext, type RunnerResult, type Vec3 as Vec3Like } from '@sinew/executor-contracts';
import type { Bot } from 'mineflayer';
import pathfinderPackage from 'mineflayer-pathfinder';
import type { Block } from './mc-types.js';
import { Vec3 } from 'vec3';
import type { SinewBot } from './bot.js';
import { createFlapDetector, type FlapPolicyInput } from './flap.js';
import type { ObservedWorld } from './world.js';

const { Movements, goals } = pathfinderPackage;
type Goal = InstanceType<(typeof pathfinderPackage.goals)['Goal']>;

/** `defineCapability` bound to the mineflayer body and the shared world snapshot. */
export const defineBotCapability = capabilityFactory<SinewBot, ObservedWorld>();

export type BotRunContext = RunContext<SinewBot>;
export type Failure = Extract<RunnerResult, { ok: false }>;

/** Reach from the eyes to a block centre, as vanilla survival allows it (≈ 4.5 blocks). */
export const REACH = 4.5;
const AIR = new Set(['air', 'cave_air', 'void_air']);

/** Whether a block name is some kind of air. */
export function isAir(name: string | undefined): boolean {
  return name === undefined || AIR.has(name);
}

/** A `Vec3` from any `{x,y,z}`, floored to a block position. */
export function toBlockVec(position: Vec3Like): Vec3 {
  return new Vec3(Math.floor(position.x), Math.floor(position.y), Math.floor(position.z));
}

/** Distance from the bot's eyes to the centre of the block at `position`. */
export function eyeDistance(bot: Bot, position: Vec3Like): number {
  const eye = bot.entity.position.offset(0, EYE_HEIGHT, 0);
  return eye.distanceTo(toBlockVec(position).offset(0.5, 0.5, 0.5));
}

/** The `within_reach:x,y,z` predicate of a block position. */
export function withinReachPredicate(position: Vec3Like): string {
  const p = toBlockVec(position);
  return `within_reach:${p.x},${p.y},${p.z}`;
}

/**
 * Whether a block name matches a block pattern: the exact name, or a suffix group (`log` → any `*_log`)
 * when the pattern is not itself a block name.
 */
export function blockMatcher(bot: Bot, pattern: string): (name: string) => boolean {
  if (bot.registry.blocksByName[pattern]) return (name) => name === pattern;
  const suffix = `_${pattern}`;
  return (name) => name.endsWith(suffix);
}

/** Ids of every block matching a pattern (see `blockMatcher`). */
export function blockIds(bot: Bot, pattern: string): number[] {
  const matches = blockMatcher(bot, pattern);
  return bot.registry.blocksArray.filter((block) => matches(block.name)).map((block) => block.id);
}

/** The nearest loaded block matching a pattern within `maxDistance`, or undefined. */
export function nearestBlock(bot: Bot, pattern: string, maxDistance: number): Block | undefined {
  const ids = blockIds(bot, pattern);
  if (ids.length === 0) return undefined;
  return bot.findBlock({ matching: ids, maxDistance }) ?? undefined;
}

/** Total count in an inventory record of the items matching a pattern (exact name or suffix group). */
export function countMatching(inventory: Readonly<Record<string, number>>, matches: (name: string) => boolean): number {
  let total = 0;
  for (const [name, count] of Object.entries(inventory)) if (matches(name)) total += count;
  return total;
}

/** Count of one item in the bot's inventory. */
export function countItem(bot: Bot, name: string): number {
  let total = 0;
  for (const item of bot.inventory.items()) if (item.name === name) total += item.count;
  return total;
}

/** The item names a block drops when broken by hand or tool (from minecraft-data), falling back to its own name. */
export function dropNames(bot: Bot, blockName: string): string[] {
  const block = bot.registry.blocksByName[blockName];
  if (!block) return [blockName];
  const names = new Set<string>();
  for (const drop of block.drops ?? []) {
    const id = typeof drop === 'number' ? drop : (drop as { drop?: number | { id: number } }).drop;
    const itemId = typeof id === 'number' ? id : id?.id;
    const item = itemId === undefined ? undefined : bot.registry.items[itemId];
    if (item) names.add(item.name);
  }
  if (names.size === 0 && bot.registry.itemsByName[blockName]) names.add(blockName);
  return [...names];
}

/** Names of the tools that can harvest a block (registry or world block), or undefined when a hand will do. */
export function harvestToolNames(bot: Bot, block: { readonly harvestTools?: Readonly<Record<string, boolean>> }): string[] | undefined {
  const tools = block.harvestTools;
  if (!tools) return undefined;
  return Object.keys(tools)
    .map((id) => bot.registry.items[Number(id)]?.name)
    .filter((name): name is string => name !== undefined);
}

/**
 * `has_item:<cheapest harvest tool>:1` when the block drops nothing by hand and the inventory holds none of
 * its tools (stone → `has_item:wooden_pickaxe:1`), else undefined.
 */
export function missingHarvestTool(bot: Bot, block: { readonly harvestTools?: Readonly<Record<string, boolean>> }): string | undefined {
  const tools = harvestToolNames(bot, block);
  if (!tools || bot.inventory.items().some((item) => tools.includes(item.name))) return undefined;
  const cheapest = tools.find((name) => name.startsWith('wooden_')) ?? tools[0];
  return cheapest ? `has_item:${cheapest}:1` : undefined;
}

/**
 * A per-args memo: guard, observe and runner of one step see the same target (the executor hands them
 * the same parsed args object), so "the nearest oak_log" cannot change between pre and post snapshots.
 */
export function targetMemo<T>(): { get(args: object): T | undefined; set(args: object, value: T): T } {
  const memo = new WeakMap<object, T>();
  return {
    get: (args) => memo.get(args),
    set: (args, value) => {
      memo.set(args, value);
      return value;
    },
  };
}

const movementsByBot = new WeakMap<Bot, InstanceType<typeof Movements>>();

/**
 * Pathfinder movements for a bot, built once (building them scans the registry). Walking never digs or
 * towers: breaking and placing blocks are steps of their own, so a path never changes the world unseen.
 */
export function movementsFor(bot: Bot): InstanceType<typeof Movements> {
  let movements = movementsByBot.get(bot);
  if (!movements) {
    movements = new Movements(bot);
    movements.canDig = false;
    movements.allow1by1towers = false;
    movements.scafoldingBlocks = [];
    movementsByBot.set(bot, movements);
  }
  return movements;
}

/** Waits (at most `timeoutMs`) until the body stands on the ground: digging mid-air takes five times longer. */
export async function settle(bot: Bot, signal: AbortSignal, timeoutMs = 1_500): Promise<void> {
  await waitFor(signal, () => bot.entity.onGround, timeoutMs);
}

/**
 * Equips the best harvest tool, settles and digs `block`; an abort stops the dig. Returns false when
 * the abort came before the dig started (while equipping or settling, stopDigging has nothing to stop).
 */
export async function digWithBestTool(bot: Bot, block: Block, signal: AbortSignal): Promise<boolean> {
  const onAbort = () => bot.stopDigging();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const tool = bot.pathfinder.bestHarvestTool(block);
    if (tool && bot.heldItem?.type !== tool.type) await bot.equip(tool, 'hand');
    await settle(bot, signal);
    if (signal.aborted) return false;
    await bot.dig(block, true);
    return true;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** A pathfinder goal: stand where the eyes are within `reach` of a block's centre (no line-of-sight rule). */
export class GoalWithinReach extends goals.Goal {
  constructor(
    readonly position: Vec3Like,
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
    return this.heuristic(node) === 0;
  }
}

/** Seconds-long window in which the body must move at least `MIN_PROGRESS_BLOCKS` while walking. */
const NO_PROGRESS_MS = 6_000;
const MIN_PROGRESS_BLOCKS = 0.5;

export interface WalkOptions {
  /** Give up after this long (the executor's attempt timeout usually fires first). */
  readonly budgetMs?: number;
  readonly flap?: FlapPolicyInput;
  /** Position sampling interval for flap detection. */
  readonly sampleMs?: number;
}

/**
 * Walks to a pathfinder goal: abortable, FM-04 flap detection, progress on every path update. Resolves
 * undefined when pathfinder says it is done — which can happen without reaching the goal (an empty
 * computed path), so callers must check the position — or a `stuck` failure.
 */
export async function walkTo(ctx: BotRunContext, goal: Goal, options: WalkOptions = {}): Promise<Failure | undefined> {
  const bot = ctx.body;
  const { budgetMs = 60_000, sampleMs = 250 } = options;
  bot.pathfinder.setMovements(movementsFor(bot));
  const flap = createFlapDetector(options.flap);
  const startedAt = ctx.now();
  return new Promise<Failure | undefined>((resolve) => {
    let settled = false;
    // pathfinder keeps re-planning a partial path on the spot (each re-plan clears control states, which looks
    // like activity): the body must actually move, or the walk is stuck.
    let anchor = bot.entity.position.clone();
    let anchorAt = startedAt;
    const onAbort = () => finish({ ok: false, code: 'aborted', reason: 'navigation aborted', retryable: false });
    const timer = setInterval(() => {
      const now = ctx.now();
      if (bot.entity.position.distanceTo(anchor) >= MIN_PROGRESS_BLOCKS) {
        anchor = bot.entity.position.clone();
        anchorAt = now;
      }
      if (flap.sample(bot.entity.position, now)) {
        finish({
          ok: false,
          code: 'stuck',
          reason: `navigation flapping (FM-04): ${flap.reversals(now)} direction reversals within 10 s`,
          retryable: true,
        });
      } else if (now - anchorAt > NO_PROGRESS_MS) {
        finish({ ok: false, code: 'stuck', reason: `no progress toward the goal for ${NO_PROGRESS_MS / 1000} s`, retryable: true });
      } else if (now - startedAt > budgetMs) {
        finish({ ok: false, code: 'timeout', reason: `navigation did not finish within ${budgetMs} ms`, retryable: true });
      }
    }, sampleMs);
    const finish = (failure: Failure | undefined) => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      ctx.signal.removeEventListener('abort', onAbort);
      if (failure) {
        bot.pathfinder.setGoal(null);
        bot.clearControlStates();
      }
      resolve(failure);
    };
    if (ctx.signal.aborted) return onAbort();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    bot.pathfinder.goto(goal).then(
      () => finish(undefined),
      (error: unknown) => {
        const name = error instanceof Error ? error.name : '';
        const message = error instanceof Error ? error.message : String(error);
        if (name === 'NoPath') finish({ ok: false, code: 'stuck', reason: `no path: ${message}`, retryable: false });
        else if (name === 'Timeout') finish({ ok: false, code: 'stuck', reason: `pathfinder gave up: ${message}`, retryable: true });
        else finish({ ok: false, code: 'stuck', reason: `navigation failed: ${message}`, retryable: true });
      },
    );
  });
}

/** Resolves after `ms`, or at once when the signal aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Polls `done` every `stepMs` until it holds (true), the signal aborts or `timeoutMs` passes (then `done()`). */
export async function waitFor(signal: AbortSignal, done: () => boolean, timeoutMs: number, stepMs = 50): Promise<boolean> {
  for (let waited = 0; waited < timeoutMs; waited += stepMs) {
    if (done()) return true;
    if (signal.aborted) return false;
    await pause(stepMs, signal);
  }
  return done();
}

/** A runner failure for an aborted attempt. */
export const ABORTED: Failure = { ok: false, code: 'aborted', reason: 'attempt aborted', retryable: false };

/** A runner failure from anything thrown by mineflayer. */
export function thrown(code: Failure['code'], what: string, error: unknown): Failure {
  return { ok: false, code: code ?? 'runner_error', reason: `${what}: ${error instanceof Error ? error.message : String(error)}` };
}
