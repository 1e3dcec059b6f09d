import { accepted, effectsUnmet, fail, formatPredicate, guardFailed, guardOk, precondMissing, pred } from '@sinew/executor-contracts';
import { SCAFFOLD_BLOCKS } from '@sinew/executor-contracts/minecraft';
import { Vec3 } from 'vec3';
import { z } from 'zod';
import type { SinewBot } from '../bot.js';
import { defineBotCapability } from '../body.js';
import { ABORTED, thrown } from '../body/failures.js';
import { countItem } from '../body/inventory.js';
import { isReplaceable, placeConfirmed } from '../body/placing.js';
import { waitFor } from '../body/waiting.js';
import { observeWorld } from '../world.js';

/** Arguments of `pillar_up`. */
export const PillarUpArgsSchema = z.strictObject({
  height: z.number().int().positive().max(32),
  /** The block to stand on; default: the first of dirt, cobblestone, planks, … in the inventory. */
  item: z.string().min(1).optional(),
});
export type PillarUpArgs = z.output<typeof PillarUpArgsSchema>;

const JUMP_TIMEOUT_MS = 1_500;
/** Placements the server dropped in one pillar (no block update: see `placeConfirmed`) before it ends stuck. */
const MAX_DROPPED = 3;

/** The scaffold block to use: the named one, else the first common one the bot holds enough of. */
export function scaffoldItem(bot: SinewBot, height: number, item?: string): string | undefined {
  if (item) return item;
  return SCAFFOLD_BLOCKS.find((name) => countItem(bot, name) >= height) ?? SCAFFOLD_BLOCKS.find((name) => countItem(bot, name) > 0);
}

/** Jumps and places a block underneath, `height` times. */
export const pillarUp = defineBotCapability({
  name: 'pillar_up',
  version: '1.0.0',
  description: 'Rise `height` blocks by jumping and placing a block underneath each time.',
  inputSchema: PillarUpArgsSchema,
  expectedDurationMs: 20_000,
  preconds: (args) => [pred.hasItem(args.item ?? pred.placeholder('block'), args.height)],
  effects: (args) => [pred.rose(args.height)],
  guard: ({ body }, args) => {
    const item = scaffoldItem(body, args.height, args.item);
    if (!item || countItem(body, item) < args.height) return precondMissing([pred.hasItem(item ?? 'dirt', args.height)]);
    if (!body.registry.blocksByName[item]) return guardFailed(`${item} is not a placeable block`);
    const feet = body.entity.position.floored();
    for (let dy = 2; dy <= args.height + 1; dy += 1) {
      const above = body.blockAt(feet.offset(0, dy, 0));
      if (!isReplaceable(above)) return guardFailed(`no head room: ${above?.name ?? 'unloaded'} ${dy} blocks above`);
    }
    return guardOk;
  },
  observe: ({ body }) => observeWorld(body),
  run: async (ctx, args) => {
    const bot = ctx.body;
    const item = scaffoldItem(bot, args.height, args.item);
    const stack = item ? bot.inventory.items().find((candidate) => candidate.name === item) : undefined;
    if (!item || !stack) return fail.precondMissing('no scaffold blocks', { missing: [formatPredicate(pred.hasItem(item ?? 'dirt', args.height))] });
    try {
      await bot.equip(stack, 'hand');
      // Centre on the block so the new block never clips the body.
      const centre = bot.entity.position.floored().offset(0.5, 0, 0.5);
      await bot.lookAt(centre.offset(0, -1, 0), true);
      let dropped = 0;
      for (let level = 0; level < args.height; ) {
        if (ctx.signal.aborted) return ABORTED;
        const standY = Math.floor(bot.entity.position.y);
        const support = bot.blockAt(new Vec3(Math.floor(bot.entity.position.x), standY - 1, Math.floor(bot.entity.position.z)));
        if (!support) return fail.runnerError('standing on an unloaded block');
        bot.setControlState('jump', true);
        const rose = await waitFor(ctx, () => bot.entity.position.y >= standY + 1.05, JUMP_TIMEOUT_MS, 25);
        bot.setControlState('jump', false);
        if (!rose) return fail.stuck(`could not jump above y=${standY}`);
        const confirmed = await placeConfirmed(ctx, support, new Vec3(0, 1, 0), item);
        await waitFor(ctx, () => bot.entity.onGround, JUMP_TIMEOUT_MS, 25);
        // The update may come late (the body then lands on the block) or never (the placement was dropped: jump again).
        if (!confirmed && bot.blockAt(support.position.offset(0, 1, 0))?.name !== item) {
          dropped += 1;
          if (dropped >= MAX_DROPPED) return fail.stuck(`the server placed no block under ${dropped} jumps at y=${standY}`);
          ctx.progress(`level ${level + 1}: no block placed, jumping again`);
          continue;
        }
        level += 1;
        ctx.progress(`level ${level}`);
      }
      return { ok: true, observables: { y: bot.entity.position.y, dropped } };
    } catch (error) {
      return ctx.signal.aborted ? ABORTED : thrown('runner_error', 'pillar up', error);
    } finally {
      bot.setControlState('jump', false);
    }
  },
  acceptance: (pre, post, args) => {
    const rose = Math.floor(post.position.y + 0.01) - Math.floor(pre.position.y + 0.01);
    return rose >= args.height ? accepted : effectsUnmet([pred.rose(args.height)], `rose ${rose} of ${args.height} blocks`);
  },
});
