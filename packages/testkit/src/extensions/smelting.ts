// Furnace data minecraft-data does not carry: smelting recipes and fuel burn times (vanilla 1.20.4).

/** Overworld wood kinds (nether stems do not burn). */
const WOODS = ['oak', 'spruce', 'birch', 'jungle', 'acacia', 'dark_oak', 'mangrove', 'cherry'] as const;
const COLORS = ['white', 'orange', 'magenta', 'light_blue', 'yellow', 'lime', 'pink', 'gray', 'light_gray', 'cyan', 'purple', 'blue', 'brown', 'green', 'red', 'black'] as const;

const logsOf = (wood: string): string[] => [`${wood}_log`, `${wood}_wood`, `stripped_${wood}_log`, `stripped_${wood}_wood`];

/** Furnace recipes: input item → result item (one of each; every recipe cooks in 200 ticks). */
export const SMELTING: Readonly<Record<string, string>> = {
  raw_iron: 'iron_ingot', iron_ore: 'iron_ingot', deepslate_iron_ore: 'iron_ingot',
  raw_gold: 'gold_ingot', gold_ore: 'gold_ingot', deepslate_gold_ore: 'gold_ingot', nether_gold_ore: 'gold_ingot',
  raw_copper: 'copper_ingot', copper_ore: 'copper_ingot', deepslate_copper_ore: 'copper_ingot',
  coal_ore: 'coal', deepslate_coal_ore: 'coal', lapis_ore: 'lapis_lazuli', redstone_ore: 'redstone',
  diamond_ore: 'diamond', emerald_ore: 'emerald', nether_quartz_ore: 'quartz', ancient_debris: 'netherite_scrap',
  cobblestone: 'stone', stone: 'smooth_stone', cobbled_deepslate: 'deepslate', stone_bricks: 'cracked_stone_bricks',
  sand: 'glass', red_sand: 'glass', clay_ball: 'brick', clay: 'terracotta', netherrack: 'nether_brick',
  sandstone: 'smooth_sandstone', red_sandstone: 'smooth_red_sandstone', quartz_block: 'smooth_quartz', basalt: 'smooth_basalt',
  cactus: 'green_dye', sea_pickle: 'lime_dye', kelp: 'dried_kelp', wet_sponge: 'sponge', chorus_fruit: 'popped_chorus_fruit',
  potato: 'baked_potato', beef: 'cooked_beef', porkchop: 'cooked_porkchop', chicken: 'cooked_chicken',
  mutton: 'cooked_mutton', rabbit: 'cooked_rabbit', cod: 'cooked_cod', salmon: 'cooked_salmon',
  ...Object.fromEntries(WOODS.flatMap(logsOf).map((log) => [log, 'charcoal'])),
};

/** Ticks one item burns in a furnace (vanilla AbstractFurnaceBlockEntity fuel map). */
export const FUEL_TICKS: Readonly<Record<string, number>> = {
  lava_bucket: 20_000, coal_block: 16_000, dried_kelp_block: 4_001, blaze_rod: 2_400, coal: 1_600, charcoal: 1_600,
  bamboo_raft: 1_200, bamboo_chest_raft: 1_200,
  bamboo_block: 300, stripped_bamboo_block: 300, bamboo_planks: 300, bamboo_mosaic: 300, bamboo_stairs: 300, bamboo_mosaic_stairs: 300,
  bamboo_slab: 150, bamboo_mosaic_slab: 150, bamboo_fence: 300, bamboo_fence_gate: 300, bamboo_trapdoor: 300, bamboo_pressure_plate: 300,
  bamboo_door: 200, bamboo_sign: 200, bamboo_button: 100, bamboo_hanging_sign: 800,
  crafting_table: 300, chest: 300, trapped_chest: 300, barrel: 300, bookshelf: 300, chiseled_bookshelf: 300, lectern: 300,
  jukebox: 300, note_block: 300, composter: 300, loom: 300, cartography_table: 300, fletching_table: 300, smithing_table: 300,
  daylight_detector: 300, ladder: 300, bow: 300, crossbow: 300, fishing_rod: 300, mangrove_roots: 300,
  wooden_pickaxe: 200, wooden_axe: 200, wooden_shovel: 200, wooden_hoe: 200, wooden_sword: 200,
  stick: 100, bowl: 100, dead_bush: 100, azalea: 100, flowering_azalea: 100, mangrove_propagule: 100, bamboo: 50, scaffolding: 50,
  ...Object.fromEntries(COLORS.flatMap((color) => [[`${color}_wool`, 100], [`${color}_carpet`, 67], [`${color}_banner`, 300]])),
  ...Object.fromEntries(WOODS.flatMap((wood) => woodFuels(wood))),
};

function woodFuels(wood: string): [string, number][] {
  const entries: [string, number][] = logsOf(wood).map((log) => [log, 300]);
  for (const kind of ['planks', 'stairs', 'fence', 'fence_gate', 'trapdoor', 'pressure_plate']) entries.push([`${wood}_${kind}`, 300]);
  entries.push([`${wood}_slab`, 150], [`${wood}_door`, 200], [`${wood}_sign`, 200], [`${wood}_hanging_sign`, 800], [`${wood}_button`, 100]);
  entries.push([`${wood}_boat`, 1_200], [`${wood}_chest_boat`, 1_200]);
  if (wood !== 'mangrove') entries.push([`${wood}_sapling`, 100]);
  return entries;
}

/** What a fuel leaves in the fuel slot once burnt (lava leaves its bucket). */
export const FUEL_REMAINDER: Readonly<Record<string, string>> = { lava_bucket: 'bucket' };
