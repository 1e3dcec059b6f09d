import itemLoader from 'prismarine-item';
import type { SquidItem, SquidServer } from '../squid/types.js';

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
