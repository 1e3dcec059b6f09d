import { installAnimals } from './animals.js';
import { installBuckets } from './buckets.js';
import type { ExtensionContext } from './context.js';
import { installCombat } from './combat.js';
import { installCrafting } from './crafting.js';
import { installDigAnimationCleanup } from './dig-animation.js';
import { installDigTime } from './digtime.js';
import { installEating } from './eating.js';
import { installEntities } from './entities.js';
import { installFallDamage } from './falldamage.js';
import { installFurnace } from './furnace.js';
import { installGameMode } from './gamemode.js';
import { installHazards } from './hazards.js';
import { installHarvest } from './harvest.js';
import { installLogin } from './login.js';
import { installMobs } from './mobs.js';
import { installPickup } from './pickup.js';
import { installPlayers } from './players.js';
import { installRegeneration } from './regeneration.js';
import { installRespawn } from './respawn.js';
import { installSpawning } from './spawning.js';

/** Installs every testkit extension on a freshly created flying-squid server. */
export function installExtensions(ctx: ExtensionContext): void {
  // Each extension listens for newPlayer (and tick) once; more than Node's default 10 is expected.
  ctx.serv.setMaxListeners(50);
  installLogin(ctx);
  installPlayers(ctx);
  installEntities(ctx);
  installCrafting(ctx);
  installEating(ctx);
  installBuckets(ctx);
  installRegeneration(ctx);
  installRespawn(ctx);
  installGameMode(ctx);
  installMobs(ctx);
  installAnimals(ctx);
  installCombat(ctx);
  installFallDamage(ctx);
  installHazards(ctx);
  installSpawning(ctx);
  installHarvest(ctx);
  installDigTime(ctx);
  installDigAnimationCleanup(ctx);
  installPickup(ctx);
  // After crafting: crafting replaces flying-squid's window_click listeners when a player joins.
  installFurnace(ctx);
}
