import type { SquidEntity, SquidPlayer, SquidServer } from '../squid/types.js';
import type { ExtensionContext } from './context.js';
import { addToInventory } from './items.js';

/** Half-width and height of a standing player's bounding box. */
const PLAYER_HALF_WIDTH = 0.3;
const PLAYER_HEIGHT = 1.8;
/** Vanilla inflates the player box by 1 horizontally and 0.5 vertically to find items to pick up. */
const PICKUP_REACH = { horizontal: 1, vertical: 0.5 } as const;
/** Half-width and height of an item entity's bounding box. */
const ITEM_HALF_SIZE = 0.125;
const ITEM_HEIGHT = 0.25;

interface ItemEntity extends SquidEntity {
  itemId: number;
  itemCount?: number;
  bornTime: number;
  sendMetadata(data: unknown[]): void;
}

/** True when the item's box touches the player's box inflated by the vanilla pickup reach. */
function withinPickupBox(player: { x: number; y: number; z: number }, item: { x: number; y: number; z: number }): boolean {
  const reach = PLAYER_HALF_WIDTH + PICKUP_REACH.horizontal + ITEM_HALF_SIZE;
  return (
    Math.abs(item.x - player.x) <= reach &&
    Math.abs(item.z - player.z) <= reach &&
    item.y + ITEM_HEIGHT >= player.y - PICKUP_REACH.vertical &&
    item.y <= player.y + PLAYER_HEIGHT + PICKUP_REACH.vertical
  );
}

/**
 * Vanilla item pickup: an item is picked up by a player whose bounding box, inflated by 1 block
 * horizontally and 0.5 vertically, touches it, and the whole stack comes along (what does not fit
 * stays on the ground). flying-squid used a 1.75-block sphere around the feet and took one item.
 */
export function installPickup(ctx: ExtensionContext): void {
  const { serv } = ctx;
  const itemType = serv.registry.entitiesByName.item?.id;
  const delays = new WeakMap<SquidEntity, number>();
  serv.on('newEntity', (entity: SquidEntity) => {
    if (entity.type !== 'object' || entity.entityType !== itemType) return;
    // flying-squid assigns pickupTime after this event; keep it here so its own sphere check never fires.
    Object.defineProperty(entity, 'pickupTime', {
      configurable: true,
      get: () => undefined,
      set: (ms: number | undefined) => (ms === undefined ? delays.delete(entity) : delays.set(entity, ms)),
    });
  });
  serv.on('tick', () => {
    const now = Date.now();
    for (const entity of Object.values(serv.entities)) {
      const delay = delays.get(entity);
      const item = entity as ItemEntity;
      if (delay === undefined || now - item.bornTime < delay) continue;
      const player = nearestCollector(serv, item);
      if (player) collect(serv, player, item);
    }
  });
}

function nearestCollector(serv: SquidServer, item: ItemEntity): SquidPlayer | undefined {
  const candidates = serv.players.filter(
    (p) => !p.disconnected && p.world === item.world && p.health > 0 && p.gameMode !== 3 && withinPickupBox(p.position, item.position),
  );
  return candidates.sort((a, b) => a.position.distanceTo(item.position) - b.position.distanceTo(item.position))[0];
}

function collect(serv: SquidServer, player: SquidPlayer, item: ItemEntity): void {
  const count = item.itemCount ?? 1;
  const left = addToInventory(serv, player.inventory, item.itemId, count);
  if (left === count) return;
  item._writeOthersNearby('collect', { collectedEntityId: item.id, collectorEntityId: player.id, pickupItemCount: count - left });
  if (left === 0) item.destroy();
  else {
    item.itemCount = left;
    item.sendMetadata([]);
  }
}
