// Furnace data minecraft-data does not carry (vanilla 1.20.4), hand-written; a test checks every name.

/** Furnace recipes the planner uses: result → the input that smelts into it (one of each, 200 ticks). */
export const SMELTING: Readonly<Record<string, string>> = {
  iron_ingot: 'raw_iron',
  gold_ingot: 'raw_gold',
  copper_ingot: 'raw_copper',
  netherite_scrap: 'ancient_debris',
  stone: 'cobblestone',
  smooth_stone: 'stone',
  deepslate: 'cobbled_deepslate',
  cracked_stone_bricks: 'stone_bricks',
  glass: 'sand',
  brick: 'clay_ball',
  terracotta: 'clay',
  nether_brick: 'netherrack',
  smooth_sandstone: 'sandstone',
  smooth_red_sandstone: 'red_sandstone',
  smooth_quartz: 'quartz_block',
  smooth_basalt: 'basalt',
  charcoal: 'oak_log',
  green_dye: 'cactus',
  lime_dye: 'sea_pickle',
  dried_kelp: 'kelp',
  sponge: 'wet_sponge',
  popped_chorus_fruit: 'chorus_fruit',
  baked_potato: 'potato',
  cooked_beef: 'beef',
  cooked_porkchop: 'porkchop',
  cooked_chicken: 'chicken',
  cooked_mutton: 'mutton',
  cooked_rabbit: 'rabbit',
  cooked_cod: 'cod',
  cooked_salmon: 'salmon',
};

/** Fuel burn times in ticks (vanilla's fuel map, the common entries); one item cooks in 200. */
export const FUEL_TICKS: Readonly<Record<string, number>> = {
  lava_bucket: 20_000,
  coal_block: 16_000,
  dried_kelp_block: 4_001,
  blaze_rod: 2_400,
  coal: 1_600,
  charcoal: 1_600,
  oak_boat: 1_200,
  oak_log: 300,
  spruce_log: 300,
  birch_log: 300,
  jungle_log: 300,
  acacia_log: 300,
  dark_oak_log: 300,
  mangrove_log: 300,
  cherry_log: 300,
  oak_planks: 300,
  spruce_planks: 300,
  birch_planks: 300,
  jungle_planks: 300,
  acacia_planks: 300,
  dark_oak_planks: 300,
  mangrove_planks: 300,
  cherry_planks: 300,
  bamboo_planks: 300,
  crafting_table: 300,
  chest: 300,
  bookshelf: 300,
  ladder: 300,
  oak_slab: 150,
  wooden_pickaxe: 200,
  wooden_axe: 200,
  wooden_shovel: 200,
  wooden_sword: 200,
  oak_door: 200,
  stick: 100,
  bowl: 100,
  oak_sapling: 100,
  white_wool: 100,
  bamboo: 50,
};

/** Ticks a furnace takes per item. */
export const COOK_TICKS = 200;

/** The fuel the planner provides for smelting: coal (a gathered item, 8 smelts each), the smelt_item capability's first choice. */
export const SMELT_FUEL = 'coal';

/** How many of `fuel` burn long enough for `items` smelts (undefined when it is no fuel). */
export function fuelFor(fuel: string, items: number): number | undefined {
  const ticks = FUEL_TICKS[fuel];
  return ticks === undefined ? undefined : Math.ceil((items * COOK_TICKS) / ticks);
}
