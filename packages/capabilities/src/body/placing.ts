import { blockKey, fail, formatPredicate, pred, type Vec3 as Position } from '@sinew/executor-contracts';
import { Vec3 } from 'vec3';
import type { BotRunContext } from '../body.js';
import type { SinewBot } from '../bot.js';
import type { Block } from '../mc-types.js';
import { ABORTED, thrown, type Failure } from './failures.js';
import { eyeDistance, occupiedByBot, REACH, toBlockVec } from './geometry.js';
import { STATIONS } from './staircase.js';

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

/** Places one block of `item` at `position` (after equipping it); shared with build_structure and pillar_up. */
export async function placeAt(ctx: BotRunContext, item: string, position: Position): Promise<Failure | undefined> {
  const bot = ctx.body;
  const placement = placementReference(bot, position);
  if (!placement) return fail.guardFailed(`nothing solid next to ${blockKey(position)} to place against`);
  const stack = bot.inventory.items().find((candidate) => candidate.name === item);
  if (!stack) return fail.precondMissing(`no ${item} in inventory`, { missing: [formatPredicate(pred.hasItem(item))] });
  try {
    if (bot.heldItem?.name !== item) await bot.equip(stack, 'hand');
    if (ctx.signal.aborted) return ABORTED;
    await bot.placeBlock(placement.reference, placement.face);
    return undefined;
  } catch (error) {
    if (ctx.signal.aborted) return ABORTED;
    // mineflayer rejects when the server's block update is late; the world decides.
    if (bot.blockAt(toBlockVec(position))?.name === item) return undefined;
    return thrown('runner_error', `place ${item} at ${blockKey(position)}`, error);
  }
}
