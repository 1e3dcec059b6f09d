import type { SquidPlayer } from '../squid/types.js';
import type { ExtensionContext } from './context.js';

/** Vanilla melee damage (half-hearts) of weapons and tools; anything else hits like a fist (1). */
const WEAPON_DAMAGE: Record<string, number> = {
  wooden_sword: 4, golden_sword: 4, stone_sword: 5, iron_sword: 6, diamond_sword: 7, netherite_sword: 8,
  wooden_axe: 7, golden_axe: 7, stone_axe: 9, iron_axe: 9, diamond_axe: 9, netherite_axe: 10,
  wooden_pickaxe: 2, golden_pickaxe: 2, stone_pickaxe: 3, iron_pickaxe: 4, diamond_pickaxe: 5, netherite_pickaxe: 6,
  wooden_shovel: 2.5, golden_shovel: 2.5, stone_shovel: 3.5, iron_shovel: 4.5, diamond_shovel: 5.5, netherite_shovel: 6.5,
  trident: 9,
};

/** Player hits deal the held weapon's damage (flying-squid deals 1 whatever is held). */
export function installCombat(ctx: ExtensionContext): void {
  ctx.serv.on('newPlayer', (player: SquidPlayer) => {
    player.on('attack', (data: { damage?: number }) => {
      const held = player.inventory.slots[36 + player.heldItemSlot];
      data.damage = (held && WEAPON_DAMAGE[held.name]) || 1;
    });
  });
}
