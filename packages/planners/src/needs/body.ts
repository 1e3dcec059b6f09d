import { blockKey } from '@sinew/executor-contracts';
import type { PlannerWorld } from '../contract.js';

// What the needs planner reads of the body's surroundings and kit: is it armed, is it sheltered.

/** Swords by tier, weakest first: holding any of them is being armed. */
export const SWORDS_BY_TIER = ['wooden_sword', 'golden_sword', 'stone_sword', 'iron_sword', 'diamond_sword', 'netherite_sword'] as const;

/** A sword's blade material held in the inventory (two make the blade), best first; wood is always within reach of a tree. */
const BLADES: readonly { readonly sword: (typeof SWORDS_BY_TIER)[number]; readonly materials: readonly string[] }[] = [
  { sword: 'diamond_sword', materials: ['diamond'] },
  { sword: 'iron_sword', materials: ['iron_ingot'] },
  { sword: 'stone_sword', materials: ['cobblestone', 'cobbled_deepslate', 'blackstone'] },
];

/** The weapon the bot holds (its best sword), or undefined when it is unarmed. */
export function weaponHeld(inventory: PlannerWorld['inventory']): string | undefined {
  return [...SWORDS_BY_TIER].reverse().find((sword) => (inventory[sword] ?? 0) > 0);
}

/** The best sword the held materials make (2 diamonds → diamond, 2 iron ingots → iron, 2 cobblestone → stone), else a wooden one. */
export function bestCraftableSword(inventory: PlannerWorld['inventory']): string {
  return BLADES.find((blade) => blade.materials.some((m) => (inventory[m] ?? 0) >= 2))?.sword ?? 'wooden_sword';
}

// Blocks a mob walks or sees through: not a wall, a roof or a pillar. 'unloaded' is not known to be solid either.
const OPEN = /(^|_)(air|water|lava|fire|grass|fern|torch|flower|sapling|carpet|snow|vine|button|sign)$|^(unloaded|dandelion|poppy)$/;

/**
 * Whether the body is sheltered for the night, read from the snapshot's blocks: inside a hut (a solid roof
 * over the head and solid walls on the four sides at feet and head height) or perched on a pillar (solid two
 * blocks deep under the feet, open on the four sides of both). Blocks the snapshot does not hold count as open.
 */
export function sheltered(world: Pick<PlannerWorld, 'blocks' | 'position'>): boolean {
  const [x, y, z] = [Math.floor(world.position.x), Math.floor(world.position.y), Math.floor(world.position.z)];
  const solid = (dx: number, dy: number, dz: number) => {
    const name = world.blocks[blockKey({ x: x + dx, y: y + dy, z: z + dz })];
    return name !== undefined && !OPEN.test(name);
  };
  const sides = [[1, 0], [-1, 0], [0, 1], [0, -1]] as const;
  const hut = solid(0, 2, 0) && sides.every(([dx, dz]) => solid(dx, 0, dz) && solid(dx, 1, dz));
  const pillar = solid(0, -1, 0) && solid(0, -2, 0) && sides.every(([dx, dz]) => !solid(dx, -1, dz) && !solid(dx, -2, dz));
  return hut || pillar;
}
