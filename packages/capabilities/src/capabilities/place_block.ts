import { accepted, blockKey, effectsUnmet, fail, guardFailed, guardOk, parseBlockKey, precondMissing, pred, type Predicate, type Vec3, Vec3Schema } from '@sinew/executor-contracts';
import { z } from 'zod';
import type { SinewBot } from '../bot.js';
import { defineBotCapability, targetMemo } from '../body.js';
import { eyeDistance, occupiedByBot, REACH, toBlockVec } from '../body/geometry.js';
import { countItem } from '../body/inventory.js';
import { freeSpotNextTo, isReplaceable, placeAt, placementReference } from '../body/placing.js';
import { observeWorld } from '../world.js';

/** Arguments of `place_block`. */
export const PlaceBlockArgsSchema = z.strictObject({
  item: z.string().min(1),
  /** Where to place it; default: a free spot next to the bot. */
  position: Vec3Schema.optional(),
});
export type PlaceBlockArgs = z.output<typeof PlaceBlockArgsSchema>;

const targets = targetMemo<Vec3>();

function resolveTarget(bot: SinewBot, args: PlaceBlockArgs): Vec3 | undefined {
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
  preconds: (args) => [pred.hasItem(args.item), pred.withinReach(args.position ?? pred.placeholder('position'))],
  effects: (args) => [pred.blockAt(args.position ?? pred.placeholder('position'), args.item)],
  guard: ({ body }, args) => {
    if (!body.registry.blocksByName[args.item]) return guardFailed(`${args.item} is not a placeable block`);
    const missing: (string | Predicate)[] = [];
    if (countItem(body, args.item) < 1) missing.push(pred.hasItem(args.item));
    const position = resolveTarget(body, args);
    if (!position) return guardFailed('no free spot next to the bot to place on');
    const current = body.blockAt(toBlockVec(position));
    if (!current) return guardFailed(`${blockKey(position)} is not loaded`);
    // The step's effect already holds (placed before a preemption, or by someone else): done, nothing needed.
    if (current.name === args.item) return guardOk;
    if (!isReplaceable(current)) return guardFailed(`${blockKey(position)} is occupied by ${current.name}`);
    if (occupiedByBot(body, position)) return guardFailed(`the bot stands in ${blockKey(position)}`);
    if (!placementReference(body, position)) return guardFailed(`nothing solid next to ${blockKey(position)} to place against`);
    if (eyeDistance(body, position) > REACH) missing.push(pred.withinReach(position));
    return missing.length ? precondMissing(missing) : guardOk;
  },
  observe: ({ body }, args) => {
    const position = resolveTarget(body, args);
    return observeWorld(body, { positions: position ? [position] : [] });
  },
  run: async (ctx, args) => {
    const position = resolveTarget(ctx.body, args);
    if (!position) return fail.guardFailed('no free spot to place on');
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

