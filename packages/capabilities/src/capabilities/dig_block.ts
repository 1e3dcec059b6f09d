import { accepted, blockKey, effectsUnmet, fail, guardFailed, guardOk, parseBlockKey, precondMissing, pred, type Predicate, type Vec3, Vec3Schema } from '@sinew/executor-contracts';
import type { Block } from '../mc-types.js';
import { z } from 'zod';
import type { SinewBot } from '../bot.js';
import { defineBotCapability, targetMemo } from '../body.js';
import { digWithBestTool } from '../body/digging.js';
import { ABORTED, thrown } from '../body/failures.js';
import { eyeDistance, isAir, nearestBlock, REACH, toBlockVec } from '../body/geometry.js';
import { missingHarvestTool } from '../body/inventory.js';
import { observeWorld } from '../world.js';

/** Arguments of `dig_block`. */
export const DigBlockArgsSchema = z
  .strictObject({
    position: Vec3Schema.optional(),
    /** Dig the nearest block of this name (or suffix group, e.g. `log`). */
    block: z.string().min(1).optional(),
    maxDistance: z.number().positive().max(256).default(32),
  })
  .refine((args) => (args.position === undefined) !== (args.block === undefined), {
    message: 'give exactly one of position or block',
  });
export type DigBlockArgs = z.output<typeof DigBlockArgsSchema>;

const targets = targetMemo<Vec3>();

function resolveTarget(bot: SinewBot, args: DigBlockArgs): Block | undefined {
  // Once chosen the target is fixed for the step: a dug log must not hand the post snapshot the next log.
  const known = targets.get(args) ?? (args.position ? targets.set(args, args.position) : undefined);
  if (known) return bot.blockAt(toBlockVec(known)) ?? undefined;
  const block = nearestBlock(bot, args.block!, args.maxDistance);
  if (block) targets.set(args, block.position);
  return block;
}

/** Breaks one block (at a position or the nearest of a kind) with the best tool in the inventory. */
export const digBlock = defineBotCapability({
  name: 'dig_block',
  version: '1.0.0',
  description: 'Break the block at a position, or the nearest block of a kind, within reach.',
  inputSchema: DigBlockArgsSchema,
  expectedDurationMs: 20_000,
  preconds: (args) => [pred.withinReach(args.position ?? pred.placeholder('target'))],
  effects: (args) => [pred.airAt(args.position ?? pred.placeholder('target'))],
  guard: ({ body }, args) => {
    const block = resolveTarget(body, args);
    if (!block) {
      return guardFailed(args.block ? `no ${args.block} within ${args.maxDistance} blocks` : `block at ${blockKey(args.position!)} is not loaded`);
    }
    if (isAir(block.name)) return guardFailed(`nothing to dig at ${blockKey(block.position)} (${block.name})`);
    if (block.diggable === false || block.hardness === null || block.hardness < 0) {
      return guardFailed(`${block.name} at ${blockKey(block.position)} cannot be broken`);
    }
    const missing: (string | Predicate)[] = [];
    const tool = missingHarvestTool(body, block);
    if (tool) missing.push(tool);
    if (eyeDistance(body, block.position) > REACH) missing.push(pred.withinReach(block.position));
    return missing.length ? precondMissing(missing) : guardOk;
  },
  observe: ({ body }, args) => {
    const block = resolveTarget(body, args);
    return observeWorld(body, { positions: block ? [block.position] : [] });
  },
  run: async (ctx, args) => {
    const bot = ctx.body;
    const block = resolveTarget(bot, args);
    if (!block || isAir(block.name)) return fail.guardFailed('the block to dig is gone');
    try {
      if (!(await digWithBestTool(ctx, block))) return ABORTED;
      return { ok: true, observables: { block: block.name, position: blockKey(block.position) } };
    } catch (error) {
      return ctx.signal.aborted ? ABORTED : thrown('runner_error', `dig ${block.name}`, error);
    }
  },
  acceptance: (pre, post) => {
    const key = Object.keys(pre.blocks)[0];
    if (!key) return effectsUnmet([pred.airAt(pred.placeholder('target'))], 'no target block was observed before digging');
    const air = pred.airAt(parseBlockKey(key) ?? pred.placeholder('target'));
    const after = post.blocks[key];
    // The target must be observed afterwards: an unobserved block is not evidence of air.
    if (after === undefined) return effectsUnmet([air], `block at ${key} was not observed after digging`);
    return isAir(after) ? accepted : effectsUnmet([air], `block at ${key} is still ${after}`);
  },
});
