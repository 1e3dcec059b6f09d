// Minecraft facts that more than one package reads: one constant per fact, so a body, a planner and the
// belief layer cannot disagree on what "near", "eye level" or "a block to pillar with" means. Published as
// `@sinew/executor-contracts/minecraft`, apart from the body-neutral root.

/** How close (blocks) a block must be for `near_block:<block>` to hold: bodies check it, planners plan with it. */
export const NEAR_BLOCK_DISTANCE = 4;

/** Eye height (blocks above the feet) of a standing player: reach and "eyes under water" are measured from here. */
export const EYE_HEIGHT = 1.62;

/** Blocks `pillar_up` stands on, in the order it prefers them; planners and the belief layer count the same ones. */
export const SCAFFOLD_BLOCKS = ['dirt', 'cobblestone', 'oak_planks', 'spruce_planks', 'birch_planks', 'netherrack', 'stone', 'sand'] as const;
