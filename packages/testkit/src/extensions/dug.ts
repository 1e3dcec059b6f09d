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

/** Runs `listener` whenever a survival/adventure player finishes breaking a block, before it breaks. */
export function onDigFinish(player: SquidPlayer, listener: (event: DugEvent, cancel: DugCancel) => void): void {
  player.on('dug_cancel', (event: DugEvent, cancel: DugCancel) => {
    if (player.gameMode === 1) return; // creative breaks instantly and drops nothing anyway
    listener(event, cancel);
  });
}

/** The item in the player's main hand (null when empty). */
export function heldItem(player: SquidPlayer): SquidItem | null {
  return player.inventory.slots[36 + player.heldItemSlot] ?? null;
}
