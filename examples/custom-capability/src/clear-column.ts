import { accepted, blockKey, effectsUnmet, fail, guardOk, precondMissing, Vec3Schema } from '@sinew/executor-contracts';
import { defineBotCapability, observeWorld, REACH, type SinewBot } from '@sinew/capabilities';
import { Vec3 } from 'vec3';
import { z } from 'zod';

export const ClearColumnArgsSchema = z.strictObject({
  /** The lowest block of the column. */
  base: Vec3Schema,
  /** How many blocks, upwards from `base`. */
  height: z.number().int().min(1).max(4),
});
export type ClearColumnArgs = z.output<typeof ClearColumnArgsSchema>;

const AIR = new Set(['air', 'cave_air', 'void_air']);
const EYE_HEIGHT = 1.62;

/** The block positions of the column, bottom to top (floored). */
function column({ base, height }: ClearColumnArgs): Vec3[] {
  const bottom = new Vec3(base.x, base.y, base.z).floored();
  return Array.from({ length: height }, (_, i) => bottom.offset(0, i, 0));
}

/** Whether every block of the column is within reach of the bot's eyes. */
function inReach(bot: SinewBot, args: ClearColumnArgs): boolean {
  const eyes = bot.entity.position.offset(0, EYE_HEIGHT, 0);
  return column(args).every((block) => eyes.distanceTo(block.offset(0.5, 0.5, 0.5)) <= REACH);
}

/**
 * A user's own capability: dig out a 1×N column of blocks (to open a doorway, reach an ore, drain a
 * pillar). The guard asks to come closer, the runner digs top-down and stops on abort, and the
 * acceptance reads the world after the step: every block of the column must be air.
 */
export const clearColumn = defineBotCapability({
  name: 'clear_column',
  version: '1.0.0',
  description: 'Dig out a vertical column of blocks (height 1-4) standing within reach of it.',
  inputSchema: ClearColumnArgsSchema,
  expectedDurationMs: 8_000,
  preconds: ['within_reach'],
  effects: ['column:air'],
  observe: ({ body }, args) => observeWorld(body, { positions: column(args) }),
  guard: ({ body }, args) => (inReach(body, args) ? guardOk : precondMissing(['within_reach'], `the column at ${blockKey(args.base)} is beyond reach ${REACH}`)),
  run: async (ctx, args) => {
    const bot = ctx.body;
    const stop = () => bot.stopDigging();
    ctx.signal.addEventListener('abort', stop, { once: true });
    try {
      // Top-down, so nothing above a dug block falls into it.
      for (const position of column(args).reverse()) {
        if (ctx.signal.aborted) return fail.aborted('attempt aborted');
        const block = bot.blockAt(position);
        if (block && !AIR.has(block.name)) await bot.dig(block, true);
      }
      return { ok: true };
    } finally {
      ctx.signal.removeEventListener('abort', stop);
    }
  },
  acceptance: (_pre, post, args) => {
    const solid = column(args).filter((p) => !AIR.has(post.blocks[blockKey(p)] ?? 'unknown'));
    return solid.length === 0 ? accepted : effectsUnmet(['column:air'], `still solid: ${solid.map((p) => blockKey(p)).join(' ')}`);
  },
});
