import type { Vec3 } from 'vec3';
import type { SquidPlayer } from '../squid/types.js';
import type { ExtensionContext } from './context.js';
import { hazardStateOf } from './hazards.js';

/** Fall damage: landing after falling more than 3 blocks costs (distance − 3) half-hearts, as in vanilla. */
export function installFallDamage(ctx: ExtensionContext): void {
  const { serv } = ctx;
  serv.on('newPlayer', (player: SquidPlayer) => {
    let peakY: number | null = null;
    const teleport = player.sendSelfPosition;
    player.sendSelfPosition = (position?: Vec3) => {
      peakY = null;
      teleport(position);
    };
    player.on('move_done', (data: { position: Vec3; onGround: boolean; teleport?: boolean }, cancelled: boolean) => {
      if (cancelled || data.teleport) {
        peakY = null;
        return;
      }
      const y = data.position.y;
      // Water breaks a fall, as in vanilla.
      if (hazardStateOf(serv, player)?.contact.water) peakY = null;
      if (!data.onGround) {
        peakY = peakY === null ? y : Math.max(peakY, y);
        return;
      }
      const fallen = peakY === null ? 0 : peakY - y;
      peakY = null;
      if (fallen > 3 && (player.gameMode === 0 || player.gameMode === 2) && player.health > 0) {
        player.takeDamage({ damage: Math.ceil(fallen - 3), sound: 'entity.player.hurt' });
      }
    });
  });
}
