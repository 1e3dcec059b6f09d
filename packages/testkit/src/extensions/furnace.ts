import windowsLoader from 'prismarine-windows';
import { Vec3 } from 'vec3';
import type { SquidItem, SquidPlayer, SquidServer, SquidWindow, SquidWorld } from '../squid/types.js';
import { copyStack, mispredicted, snapshot, type ClickPacket } from './clicks.js';
import type { ExtensionContext } from './context.js';
import { emptyFurnace, FUEL_SLOT, INPUT_SLOT, propertiesOf, RESULT_SLOT, tickFurnace, type FurnaceCore, type FurnaceRules } from './furnace-core.js';
import { addToInventory, createItem, toNotch } from './items.js';
import { FUEL_REMAINDER, FUEL_TICKS, SMELTING } from './smelting.js';
import { roundTrip } from '../sync.js';

/** Furnace window slots 3..38 are player inventory slots 9..44. */
const INVENTORY_OFFSET = 6;
/** Window ids of furnace windows (the crafting table uses 1..100). */
const FIRST_WINDOW_ID = 101;
const LAST_WINDOW_ID = 200;

interface Furnace extends FurnaceCore {
  key: string;
  world: SquidWorld;
  position: Vec3;
  viewers: Set<Viewer>;
}

interface Viewer {
  player: SquidPlayer;
  furnace: Furnace;
  window: SquidWindow;
  stateId: number;
  /** What the client was last told slots 0..2 and the four properties are. */
  shown: string[];
  shownProperties: number[];
}

const keyOf = (p: Vec3): string => `${p.x},${p.y},${p.z}`;
const stackKey = (item: SquidItem | null): string => (item ? `${item.type}:${item.count}` : '');

/** The item rules of the server's registry, from the smelting and fuel tables. */
type Rules = FurnaceRules & { isFuel(type: number): boolean; smeltable(type: number): boolean };

function rulesOf(serv: SquidServer): Rules {
  const byName = (table: Readonly<Record<string, string | number>>): Map<number, string | number> =>
    new Map(Object.entries(table).flatMap(([name, value]) => {
      const item = serv.registry.itemsByName[name];
      return item ? [[item.id, value] as [number, string | number]] : [];
    }));
  const idOf = (name: string | number | undefined): number | undefined => (typeof name === 'string' ? serv.registry.itemsByName[name]?.id : undefined);
  const smelting = byName(SMELTING);
  const fuels = byName(FUEL_TICKS);
  const remainders = byName(FUEL_REMAINDER);
  return {
    resultOf: (type) => idOf(smelting.get(type)),
    burnTicks: (type) => Number(fuels.get(type) ?? 0),
    remainderOf: (type) => idOf(remainders.get(type)),
    stackSize: (type) => serv.registry.items[type]?.stackSize ?? 64,
    make: (type, count) => createItem(serv, type, count),
    isFuel: (type) => fuels.has(type),
    smeltable: (type) => smelting.has(type),
  };
}

/**
 * A vanilla furnace: activating a furnace block opens a `minecraft:furnace` window (input 0,
 * fuel 1, result 2, then the inventory); every server tick it burns and cooks (200 ticks per
 * item, fuel times from FUEL_TICKS), sends the four progress properties and switches the block's
 * `lit` state. Contents live per furnace block and drop when it is broken. flying-squid has none.
 */
