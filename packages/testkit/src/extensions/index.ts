import type { ExtensionContext } from './context.js';
import { installCombat } from './combat.js';
import { installCrafting } from './crafting.js';
import { installEating } from './eating.js';
import { installEntities } from './entities.js';
import { installFallDamage } from './falldamage.js';
import { installGameMode } from './gamemode.js';
import { installHazards } from './hazards.js';
import { installLogin } from './login.js';
import { installMobs } from './mobs.js';
import { installPlayers } from './players.js';
import { installRespawn } from './respawn.js';
import { installSpawning } from './spawning.js';

/** Installs every testkit extension on a freshly created flying-squid server. */
export function installExtensions(ctx: ExtensionContext): void {
  installLogin(ctx);
  installPlayers(ctx);
  installEntities(ctx);
  installCrafting(ctx);
  installEating(ctx);
  installRespawn(ctx);
  installGameMode(ctx);
  installMobs(ctx);
  installCombat(ctx);
  installFallDamage(ctx);
  installHazards(ctx);
  installSpawning(ctx);
}
