import type { Bot } from 'mineflayer';
import { TestkitError } from './errors.js';
import type { SquidPlayer, SquidServer } from './squid/types.js';

let nextPingId = 1_000_000;

/**
 * Resolves once the player's client has handled every packet sent to it so far: a ping
 * goes after them and mineflayer answers it in order, so the pong is the barrier.
 */
export function roundTrip(player: SquidPlayer, timeoutMs = 5_000): Promise<void> {
  const id = nextPingId++;
  return new Promise<void>((resolve, reject) => {
    const onPong = (packet: { id: number }): void => {
      if (packet.id !== id) return;
      cleanup();
      resolve();
    };
    const onEnd = (): void => {
      cleanup();
      resolve();
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new TestkitError('sync_timeout', `${player.username} did not answer a ping within ${timeoutMs} ms`));
    }, timeoutMs);
    const cleanup = (): void => {
      clearTimeout(timer);
      player._client.off('pong', onPong);
      player._client.off('end', onEnd);
    };
    player._client.on('pong', onPong);
    player._client.on('end', onEnd);
    player._client.write('ping', { id });
  });
}

/** Waits until every connected player has seen what the server sent so far. */
export async function syncAll(serv: SquidServer): Promise<void> {
  await Promise.all(serv.players.filter((p) => !p.disconnected).map((p) => roundTrip(p)));
}

/** Waits until one bot has seen what the server sent it so far. */
export async function syncBot(serv: SquidServer, bot: Bot): Promise<void> {
  const player = serv.getPlayer(bot.username);
  if (player) await roundTrip(player);
}
