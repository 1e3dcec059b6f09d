import type { SquidPlayer, SquidServer } from '../squid/types.js';
import type { ExtensionContext } from './context.js';

/** Sends a respawn packet in the 1.20.2+ shape (flying-squid's has the old one). */
export function writeRespawn(serv: SquidServer, player: SquidPlayer, keepMetadata: boolean): void {
  const login = serv.registry.loginPacket as unknown as { worldType?: string; dimension?: string };
  player._client.write('respawn', {
    dimension: login.worldType ?? login.dimension ?? 'minecraft:overworld',
    worldName: 'minecraft:overworld',
    hashedSeed: serv.hashedSeed,
    gamemode: player.gameMode,
    previousGamemode: player.prevGameMode ?? 255,
    isDebug: false,
    isFlat: true,
    death: undefined,
    portalCooldown: 0,
    copyMetadata: keepMetadata,
  });
}

async function resendLoadedChunks(player: SquidPlayer): Promise<void> {
  for (const key of Object.keys(player.loadedChunks ?? {})) {
    const [x, z] = key.split(',').map(Number) as [number, number];
    if (player.disconnected) return;
    await player.sendChunk(x, z, await player.world.getColumn(x, z));
  }
}

/**
 * Respawn after death: the request arrives as 'perform_respawn' (flying-squid compares it
 * with 0 and never answers). The player comes back at the spawn point with full health and
 * food and keeps the inventory (like keepInventory); other players see it re-appear.
 */
export function installRespawn(ctx: ExtensionContext): void {
  const { serv } = ctx;
  serv.on('newPlayer', (player: SquidPlayer) => {
    player._client.on('client_command', (packet: { actionId?: string | number; payload?: number }) => {
      const action = packet.actionId ?? packet.payload;
      if (action !== 'perform_respawn' && action !== 0) return;
      if (player.health > 0) return;
      writeRespawn(serv, player, false);
      player.health = 20;
      player.food = 20;
      player.foodSaturation = 5;
      player.sendSelfPosition(player.spawnPoint.clone());
      player.updateHealth(20);
      // mineflayer drops its world on this respawn (1.20.4's login has no dimension to compare), so resend it.
      void resendLoadedChunks(player).catch((err: unknown) => serv.emit('error', err));
      for (const other of serv.players) {
        if (other === player) continue;
        other._client.write('entity_destroy', { entityIds: [player.id] });
        other.nearbyEntities = other.nearbyEntities.filter((e) => e !== player);
      }
      player.nearbyEntities = [];
      player.updateAndSpawn();
    });
  });
}