export function installFurnace(ctx: ExtensionContext): void {
  const { serv } = ctx;
  const rules = rulesOf(serv);
  const windows = windowsLoader(serv.registry as never) as unknown as {
    createWindow(id: number, type: string, title: string): SquidWindow;
    windows: Record<string, { type: number | string } | null>;
  };
  const furnaceType = windows.windows['minecraft:furnace']?.type ?? 14;
  const block = serv.registry.blocksByName.furnace!;
  const furnaces = new Map<string, Furnace>();
  const viewers = new Map<SquidPlayer, Viewer>();
  let nextWindowId = FIRST_WINDOW_ID;

  const close = (viewer: Viewer, tellClient: boolean): void => {
    viewer.furnace.viewers.delete(viewer);
    if (viewers.get(viewer.player) === viewer) viewers.delete(viewer.player);
    if (tellClient) viewer.player._client.write('close_window', { windowId: viewer.window.id });
    const cursor = viewer.window.selectedItem;
    viewer.window.selectedItem = null;
    if (cursor) addToInventory(serv, viewer.player.inventory, cursor.type, cursor.count);
  };

  const discard = (furnace: Furnace): void => {
    for (const viewer of [...furnace.viewers]) close(viewer, true);
    furnaces.delete(furnace.key);
  };

  const open = (player: SquidPlayer, position: Vec3): void => {
    const previous = viewers.get(player);
    if (previous) close(previous, false);
    const key = keyOf(position);
    const furnace = furnaces.get(key) ?? { ...emptyFurnace(), key, world: player.world, position: position.clone(), viewers: new Set<Viewer>() };
    furnaces.set(key, furnace);
    nextWindowId = nextWindowId >= LAST_WINDOW_ID ? FIRST_WINDOW_ID : nextWindowId + 1;
    const window = windows.createWindow(nextWindowId, 'minecraft:furnace', 'Furnace');
    const viewer: Viewer = { player, furnace, window, stateId: 0, shown: [], shownProperties: [] };
    furnace.viewers.add(viewer);
    viewers.set(player, viewer);
    showWindow(serv, viewer, furnaceType);
    // mineflayer listens for the properties only once the window is open: send them all again after a round trip.
    roundTrip(player)
      .then(() => (viewer.shownProperties = []))
      .catch(() => undefined);
  };

  const onClick = (viewer: Viewer, packet: ClickPacket): void => {
    const { furnace, window, player } = viewer;
    loadWindow(serv, viewer);
    const before = snapshot(window);
    const inputType = furnace.slots[INPUT_SLOT]?.type;
    applyClick(window, packet, rules);
    saveWindow(serv, viewer);
    // Vanilla restarts the cooking when a different item goes into the input slot.
    if (furnace.slots[INPUT_SLOT]?.type !== inputType) furnace.cookingProgress = 0;
    const after = snapshot(window);
    const wrong = new Set(mispredicted(window, packet));
    after.forEach((value, slot) => {
      if (slot <= RESULT_SLOT) viewer.shown[slot] = value;
      if (value !== before[slot] || wrong.has(slot))
        player._client.write('set_slot', { windowId: window.id, stateId: ++viewer.stateId, slot, item: toNotch(serv, window.slots[slot] ?? null) });
    });
    for (const other of furnace.viewers) sendState(serv, other);
  };

  /** The block may have been replaced (setBlock, fill, reset): then the furnace is gone; else show lit. */
  const syncBlock = async (furnace: Furnace): Promise<void> => {
    const stateId = await furnace.world.getBlockStateId(furnace.position);
    if (stateId < block.minStateId! || stateId > block.maxStateId!) return discard(furnace);
    // `lit` is the last state property: offset 0 = true, 1 = false.
    const wanted = stateId - ((stateId - block.minStateId!) % 2) + (furnace.litTime > 0 ? 0 : 1);
    if (wanted !== stateId) await serv.setBlock(furnace.world, furnace.position, wanted);
  };

  const onTick = (): void => {
    for (const furnace of furnaces.values()) {
      tickFurnace(furnace, rules);
      for (const viewer of furnace.viewers) sendState(serv, viewer);
      syncBlock(furnace).catch((err: unknown) => serv.emit('error', err));
    }
  };
  serv.on('tick', onTick);

  serv.onBlockInteraction('furnace', ({ block: clicked, player }) => {
    open(player, clicked.position);
    return true;
  });

  serv.on('newPlayer', (player: SquidPlayer) => {
    player._client.on('window_click', (packet: ClickPacket) => {
      const viewer = viewers.get(player);
      if (!viewer || viewer.window.id !== packet.windowId) return;
      try {
        onClick(viewer, packet);
      } catch (err) {
        serv.emit('error', err);
      }
    });
    player._client.on('close_window', (packet: { windowId: number }) => {
      const viewer = viewers.get(player);
      if (viewer && viewer.window.id === packet.windowId) close(viewer, false);
    });
    player.on('dug', (event: { position: Vec3 }, cancelled: boolean) => {
      const furnace = furnaces.get(keyOf(event.position));
      if (cancelled || !furnace) return;
      dropContents(serv, furnace);
      discard(furnace);
    });
    player.once('disconnected', () => {
      const viewer = viewers.get(player);
      if (viewer) close(viewer, false);
    });
  });

  const clear = (): void => {
    for (const furnace of [...furnaces.values()]) discard(furnace);
  };
  ctx.onReset(clear);
  ctx.onStop(() => {
    serv.off('tick', onTick);
    furnaces.clear();
    viewers.clear();
  });
}

/** Tells a viewer what changed in the furnace slots and properties since it was last told. */
function sendState(serv: SquidServer, viewer: Viewer): void {
  const { furnace, player } = viewer;
  furnace.slots.forEach((item, slot) => {
    if (stackKey(item) === viewer.shown[slot]) return;
    viewer.shown[slot] = stackKey(item);
    player._client.write('set_slot', { windowId: viewer.window.id, stateId: ++viewer.stateId, slot, item: toNotch(serv, item) });
  });
  propertiesOf(furnace).forEach((value, property) => {
    if (viewer.shownProperties[property] === value) return;
    viewer.shownProperties[property] = value;
    player._client.write('craft_progress_bar', { windowId: viewer.window.id, property, value });
  });
}

