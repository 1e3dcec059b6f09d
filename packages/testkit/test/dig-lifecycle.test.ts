import { createHook } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { connectBot, setBlock, startServer, sync, GROUND_Y } from '../src/index.js';

/** A Node timer as async_hooks hands it over: `_destroyed` is set once it fired or was cleared (its destroy hook comes later). */
type TimerResource = { hasRef(): boolean; _destroyed?: boolean };

/**
 * Counts the timers created while it tracks that are still pending and hold the process open. Only those: test files
 * share a worker, and timers an earlier file left (a library's 20 s race, say) would otherwise come and go mid-test.
 */
function trackTimers(): { live(): number; stop(): void } {
  const created = new Map<number, TimerResource>();
  const hook = createHook({
    init: (id, type, _trigger, resource) => void (type === 'Timeout' && created.set(id, resource as TimerResource)),
    destroy: (id) => void created.delete(id),
  }).enable();
  return { live: () => [...created.values()].filter((timer) => !timer._destroyed && timer.hasRef()).length, stop: () => void hook.disable() };
}

/** Sends the client's "start digging" packet for a block beside the spawn, as mineflayer's bot.dig does first. */
function startDig(bot: Bot, x: number, sequence: number): void {
  bot._client.write('block_dig', { status: 0, location: { x, y: GROUND_Y + 1, z: 2 }, face: 1, sequence });
}

describe('digs the server was never told the end of', () => {
  it('a dig started over an unfinished one and a bot that quits mid-dig leave no timer behind once the server stops', async () => {
    const timers = trackTimers();
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
    for (let i = 0; i < 20 && timers.live() > 0; i++) await new Promise((r) => setTimeout(r, 50));
    timers.stop();
    expect(timers.live()).toBe(0);
  });
});
