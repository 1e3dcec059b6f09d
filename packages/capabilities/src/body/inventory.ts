import { formatPredicate, pred } from '@sinew/executor-contracts';
import type { Bot } from 'mineflayer';

/** Total count in an inventory record of the items matching a pattern (exact name or suffix group). */
export function countMatching(inventory: Readonly<Record<string, number>>, matches: (name: string) => boolean): number {
  let total = 0;
  for (const [name, count] of Object.entries(inventory)) if (matches(name)) total += count;
  return total;
}

/** Count of one item in the bot's inventory. */
export function countItem(bot: Bot, name: string): number {
  let total = 0;
  for (const item of bot.inventory.items()) if (item.name === name) total += item.count;
  return total;
}

/** The item names a block drops when broken by hand or tool (from minecraft-data), falling back to its own name. */
export function dropNames(bot: Bot, blockName: string): string[] {
  const block = bot.registry.blocksByName[blockName];
  if (!block) return [blockName];
  const names = new Set<string>();
  for (const drop of block.drops ?? []) {
    const id = typeof drop === 'number' ? drop : (drop as { drop?: number | { id: number } }).drop;
    const itemId = typeof id === 'number' ? id : id?.id;
    const item = itemId === undefined ? undefined : bot.registry.items[itemId];
    if (item) names.add(item.name);
  }
  if (names.size === 0 && bot.registry.itemsByName[blockName]) names.add(blockName);
  return [...names];
}

/** Names of the tools that can harvest a block (registry or world block), or undefined when a hand will do. */
export function harvestToolNames(bot: Bot, block: { readonly harvestTools?: Readonly<Record<string, boolean>> }): string[] | undefined {
  const tools = block.harvestTools;
  if (!tools) return undefined;
  return Object.keys(tools)
    .map((id) => bot.registry.items[Number(id)]?.name)
    .filter((name): name is string => name !== undefined);
}

/**
 * `has_item:<cheapest harvest tool>:1` when the block drops nothing by hand and the inventory holds none of
 * its tools (stone → `has_item:wooden_pickaxe:1`), else undefined.
 */
export function missingHarvestTool(bot: Bot, block: { readonly harvestTools?: Readonly<Record<string, boolean>> }): string | undefined {
  const tools = harvestToolNames(bot, block);
  if (!tools || bot.inventory.items().some((item) => tools.includes(item.name))) return undefined;
  const cheapest = tools.find((name) => name.startsWith('wooden_')) ?? tools[0];
  return cheapest ? formatPredicate(pred.hasItem(cheapest, 1)) : undefined;
}
