import type { BotRunContext } from '../body.js';
import type { Block } from '../mc-types.js';
import { waitFor } from './waiting.js';

/** Waits (at most `timeoutMs`) until the body stands on the ground: digging mid-air takes five times longer. */
export async function settle(ctx: BotRunContext, timeoutMs = 1_500): Promise<void> {
  await waitFor(ctx, () => ctx.body.entity.onGround, timeoutMs);
}

/**
 * Equips the best harvest tool, settles and digs `block`; an abort stops the dig. Returns false when
 * the abort came before the dig started (while equipping or settling, stopDigging has nothing to stop).
 */
export async function digWithBestTool(ctx: BotRunContext, block: Block): Promise<boolean> {
  const { body: bot, signal } = ctx;
  // A block body, never `() => bot.stopDigging()`: after the attempt is over the leased body refuses the call
  // with a rejected promise, and a promise an EventTarget listener returns is rejected into an uncaught exception.
  const onAbort = (): void => {
    void bot.stopDigging();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const tool = bot.pathfinder.bestHarvestTool(block);
    if (tool && bot.heldItem?.type !== tool.type) await bot.equip(tool, 'hand');
    await settle(ctx);
    if (signal.aborted) return false;
    await bot.dig(block, true);
    return true;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
