import type { Vec3 } from 'vec3';
import type { SquidItem, SquidPlayer } from '../squid/types.js';

/** The block flying-squid hands to its `dug` behaviour (a prismarine-block Block). */
export interface DugBlock {
  name: string;
  stateId: number;
  harvestTools?: Record<string, boolean>;
  /** Vanilla dig time in ms for the held item type (null = hand): creative, in water, airborne, enchantments. */
  digTime(heldItemType: number | null, creative: boolean, inWater: boolean, notOnGround: boolean): number;
}

/** What flying-squid's `dug_cancel` listeners receive: listeners may cancel the dig or empty `drops` in place. */
export interface DugEvent {
  position: Vec3;
  block: DugBlock;
  /** Drops flying-squid will spawn (one per loot entry); the same array it spawns from. */
  drops: unknown[];
}

/** `cancel(runOnCancel, hide)` of flying-squid's behaviour system. */
export type DugCancel = (runOnCancel?: boolean, hideFromPlugins?: boolean) => void;

const heldAtFinish = new WeakMap<SquidPlayer, Map<string, number | null>>();
const keyOf = (p: { x: number; y: number; z: number }): string => `${p.x},${p.y},${p.z}`;

/**
 * The type of the item held when the player sent the finish of the dig at `position` (null = hand). flying-squid
 * reaches its dug hook after awaits, by when a tool switch sent right after the finish (for the next dig) has
 * already changed the held item.
 */
export function heldTypeAtFinish(player: SquidPlayer, position: Vec3): number | null {
  const recorded = heldAtFinish.get(player)?.get(keyOf(position));
  return recorded !== undefined ? recorded : (heldItem(player)?.type ?? null);
}

/** Runs `listener` whenever a survival/adventure player finishes breaking a block, before it breaks. */
export function onDigFinish(player: SquidPlayer, listener: (event: DugEvent, cancel: DugCancel) => void): void {
  if (!heldAtFinish.has(player)) {
    const held = new Map<string, number | null>();
    heldAtFinish.set(player, held);
    player._client.on('block_dig', (packet: { status: number; location: { x: number; y: number; z: number } }) => {
      if (packet.status === 2) held.set(keyOf(packet.location), heldItem(player)?.type ?? null);
    });
    // Read by every listener of this dig, then forgotten.
    player.on('dug_cancel', (event: DugEvent) => queueMicrotask(() => held.delete(keyOf(event.position))));
  }
  player.on('dug_cancel', (event: DugEvent, cancel: DugCancel) => {
    if (player.gameMode === 1) return; // creative breaks instantly and drops nothing anyway
    listener(event, cancel);
  });
}

/** The item in the player's main hand (null when empty). */
export function heldItem(player: SquidPlayer): SquidItem | null {
  return player.inventory.slots[36 + player.heldItemSlot] ?? null;
}
