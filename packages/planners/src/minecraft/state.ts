import { blockKey, parseBlockKey, type Vec3 } from '@sinew/executor-contracts';
import { NEAR_BLOCK_DISTANCE } from '@sinew/executor-contracts/minecraft';
import type { PlannerWorld } from '../contract.js';
import type { RecipeBook, RecipeOption } from './recipes.js';

/** Whether a block of this name is within `radius` of the position in the snapshot's known blocks. */
export function blockNear(world: Pick<PlannerWorld, 'blocks' | 'position'>, block: string, radius = NEAR_BLOCK_DISTANCE): boolean {
  return Object.entries(world.blocks).some(([key, name]) => {
    const at = name === block ? parseBlockKey(key) : undefined;
    return at !== undefined && Math.hypot(at.x - world.position.x, at.y - world.position.y, at.z - world.position.z) <= radius;
  });
}

/** The nearest position in the snapshot's known blocks holding this block, at any distance. */
export function nearestSeen(world: Pick<PlannerWorld, 'blocks' | 'position'>, block: string): Vec3 | undefined {
  const { x, y, z } = world.position;
  let best: { at: Vec3; distance: number } | undefined;
  for (const [key, name] of Object.entries(world.blocks)) {
    const at = name === block ? parseBlockKey(key) : undefined;
    const distance = at ? Math.hypot(at.x - x, at.y - y, at.z - z) : Infinity;
    if (at && (!best || distance < best.distance)) best = { at, distance };
  }
  return best?.at;
}

export function count(world: Pick<PlannerWorld, 'inventory'>, item: string): number {
  return world.inventory[item] ?? 0;
}

export function add(world: Pick<PlannerWorld, 'inventory'>, item: string, n: number): void {
  const next = count(world, item) + n;
  if (next > 0) world.inventory[item] = next;
  else delete world.inventory[item];
}

/** Applies `crafts` crafts of a recipe to a simulated inventory; false when an ingredient is short. */
export function applyCraft(world: Pick<PlannerWorld, 'inventory'>, option: RecipeOption, crafts: number): boolean {
  for (const [item, n] of Object.entries(option.ingredients)) if (count(world, item) < n * crafts) return false;
  for (const [item, n] of Object.entries(option.ingredients)) add(world, item, -n * crafts);
  add(world, option.result, option.resultCount * crafts);
  return true;
}

const AROUND = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [-1, -1], [1, -1], [-1, 1]] as const;

/** The free spot `place_block` without a position uses: next to the bot, not where something was placed. */
export function placeSpot(world: Pick<PlannerWorld, 'blocks' | 'position'>): string {
  const { x, y, z } = world.position;
  const keys = AROUND.map(([dx, dz]) => blockKey({ x: x + dx, y, z: z + dz }));
  const free = keys.find((key) => world.blocks[key] === undefined || /air$/.test(world.blocks[key]!));
  return free ?? keys[0]!;
}

/** Ingredient order for crafting: intermediates made from other ingredients first (sticks before planks). */
export function ingredientOrder(book: RecipeBook, option: RecipeOption): string[] {
  const names = Object.keys(option.ingredients).sort();
  const usesOther = (name: string) => book.recipes(name).some((r) => names.some((other) => other !== name && other in r.ingredients));
  return names.sort((a, b) => Number(usesOther(b)) - Number(usesOther(a)) || a.localeCompare(b));
}

/**
 * Block positions within `radius` of a point — pass them as `observeWorld(bot, { positions })` so
 * the snapshot shows the crafting table and trees the repair needs to see.
 */
export function focusAround(center: Vec3, radius = NEAR_BLOCK_DISTANCE): Vec3[] {
  const positions: Vec3[] = [];
  const [cx, cy, cz] = [Math.floor(center.x), Math.floor(center.y), Math.floor(center.z)];
  for (let dx = -radius; dx <= radius; dx += 1)
    for (let dy = -2; dy <= 3; dy += 1) for (let dz = -radius; dz <= radius; dz += 1) positions.push({ x: cx + dx, y: cy + dy, z: cz + dz });
  return positions;
}
