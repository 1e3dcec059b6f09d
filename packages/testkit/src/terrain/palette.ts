// The block state ids the terrain generator writes, looked up once per registry.
import type { IndexedData } from 'minecraft-data';
import type { Ore, TreeKind } from './features.js';

const ORES = ['coal', 'copper', 'iron', 'gold', 'redstone', 'lapis', 'diamond', 'emerald'] as const;
const KINDS: readonly TreeKind[] = ['oak', 'birch', 'spruce'];
const SIMPLE = [
  'air', 'stone', 'deepslate', 'bedrock', 'dirt', 'grass_block', 'sand', 'gravel', 'clay', 'water', 'lava', 'short_grass', 'sugar_cane',
] as const;
const FLOWERS = ['dandelion', 'poppy', 'cornflower', 'oxeye_daisy', 'azure_bluet'] as const;

/**
 * Every block the terrain generator may write (its palette): what a planner's world sources must cover — a log the
 * trees are made of and no source lists is wood the planner cannot plan with.
 */
export const TERRAIN_BLOCKS: readonly string[] = [
  ...SIMPLE,
  ...ORES.flatMap((ore) => [`${ore}_ore`, `deepslate_${ore}_ore`]),
  ...KINDS.flatMap((kind) => [`${kind}_log`, `${kind}_leaves`]),
  ...FLOWERS,
];

export type BlockPalette = Record<(typeof SIMPLE)[number], number> & {
  /** [in stone, in deepslate] per ore. */
  ores: Record<Ore, [number, number]>;
  /** [log, leaves] per tree kind. */
  trees: Record<TreeKind, [number, number]>;
  flowers: number[];
};

export function blockPalette(registry: IndexedData): BlockPalette {
  const state = (name: string): number => {
    const block = registry.blocksByName[name];
    if (!block) throw new Error(`terrain: no block ${name} in ${registry.version.minecraftVersion}`);
    return block.defaultState!;
  };
  const palette = Object.fromEntries(SIMPLE.map((name) => [name, state(name)])) as unknown as BlockPalette;
  const gravel = state('gravel');
  palette.ores = {
    ...Object.fromEntries(ORES.map((ore) => [ore, [state(`${ore}_ore`), state(`deepslate_${ore}_ore`)]])),
    gravel: [gravel, gravel],
  } as BlockPalette['ores'];
  palette.trees = Object.fromEntries(KINDS.map((kind) => [kind, [state(`${kind}_log`), state(`${kind}_leaves`)]])) as BlockPalette['trees'];
  palette.flowers = FLOWERS.map(state);
  return palette;
}
