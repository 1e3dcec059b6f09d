import type { Vec3 } from 'vec3';
import type { SquidPlayer } from '../squid/types.js';
import type { ExtensionContext } from './context.js';
import { hazardStateOf } from './hazards.js';

/** Vanilla melee damage (half-hearts) of weapons and tools; anything else hits like a fist (1). */
const WEAPON_DAMAGE: Record<string, number> = {
  wooden_sword: 4, golden_sword: 4, stone_sword: 5, iron_sword: 6, diamond_sword: 7, netherite_sword: 8,
  wooden_axe: 7, golden_axe: 7, stone_axe: 9, iron_axe: 9, diamond_axe: 9, netherite_axe: 10,
  wooden_pickaxe: 2, golden_pickaxe: 2, stone_pickaxe: 3, iron_pickaxe: 4, diamond_pickaxe: 5, netherite_pickaxe: 6,
  wooden_shovel: 2.5, golden_shovel: 2.5, stone_shovel: 3.5, iron_shovel: 4.5, diamond_shovel: 5.5, netherite_shovel: 6.5,
  trident: 9,
};

/** Vanilla's critical hit multiplies a melee hit's damage by this. */
const CRITICAL_MULTIPLIER = 1.5;

/**
 * Player hits deal the held weapon's damage (flying-squid deals 1 whatever is held), and a critical hit 1.5 times it as
 * in vanilla 1.20.4 (`Player.attack`): falling (fall distance above 0: past the top of a jump), off the ground, not
 * sprinting, not in water. Not modelled: the attack cooldown's weakening (a hit before it recharges deals full damage
 * here; vanilla also denies such a hit its critical), ladders, blindness, riding.
 */
export function installCombat(ctx: ExtensionContext): void {
  const { serv } = ctx;
  serv.on('newPlayer', (player: SquidPlayer) => {
    let fallDistance = 0;
    let lastY = player.position.y;
    let sprinting = false;
    player._client.on('entity_action', ({ actionId }: { actionId?: number } = {}) => {
      if (actionId === 3) sprinting = true;
      else if (actionId === 4) sprinting = false;
    });
    player.on('move_done', (data: { position: Vec3; onGround: boolean; teleport?: boolean }, cancelled: boolean) => {
      if (cancelled || data.teleport || data.onGround || hazardStateOf(serv, player)?.contact.water) fallDistance = 0;
      else if (data.position.y < lastY) fallDistance += lastY - data.position.y;
      lastY = data.position.y;
    });
    player.on('attack', (data: { damage?: number }) => {
      const held = player.inventory.slots[36 + player.heldItemSlot];
      const damage = (held && WEAPON_DAMAGE[held.name]) || 1;
      const critical = fallDistance > 0 && !sprinting && !hazardStateOf(serv, player)?.contact.water;
      data.damage = critical ? damage * CRITICAL_MULTIPLIER : damage;
    });
  });
}
