import itemLoader from 'prismarine-item';
import type { SquidItem, SquidServer } from '../squid/types.js';

type ItemClass = new (type: number, count: number, metadata?: number, nbt?: unknown) => SquidItem;
const itemClasses = new WeakMap<object, ItemClass>();

/** A prismarine-item stack of the server's registry. */
export function createItem(serv: SquidServer, type: number, count: number): SquidItem {
  let Item = itemClasses.get(serv.registry);
  if (!Item) {
    Item = itemLoader(serv.registry) as unknown as ItemClass;
    itemClasses.set(serv.registry, Item);
  }
  return new Item(type, count);
}

/** Serializes a stack for the protocol (null = empty slot). */
export function toNotch(serv: SquidServer, item: SquidItem | null): unknown {
  let Item = itemClasses.get(serv.registry);
  if (!Item) {
    Item = itemLoader(serv.registry) as unknown as ItemClass;
    itemClasses.set(serv.registry, Item);
  }
  return (Item as unknown as { toNotch(item: SquidItem | null): unknown }).toNotch(item);
}
