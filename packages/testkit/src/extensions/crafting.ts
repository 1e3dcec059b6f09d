import windowsLoader from 'prismarine-windows';
import type { SquidItem, SquidPlayer, SquidWindow } from '../squid/types.js';
import type { ExtensionContext } from './context.js';
import { copyStack, mispredicted, snapshot, type ClickPacket } from './clicks.js';
import { addToInventory, createItem, toNotch } from './items.js';
import { matchGrid, recipesOf } from './recipes.js';

/** One window the player can click in: the inventory (2×2 grid) or an opened crafting table (3×3). */
interface CraftingSession {
  window: SquidWindow;
  /** Side length of the crafting grid in slots 1..size². */
  size: number;
  /** True for a crafting table window, whose inventory part mirrors the player inventory. */
  table: boolean;
}

interface PlayerCrafting {
  suppressed: boolean;
  stateId: number;
  table: CraftingSession | null;
}

const TABLE_INVENTORY_OFFSET = 1; // table slots 10..45 are inventory slots 9..44

/**
 * Crafting that plain `bot.craft` can use: window clicks are applied on the server (the
 * flying-squid handler ignores the clicked item, so nothing ever moved), the 2×2 inventory
 * grid and a crafting table window (opened by activating the block) show the result of the
 * matching minecraft-data recipe, and taking it consumes one of each ingredient.
 */
