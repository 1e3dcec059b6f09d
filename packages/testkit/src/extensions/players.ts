import type { SquidEntity, SquidPlayer } from '../squid/types.js';
import type { ExtensionContext } from './context.js';

/**
 * Players as players: the entity type of a player, the tab list sent to the newcomer too
 * (flying-squid sends it only to the others), removal with the 1.19.3+ packet, and the
 * latency timer flying-squid starts per login made stoppable.
 */
export function installPlayers(ctx: ExtensionContext): void {
  const { serv } = ctx;
  const playerType = serv.registry.entitiesByName.player?.id ?? null;

  const entryOf = (p: SquidPlayer): Record<string, unknown> => ({
    uuid: p.uuid,
    player: { name: p.username, properties: p.profileProperties ?? [] },
    gamemode: p.gameMode,
    listed: 1,
    latency: p._client.latency ?? 0,
  });
  const addAction = { add_player: true, update_game_mode: true, update_listed: true, update_latency: true };

  // A client resets its player list and entities on its login packet, so nothing about other
  // players may reach it before that: players become visible once their own list is sent
  // (login.js does that after the login packet), and then they receive everyone.
  const listed = new WeakSet<SquidEntity>();
  const getNearbyEntities = serv.getNearbyEntities;
  serv.getNearbyEntities = (query) => getNearbyEntities(query).filter((e) => e.type !== 'player' || listed.has(e));

  const sendPlayerList = (toPlayer: SquidPlayer): void => {
    listed.add(toPlayer);
    const everyone = serv.players.filter((p) => listed.has(p));
    toPlayer._client.write('player_info', { action: addAction, data: everyone.map(entryOf) });
    for (const other of everyone) {
      if (other !== toPlayer) other._client.write('player_info', { action: addAction, data: [entryOf(toPlayer)] });
    }
    captureNextInterval(ctx, toPlayer);
  };

  serv.on('newPlayer', (player: SquidPlayer) => {
    player.entityType = playerType;
    // login.js re-assigns these per player; ours must win, so they are set after its hook.
    serv._sendPlayerList = sendPlayerList;
    (serv as unknown as Record<string, unknown>)._sendPlayerEventLeave = (left: SquidPlayer) => {
      for (const other of serv.players) {
        if (other !== left) other._client.write('player_remove', { players: [left.uuid] });
      }
    };
  });
}

/**
 * login.js calls setInterval (latency updates, never cleared) synchronously right after
 * _sendPlayerList; the very next setInterval call is therefore that one, and it is tracked.
 */
function captureNextInterval(ctx: ExtensionContext, player: SquidPlayer): void {
  const original = globalThis.setInterval;
  let restored = false;
  const restore = (): void => {
    if (restored) return;
    restored = true;
    globalThis.setInterval = original;
  };
  const capturing = ((...args: Parameters<typeof setInterval>) => {
    restore();
    const timer = original(...args);
    ctx.timers.add(timer);
    player.once('disconnected', () => {
      clearInterval(timer);
      ctx.timers.delete(timer);
    });
    return timer;
  }) as typeof setInterval;
  globalThis.setInterval = capturing;
  queueMicrotask(restore);
}
