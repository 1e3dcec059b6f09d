import type { SquidPlayer } from '../squid/types.js';
import { cancelServerTimeout, serverTimeout, type ExtensionContext } from './context.js';

/**
 * How long eating takes. Vanilla is 1.61 s; mineflayer gives up after 2.5 s, so a shorter
 * time keeps `bot.consume()` reliable on a loaded machine.
 */
export const EAT_DURATION_MS = 1_200;
const ALWAYS_EDIBLE = new Set(['golden_apple', 'enchanted_golden_apple', 'chorus_fruit', 'honey_bottle', 'suspicious_stew']);

/**
 * Eating: using a food item starts a timer; when it ends the stack shrinks, food and
 * saturation rise by the item's values from minecraft-data, and the "finished eating"
 * entity status (9) tells mineflayer that `bot.consume()` is done.
 */
export function installEating(ctx: ExtensionContext): void {
  const { serv } = ctx;
  const foods = serv.registry.foods as unknown as Record<number, { foodPoints: number; saturation: number; name: string }>;

  const stops = new Set<() => void>();
  ctx.onReset(() => {
    for (const stop of stops) stop();
  });
  serv.on('newPlayer', (player: SquidPlayer) => {
    let eating: NodeJS.Timeout | undefined;
    const stop = (): void => {
      cancelServerTimeout(ctx, eating);
      eating = undefined;
    };
    stops.add(stop);
    player.once('disconnected', () => stops.delete(stop));
    player._client.on('use_item', (packet: { hand: number }) => {
      const slot = packet.hand === 1 ? 45 : 36 + player.heldItemSlot;
      const item = player.inventory.slots[slot];
      const food = item ? foods[item.type] : undefined;
      if (!item || !food) return;
      if (player.food >= 20 && player.gameMode !== 1 && !ALWAYS_EDIBLE.has(item.name)) return;
      stop();
      eating = serverTimeout(ctx, () => {
        eating = undefined;
        const held = player.inventory.slots[slot];
        if (!held || held.type !== item.type || player.disconnected) return;
        if (player.gameMode !== 1) {
          held.count -= 1;
          player.inventory.updateSlot(slot, held.count > 0 ? held : null);
        }
        const foodLevel = Math.min(20, player.food + food.foodPoints);
        player.foodSaturation = Math.min(foodLevel, (player.foodSaturation ?? 0) + food.saturation);
        player.updateFood(foodLevel);
        const status = { entityId: player.id, entityStatus: 9 };
        player._client.write('entity_status', status);
        player._writeOthersNearby('entity_status', status);
      }, EAT_DURATION_MS);
    });
    // Releasing the use key (status 5) or switching the held slot interrupts eating.
    player._client.on('block_dig', (packet: { status: number }) => {
      if (packet.status === 5) stop();
    });
    player._client.on('held_item_slot', stop);
    player.once('disconnected', stop);
  });
}
