// Tool facts with no minecraft-data behind them, so the needs planner can read them without loading a version.

/** Pickaxes by harvest tier, weakest first (a golden pickaxe harvests what a wooden one does). */
export const PICKAXES_BY_TIER = ['wooden_pickaxe', 'golden_pickaxe', 'stone_pickaxe', 'iron_pickaxe', 'diamond_pickaxe', 'netherite_pickaxe'] as const;
