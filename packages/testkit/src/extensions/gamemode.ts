import type { SquidPlayer } from '../squid/types.js';
import type { ExtensionContext } from './context.js';
import { writeRespawn } from './respawn.js';

/**
 * Game-mode changes mineflayer 4.25 sees: on 1.20.4 it compares the game_state_change
 * reason with 3 while the protocol decodes it to 'change_game_mode', so the change is
 * also carried by a same-world respawn (mineflayer emits 'respawn' and 'spawn' once).
 */
export function installGameMode(ctx: ExtensionContext): void {
  const { serv } = ctx;
  serv.on('newPlayer', (player: SquidPlayer) => {
    player.setGameMode = (mode: number) => {
      if (mode !== player.gameMode) player.prevGameMode = player.gameMode;
      player.gameMode = mode;
      player._client.write('game_state_change', { reason: 'change_game_mode', gameMode: mode });
      writeRespawn(serv, player, true);
      player.sendSelfPosition();
      player.updateHealth(player.health);
      const update = { action: { update_game_mode: true }, data: [{ uuid: player.uuid, gamemode: mode }] };
      serv._writeAll('player_info', update);
    };
  });
}