export function installCrafting(ctx: ExtensionContext): void {
  const { serv } = ctx;
  const recipes = recipesOf(serv.registry);
  const windows = windowsLoader(serv.registry as never) as unknown as {
    createWindow(id: number, type: string, title: string): SquidWindow;
    windows: Record<string, { type: number | string } | null>;
  };
  const craftingType = windows.windows['minecraft:crafting']?.type ?? 12;
  const sessions = new WeakMap<SquidPlayer, PlayerCrafting>();
  let nextWindowId = 1;

  const send = (player: SquidPlayer, windowId: number, slot: number, item: SquidItem | null): void => {
    const state = sessions.get(player)!;
    player._client.write('set_slot', { windowId, stateId: ++state.stateId, slot, item: toNotch(serv, item) });
  };

  const recompute = (session: CraftingSession): void => {
    const grid: (number | null)[] = [];
    for (let i = 1; i <= session.size * session.size; i++) grid.push(session.window.slots[i]?.type ?? null);
    const recipe = matchGrid(recipes, grid, session.size);
    const current = session.window.slots[0];
    if (!recipe) {
      if (current) session.window.updateSlot(0, null);
    } else if (!current || current.type !== recipe.result.id || current.count !== recipe.result.count) {
      session.window.updateSlot(0, createItem(serv, recipe.result.id, recipe.result.count));
    }
  };

  const consumeGrid = (session: CraftingSession): void => {
    for (let i = 1; i <= session.size * session.size; i++) {
      const item = session.window.slots[i];
      if (!item) continue;
      item.count -= 1;
      session.window.updateSlot(i, item.count > 0 ? item : null);
    }
  };

  const takeResult = (session: CraftingSession, mode: number): void => {
    const win = session.window;
    if (mode === 0) {
      const result = win.slots[0];
      if (!result) return;
      const cursor = win.selectedItem;
      if (!cursor) win.selectedItem = createItem(serv, result.type, result.count);
      else if (cursor.type === result.type && cursor.count + result.count <= cursor.stackSize) cursor.count += result.count;
      else return;
      consumeGrid(session);
      recompute(session);
    } else if (mode === 1) {
      // Shift-click crafts as many as fit, like vanilla.
      for (let guard = 0; guard < 64 && win.slots[0]; guard++) {
        const result = win.slots[0];
        if (!storeInInventory(win, result)) break;
        consumeGrid(session);
        recompute(session);
      }
    }
  };

  const storeInInventory = (win: SquidWindow, stack: SquidItem): boolean => {
    let left = stack.count;
    const slots: number[] = [];
    for (let s = win.inventoryEnd - 1; s >= win.inventoryStart; s--) slots.push(s);
    const plan: [number, number][] = [];
    for (const s of slots) {
      const item = win.slots[s];
      if (left > 0 && item && item.type === stack.type && item.count < item.stackSize) {
        const add = Math.min(left, item.stackSize - item.count);
        plan.push([s, add]);
        left -= add;
      }
    }
    for (const s of slots) {
      if (left > 0 && !win.slots[s]) {
        plan.push([s, left]);
        left = 0;
      }
    }
    if (left > 0) return false;
    for (const [s, add] of plan) {
      const item = win.slots[s];
      if (item) {
        item.count += add;
        win.updateSlot(s, item);
      } else win.updateSlot(s, createItem(serv, stack.type, add));
    }
    return true;
  };

  /** Copies the table's inventory part back into the player inventory (silently; the client mirrors it itself). */
  const syncTableToInventory = (player: SquidPlayer, session: CraftingSession): void => {
    for (let s = session.window.inventoryStart; s < session.window.inventoryEnd; s++) {
      player.inventory.updateSlot(s - TABLE_INVENTORY_OFFSET, copyStack(serv, session.window.slots[s] ?? null));
    }
  };

  const onClick = (player: SquidPlayer, packet: ClickPacket): void => {
    const state = sessions.get(player)!;
    const session: CraftingSession | null =
      packet.windowId === 0 ? { window: player.inventory, size: 2, table: false } : state.table?.window.id === packet.windowId ? state.table : null;
    if (!session) return;
    const win = session.window;
    const before = snapshot(win);
    const gridEnd = session.size * session.size;
    state.suppressed = true;
    try {
      if (packet.slot === 0 && (packet.mode === 0 || packet.mode === 1)) takeResult(session, packet.mode);
      else if ([0, 1, 2, 4].includes(packet.mode) && (packet.slot === -999 || (packet.slot >= 0 && packet.slot < win.slots.length))) {
        win.acceptClick({ ...packet, item: packet.slot === -999 ? null : (win.slots[packet.slot] ?? null) });
        if (packet.slot >= 1 && packet.slot <= gridEnd) recompute(session);
        else if (packet.mode === 1 || packet.mode === 2) recompute(session);
      }
      if (session.table) syncTableToInventory(player, session);
    } catch (err) {
      serv.emit('error', err);
    } finally {
      state.suppressed = false;
    }
    const after = snapshot(win);
    const wrong = new Set(mispredicted(win, packet));
    after.forEach((value, slot) => {
      if (value !== before[slot] || wrong.has(slot) || (slot === 0 && packet.slot >= 1 && packet.slot <= gridEnd))
        send(player, packet.windowId, slot, win.slots[slot] ?? null);
    });
  };

  const openTable = (player: SquidPlayer): void => {
    const state = sessions.get(player)!;
    if (state.table) closeTable(player);
    nextWindowId = (nextWindowId % 100) + 1;
    const window = windows.createWindow(nextWindowId, 'minecraft:crafting', 'Crafting');
    const session: CraftingSession = { window, size: 3, table: true };
    for (let s = window.inventoryStart; s < window.inventoryEnd; s++) {
      window.slots[s] = copyStack(serv, player.inventory.slots[s - TABLE_INVENTORY_OFFSET] ?? null);
      if (window.slots[s]) window.slots[s]!.slot = s;
    }
    state.table = session;
    player._client.write('open_window', { windowId: window.id, inventoryType: craftingType, windowTitle: { type: 'string', value: 'Crafting' } });
    player._client.write('window_items', {
      windowId: window.id,
      stateId: ++state.stateId,
      items: window.slots.map((item) => toNotch(serv, item ?? null)),
      carriedItem: toNotch(serv, null),
    });
  };

  /** Closing returns what is left in the grid (and on the cursor) to the inventory, as vanilla does. */
  const closeTable = (player: SquidPlayer): void => {
    const state = sessions.get(player)!;
    const session = state.table;
    if (!session) return;
    state.table = null;
    state.suppressed = true;
    try {
      syncTableToInventory(player, session);
    } finally {
      state.suppressed = false;
    }
    const leftovers = [session.window.selectedItem, ...session.window.slots.slice(1, 10)];
    for (const item of leftovers) if (item) addToInventory(serv, player.inventory, item.type, item.count);
  };

  serv.on('newPlayer', (player: SquidPlayer) => {
    const state: PlayerCrafting = { suppressed: false, stateId: 0, table: null };
    sessions.set(player, state);
    // flying-squid applies clicks without the clicked item (so nothing moves); ours replaces it.
    player._client.removeAllListeners('window_click');
    player._client.on('window_click', (packet) => onClick(player, packet));
    player._client.on('close_window', (packet: { windowId: number }) => {
      if (packet.windowId === 0) returnInventoryGrid(player);
      else if (state.table?.window.id === packet.windowId) closeTable(player);
    });
    // flying-squid mirrors every slot change to the client; during a click we send the final state instead.
    for (const listener of player.inventory.listeners('updateSlot')) {
      player.inventory.off('updateSlot', listener as (...args: unknown[]) => void);
      player.inventory.on('updateSlot', (...args: unknown[]) => {
        if (!state.suppressed) (listener as (...a: unknown[]) => void)(...args);
      });
    }
  });

  const returnInventoryGrid = (player: SquidPlayer): void => {
    const inv = player.inventory;
    const items: SquidItem[] = [];
    if (inv.selectedItem) items.push(inv.selectedItem);
    inv.selectedItem = null;
    for (let s = 1; s <= 4; s++) {
      const item = inv.slots[s];
      if (item) {
        items.push(item);
        inv.updateSlot(s, null);
      }
    }
    if (items.length) inv.updateSlot(0, null);
    for (const item of items) addToInventory(serv, player.inventory, item.type, item.count);
  };

  ctx.onReset(() => {
    for (const player of serv.players) {
      const state = sessions.get(player);
      if (!state?.table) continue;
      player._client.write('close_window', { windowId: state.table.window.id });
      state.table = null;
    }
  });

  serv.onBlockInteraction('crafting_table', ({ player }) => {
    openTable(player);
    return true;
  });
}
