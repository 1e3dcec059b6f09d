import itemLoader from 'prismarine-item';
import type { SquidItem, SquidServer, SquidWindow } from '../squid/types.js';

interface ItemClass {
  new (type: number, count: number, metadata?: number, nbt?: unknown): SquidItem;
  toNotch(item: SquidItem | null): unknown;
}
const itemClasses = new WeakMap<object, ItemClass>();

function itemClass(serv: SquidServer): ItemClass {
  let Item = itemClasses.get(serv.registry);
  if (!Item) {
    Item = itemLoader(serv.registry) as unknown as ItemClass;
    itemClasses.set(serv.registry, Item);
  }
  return Item;
}

/** A prismarine-item stack of the server's registry. */
export function createItem(serv: SquidServer, type: number, count: number): SquidItem {
  return new (itemClass(serv))(type, count);
}

/** Serializes a stack for the protocol (null = empty slot). */
export function toNotch(serv: SquidServer, item: SquidItem | null): unknown {
  return itemClass(serv).toNotch(item);
}

/** Inventory window slots in vanilla's order for adding items: the hotbar first, then the main rows. */
const ADD_ORDER: readonly number[] = [...Array.from({ length: 9 }, (_, i) => 36 + i), ...Array.from({ length: 27 }, (_, i) => 9 + i)];

/**
 * Adds `count` items of `type` to a player inventory window as vanilla does (topping up stacks,
 * then empty slots, hotbar first) and returns how many did not fit.
 */
export function addToInventory(serv: SquidServer, inventory: SquidWindow, type: number, count: number): number {
  const stackSize = serv.registry.items[type]?.stackSize ?? 64;
  let left = count;
  for (const slot of ADD_ORDER) {
    const existing = inventory.slots[slot];
    if (left > 0 && existing && existing.type === type && existing.count < stackSize) {
      const add = Math.min(left, stackSize - existing.count);
      existing.count += add;
      inventory.updateSlot(slot, existing);
      left -= add;
    }
  }
  for (const slot of ADD_ORDER) {
    if (left > 0 && !inventory.slots[slot]) {
      const add = Math.min(left, stackSize);
      inventory.updateSlot(slot, createItem(serv, type, add));
      left -= add;
    }
  }
  return left;
}
