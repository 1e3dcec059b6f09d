import { blockKey, fail, formatPredicate, pred, type Vec3 as Position } from '@sinew/executor-contracts';
import { Vec3 } from 'vec3';
import type { BotRunContext } from '../body.js';
import type { SinewBot } from '../bot.js';
import type { Block } from '../mc-types.js';
import { ABORTED, thrown, type Failure } from './failures.js';
import { eyeDistance, occupiedByBot, REACH, toBlockVec } from './geometry.js';
import { STATIONS } from './staircase.js';
import { settleWithin } from './waiting.js';

const FACES = [new Vec3(0, -1, 0), new Vec3(0, 1, 0), new Vec3(1, 0, 0), new Vec3(-1, 0, 0), new Vec3(0, 0, 1), new Vec3(0, 0, -1)];
const REPLACEABLE = new Set(['air', 'cave_air', 'void_air', 'short_grass', 'grass', 'tall_grass', 'water', 'lava', 'snow', 'fern']);

/** Whether a block can be placed into (air or a replaceable plant/fluid). */
export function isReplaceable(block: Block | null | undefined): boolean {
  return block !== null && block !== undefined && REPLACEABLE.has(block.name);
}

/** A solid neighbour to place against and the face vector from it to `position`, or undefined. */
export function placementReference(bot: SinewBot, position: Position): { reference: Block; face: Vec3 } | undefined {
  const target = toBlockVec(position);
  for (const face of FACES) {
    const reference = bot.blockAt(target.minus(face));
    // A click on a station opens it instead (seed 2: a furnace set on the crafting table, stuck on all three attempts).
    if (reference && reference.boundingBox === 'block' && !isReplaceable(reference) && !STATIONS.has(reference.name)) return { reference, face };
  }
  return undefined;
}

/** A free spot next to the bot: replaceable, on solid ground, not where the bot stands. */
export function freeSpotNextTo(bot: SinewBot): Vec3 | undefined {
  const feet = bot.entity.position.floored();
  const ring = [
    [1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1], [2, 0], [-2, 0], [0, 2], [0, -2],
  ] as const;
  for (const dy of [0, 1, -1]) {
    for (const [dx, dz] of ring) {
      const spot = feet.offset(dx, dy, dz);
      if (!isReplaceable(bot.blockAt(spot)) || occupiedByBot(bot, spot)) continue;
      const below = bot.blockAt(spot.offset(0, -1, 0));
      if (below?.boundingBox !== 'block' || !placementReference(bot, spot)) continue;
      if (eyeDistance(bot, spot) <= REACH) return spot;
    }
  }
  return undefined;
}

/**
 * How long a placement waits for the server's block update. A server may drop a placement without a word (flying-squid
 * does when the feet it last saw are in the cell: under load its position update and the placement are handled out of
 * order), and mineflayer's own wait for the update is 5 s, past the executor's 3 s stuck window.
 */
const PLACE_CONFIRM_MS = 2_000;

/**
 * Places the held block against `reference` on `face`: true once the server's update shows `item` in the cell (also
 * when mineflayer gave up on an update that came late), false when none came within {@link PLACE_CONFIRM_MS}. Throws
 * what mineflayer threw when the cell does not hold `item`.
 */
export async function placeConfirmed(ctx: BotRunContext, reference: Block, face: Vec3, item: string): Promise<boolean> {
  const cell = reference.position.plus(face);
  try {
    if (await settleWithin(ctx, ctx.body.placeBlock(reference, face).then(() => true), PLACE_CONFIRM_MS)) return true;
  } catch (error) {
    if (ctx.body.blockAt(cell)?.name !== item) throw error;
  }
  return ctx.body.blockAt(cell)?.name === item;
}

/** Places one block of `item` at `position` (after equipping it); shared with build_structure. */
export async function placeAt(ctx: BotRunContext, item: string, position: Position): Promise<Failure | undefined> {
  const bot = ctx.body;
  const placement = placementReference(bot, position);
  if (!placement) return fail.guardFailed(`nothing solid next to ${blockKey(position)} to place against`);
  const stack = bot.inventory.items().find((candidate) => candidate.name === item);
  if (!stack) return fail.precondMissing(`no ${item} in inventory`, { missing: [formatPredicate(pred.hasItem(item))] });
  try {
    if (bot.heldItem?.name !== item) await bot.equip(stack, 'hand');
    if (ctx.signal.aborted) return ABORTED;
    if (await placeConfirmed(ctx, placement.reference, placement.face, item)) return undefined;
    if (ctx.signal.aborted) return ABORTED;
    return fail.stuck(`the server placed no ${item} at ${blockKey(position)} within ${PLACE_CONFIRM_MS / 1000} s`);
  } catch (error) {
    if (ctx.signal.aborted) return ABORTED;
    return thrown('runner_error', `place ${item} at ${blockKey(position)}`, error);
  }
}
