import type { BotRunContext } from '../body.js';
import type { Block } from '../mc-types.js';
import { waitFor } from './waiting.js';

/** How long the server may take to answer a finished dig before the dig counts as failed (its clock). */
const SERVER_ANSWER_MS = 10_000;
/** How many times one attempt digs a block the server keeps sending back. */
const REFUSED_DIGS = 3;

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
    for (let digs = 1; ; digs += 1) {
      const answer = serverAnswer(bot, block);
      try {
        await bot.dig(block, true);
        // The dig itself is progress (a log by hand takes the whole 3 s stuck window): the wait for the answer starts here.
        ctx.progress(`dug ${block.name} at ${block.position.toString()}, waiting for the server's answer`);
        if (!(await waitFor(ctx, answer.given, SERVER_ANSWER_MS))) {
          if (signal.aborted) return true;
          throw new Error(`the server did not answer the dig of ${block.name} at ${block.position.toString()} within ${SERVER_ANSWER_MS} ms`);
        }
      } finally {
        answer.stop();
      }
      // The server sent the block back (the finish came too soon by its clock, as when it stalled between start and
      // finish): dig on, as a player holding the button does; acceptance judges what the server finally says.
      if (digs >= REFUSED_DIGS || signal.aborted || bot.blockAt(block.position)?.name !== block.name) return true;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * Whether the server has answered the dig about to start (read once `dig` resolved). mineflayer resolves `dig` on its
 * own prediction: it sets the block to air as it sends the finish, so the client's view reads air even when the
 * server refuses the finish (too early for the dig time) and sends the block back a moment later. The server
 * acknowledges each dig action in order (start, finish, and the cancel mineflayer sends first when an earlier dig was
 * still targeted), after any correction of the block: once every ack arrived, or the block is back, the client's
 * view is the server's. Versions before 1.14 send no acks, and flying-squid none in creative (no dig time to refuse).
 */
function serverAnswer(bot: BotRunContext['body'], block: Block): { given: () => boolean; stop: () => void } {
  if (!bot.supportFeature('acknowledgePlayerDigging') || bot.game.gameMode === 'creative') return { given: () => true, stop: () => undefined };
  const owed = bot.targetDigBlock ? 3 : 2;
  let acks = 0;
  const onAck = () => void (acks += 1);
  bot._client.on('acknowledge_player_digging', onAck);
  return {
    given: () => acks >= owed || (bot.blockAt(block.position)?.type ?? 0) !== 0,
    stop: () => void bot._client.off('acknowledge_player_digging', onAck),
  };
}
