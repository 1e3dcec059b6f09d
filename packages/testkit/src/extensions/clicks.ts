import type { SquidItem, SquidServer, SquidWindow } from '../squid/types.js';
import { createItem } from './items.js';

/** A window_click packet as the 1.20.4 client sends it. */
export interface ClickPacket {
  windowId: number;
  slot: number;
  mouseButton: number;
  mode: number;
  /** What the client predicted each touched slot holds after the click. */
  changedSlots?: { location: number; item: { present?: boolean; itemId?: number; itemCount?: number } | null }[];
}

/** Slot contents as comparable strings ("type:count", "" for empty). */
export const snapshot = (win: SquidWindow): string[] => win.slots.map((item) => (item ? `${item.type}:${item.count}` : ''));

/** Vanilla answers a mispredicted click with the true slot contents: the slots the client got wrong. */
export const mispredicted = (win: SquidWindow, packet: ClickPacket): number[] =>
  (packet.changedSlots ?? [])
    .filter(({ location, item }) => {
      const actual = win.slots[location] ?? null;
      const predicted = item?.present ? `${item.itemId}:${item.itemCount}` : '';
      return location >= 0 && location < win.slots.length && predicted !== (actual ? `${actual.type}:${actual.count}` : '');
    })
    .map(({ location }) => location);

/** A fresh stack equal to `item` (null stays null). */
export const copyStack = (serv: SquidServer, item: SquidItem | null): SquidItem | null => {
  if (!item) return null;
  const copy = createItem(serv, item.type, item.count);
  copy.nbt = item.nbt;
  return copy;
};
