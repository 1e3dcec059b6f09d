import { describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { connectBot, setBlock, startServer, sync, GROUND_Y } from '../src/index.js';

const liveTimers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

/** Sends the client's "start digging" packet for a block beside the spawn, as mineflayer's bot.dig does first. */
function startDig(bot: Bot, x: number, sequence: number): void {
  bot._client.write('block_dig', { status: 0, location: { x, y: GROUND_Y + 1, z: 2 }, face: 1, sequence });
}

describe('digs the server was never told the end of', () => {
  it('a dig started over an unfinished one and a bot that quits mid-dig leave no timer behind once the server stops', async () => {
    const before = liveTimers();
    const server = await startServer();
    const bot = await connectBot(server, { username: 'quitter' });
    await setBlock(server, { x: 0, y: GROUND_Y + 1, z: 2 }, 'stone');
    await setBlock(server, { x: 1, y: GROUND_Y + 1, z: 2 }, 'stone');
    startDig(bot, 0, 1);
    await sync(bot);
    startDig(bot, 1, 2); // no cancel of the first: flying-squid started a second animation beside the first
    await sync(bot);
    bot.quit(); // mid-dig: no cancel, no finish
    await server.stop();
    // closing sockets finish on the next loop turns; give them a moment, not a fixed sleep
    for (let i = 0; i < 20 && liveTimers() > before; i++) await new Promise((r) => setTimeout(r, 50));
    expect(liveTimers()).toBe(before);
  });
});