/** Opens the window on the client with every slot (the properties follow on the next tick). */
function showWindow(serv: SquidServer, viewer: Viewer, inventoryType: number | string): void {
  const { window, player, furnace } = viewer;
  loadWindow(serv, viewer);
  player._client.write('open_window', { windowId: window.id, inventoryType, windowTitle: { type: 'string', value: 'Furnace' } });
  player._client.write('window_items', {
    windowId: window.id,
    stateId: ++viewer.stateId,
    items: window.slots.map((item) => toNotch(serv, item ?? null)),
    carriedItem: toNotch(serv, null),
  });
  viewer.shown = furnace.slots.map(stackKey);
}

/** A broken furnace drops what it holds, whole stacks, at its centre. */
function dropContents(serv: SquidServer, furnace: Furnace): void {
  const itemEntity = serv.registry.entitiesByName.item!.id;
  for (const item of furnace.slots) {
    if (!item) continue;
    serv.spawnObject(itemEntity, furnace.world, furnace.position.offset(0.5, 0.5, 0.5), {
      velocity: new Vec3(0, 0, 0),
      itemId: item.type,
      itemCount: item.count,
      pickupTime: 500,
      deathTime: 5 * 60 * 1000,
    });
  }
}

/** Fills the viewer's window from the furnace and the player's inventory (both are authoritative). */
function loadWindow(serv: SquidServer, viewer: Viewer): void {
  const { window, furnace, player } = viewer;
  for (let s = 0; s < window.slots.length; s++) {
    const source = s <= RESULT_SLOT ? furnace.slots[s] : player.inventory.slots[s + INVENTORY_OFFSET];
    window.updateSlot(s, copyStack(serv, source ?? null));
  }
}

/** Writes the window back: slots 0..2 to the furnace, the rest silently to the inventory (the client mirrors its own clicks). */
function saveWindow(serv: SquidServer, viewer: Viewer): void {
  const { window, furnace, player } = viewer;
  for (let s = 0; s <= RESULT_SLOT; s++) furnace.slots[s] = copyStack(serv, window.slots[s] ?? null);
  for (let s = window.inventoryStart; s < window.inventoryEnd; s++) {
    const item = copyStack(serv, window.slots[s] ?? null);
    if (item) item.slot = s + INVENTORY_OFFSET;
    player.inventory.slots[s + INVENTORY_OFFSET] = item;
  }
}

/** Vanilla furnace click rules on top of the generic window clicks. */
function applyClick(window: SquidWindow, packet: ClickPacket, rules: Rules): void {
  const { slot, mode, mouseButton } = packet;
  if (slot !== -999 && (slot < 0 || slot >= window.slots.length)) return;
  if (![0, 1, 2, 4].includes(mode)) return; // drag and double-click are not modelled
  const cursor = window.selectedItem;
  if (slot === RESULT_SLOT && mode === 0) return takeResult(window);
  if (slot === FUEL_SLOT && mode === 0 && cursor && !rules.isFuel(cursor.type)) return;
  if (mode === 2 && (slot === FUEL_SLOT || slot === RESULT_SLOT)) {
    const hotbar = window.slots[window.hotbarStart + mouseButton];
    if (hotbar && (slot === RESULT_SLOT || !rules.isFuel(hotbar.type))) return;
  }
  if (mode === 1 && slot >= window.inventoryStart) {
    const item = window.slots[slot];
    if (!item) return;
    if (rules.smeltable(item.type)) return moveInto(window, slot, INPUT_SLOT, rules);
    if (rules.isFuel(item.type)) return moveInto(window, slot, FUEL_SLOT, rules);
    return;
  }
  window.acceptClick({ ...packet, item: slot === -999 ? null : (window.slots[slot] ?? null) });
}

/** Clicking the result takes it all onto the cursor (or onto a matching cursor stack that has room). */
function takeResult(window: SquidWindow): void {
  const result = window.slots[RESULT_SLOT];
  const cursor = window.selectedItem;
  if (!result) return;
  if (!cursor) window.selectedItem = result;
  else if (cursor.type === result.type && cursor.count + result.count <= cursor.stackSize) cursor.count += result.count;
  else return;
  window.updateSlot(RESULT_SLOT, null);
}

/** Shift-click into the furnace: as much of the stack as fits into the target slot. */
function moveInto(window: SquidWindow, from: number, to: number, rules: Rules): void {
  const item = window.slots[from]!;
  const target = window.slots[to];
  if (target && target.type !== item.type) return;
  const moved = Math.min(item.count, item.stackSize - (target?.count ?? 0));
  if (moved <= 0) return;
  if (target) {
    target.count += moved;
    window.updateSlot(to, target);
  } else window.updateSlot(to, rules.make(item.type, moved));
  item.count -= moved;
  window.updateSlot(from, item.count > 0 ? item : null);
}
