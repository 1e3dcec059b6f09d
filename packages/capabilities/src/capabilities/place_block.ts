import { accepted, blockKey, effectsUnmet, formatPredicate, guardFailed, guardOk, parseBlockKey, precondMissing, pred, type Predicate, type Vec3 as Position, Vec3Schema } from '@sinew/executor-contracts';
import type { Block } from '../mc-types.js';
import { Vec3 } from 'vec3';
import { z } from 'zod';
import type { SinewBot } from '../bot.js';
import {
  ABORTED,
  countItem,
  defineBotCapability,
  eyeDistance,

  REACH,
  targetMemo,
  thrown,
  toBlockVec,
  withinReachPredicate,
  type BotRunContext,
  type Failure,
} from '../body.js';
import { observeWorld } from '../world.js';

export const PlaceBlockArgsSchema = z.strictObject({
  item: z.string().min(1),
  /** Where to place it; default: a free spot next to the bot. */
  position: Vec3Schema.optional(),
});
export type PlaceBlockArgs = z.output<typeof PlaceBlockArgsSchema>;

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
    if (reference && reference.boundingBox === 'block' && !isReplaceable(reference)) return { reference, face };
  }
  return undefined;
}

/** Whether the bot's body (its 0.6 × 1.8 box, which can reach into a neighbouring column) overlaps a block position. */
export function occupiedByBot(bot: SinewBot, position: Position): boolean {
  const { x, y, z } = bot.entity.position;
  const target = toBlockVec(position);
  const overlaps = (low: number, high: number, cell: number) => low < cell + 1 && high > cell;
  // The server refuses a block placed into the player, and mineflayer then waits for an update that never comes.
  return overlaps(x - 0.3, x + 0.3, target.x) && overlaps(z - 0.3, z + 0.3, target.z) && overlaps(y, y + 1.8, target.y);
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
      if (below?.boundingBox !== 'block') continue;
      if (eyeDistance(bot, spot) <= REACH) return spot;
    }
  }
  return undefined;
}

/** Places one block of `item` at `position` (after equipping it); shared with build_structure and pillar_up. */
export async function placeAt(ctx: BotRunContext, item: string, position: Position): Promise<Failure | undefined> {
  const bot = ctx.body;
  const placement = placementReference(bot, position);
  if (!placement) return { ok: false, code: 'guard_failed', reason: `nothing solid next to ${blockKey(position)} to place against`, retryable: false };
  const stack = bot.inventory.items().find((candidate) => candidate.name === item);
  if (!stack) return { ok: false, code: 'precond_missing', reason: `no ${item} in inventory`, missing: [formatPredicate(pred.hasItem(item))], retryable: false };
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

const targets = targetMemo<Position>();

function resolveTarget(bot: SinewBot, args: PlaceBlockArgs): Position | undefined {
  if (args.position) return args.position;
  return targets.get(args) ?? (() => {
    const spot = freeSpotNextTo(bot);
    return spot ? targets.set(args, spot) : undefined;
  })();
}

/** Places a block from the inventory at a position, or on a free spot next to the bot. */
export const placeBlock = defineBotCapability({
  name: 'place_block',
  version: '1.0.0',
  description: 'Place a block from the inventory at a position (default: a free spot next to the bot).',
  inputSchema: PlaceBlockArgsSchema,
  expectedDurationMs: 10_000,
  preconds: ['has_item:<item>:1', 'within_reach:<position>'],
  effects: ['block:<position>=<item>'],
  guard: ({ body }, args) => {
    if (!body.registry.blocksByName[args.item]) return guardFailed(`${args.item} is not a placeable block`);
    const missing: (string | Predicate)[] = [];
    if (countItem(body, args.item) < 1) missing.push(pred.hasItem(args.item));
    const position = resolveTarget(body, args);
    if (!position) return guardFailed('no free spot next to the bot to place on');
    const current = body.blockAt(toBlockVec(position));
    if (!current) return guardFailed(`${blockKey(position)} is not loaded`);
    if (current.name === args.item) return missing.length ? precondMissing(missing) : guardOk;
    if (!isReplaceable(current)) return guardFailed(`${blockKey(position)} is occupied by ${current.name}`);
    if (occupiedByBot(body, position)) return guardFailed(`the bot stands in ${blockKey(position)}`);
    if (!placementReference(body, position)) return guardFailed(`nothing solid next to ${blockKey(position)} to place against`);
    if (eyeDistance(body, position) > REACH) missing.push(withinReachPredicate(position));
    return missing.length ? precondMissing(missing) : guardOk;
  },
  observe: ({ body }, args) => {
    const position = resolveTarget(body, args);
    return observeWorld(body, { positions: position ? [position] : [] });
  },
  run: async (ctx, args) => {
    const position = resolveTarget(ctx.body, args);
    if (!position) return { ok: false, code: 'guard_failed', reason: 'no free spot to place on', retryable: false };
    if (ctx.body.blockAt(toBlockVec(position))?.name === args.item) return { ok: true, observables: { position: blockKey(position), already: true } };
    const failure = await placeAt(ctx, args.item, position);
    return failure ?? { ok: true, observables: { position: blockKey(position) } };
  },
  acceptance: (pre, post, args) => {
    const key = Object.keys(pre.blocks)[0];
    if (!key) return effectsUnmet([pred.blockAt(pred.placeholder('position'), args.item)], 'no target position was observed');
    return post.blocks[key] === args.item
      ? accepted
      : effectsUnmet([pred.blockAt(parseBlockKey(key) ?? pred.placeholder('position'), args.item)], `block at ${key} is ${post.blocks[key]}, not ${args.item}`);
  },
});

