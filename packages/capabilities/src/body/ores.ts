// The overworld ores `mine` knows: what each drops, the cheapest pickaxe that harvests it, and the height at which
// a branch mine meets it most (the vanilla 1.20 distributions, kept above the lava level of -55).

/** An ore kind: the block name without `deepslate_` and `_ore`; `stone` (for cobblestone) is mined the same way. */
export type OreKind = 'stone' | 'coal' | 'copper' | 'iron' | 'gold' | 'redstone' | 'lapis' | 'diamond' | 'emerald';

interface OreFacts {
  /** What the ore drops to a pickaxe of the right tier (no Silk Touch). */
  readonly drop: string;
  /** The cheapest pickaxe that harvests it. */
  readonly tool: string;
  /** Where to branch mine for it (feet y). */
  readonly level: number;
}

/** The facts of each ore kind. */
export const ORES: Readonly<Record<OreKind, OreFacts>> = {
  // Under every spot of a generated world, but rarely bare: a few stairs down, the walls give cobblestone.
  stone: { drop: 'cobblestone', tool: 'wooden_pickaxe', level: 48 },
  coal: { drop: 'coal', tool: 'wooden_pickaxe', level: 56 },
  copper: { drop: 'raw_copper', tool: 'stone_pickaxe', level: 48 },
  iron: { drop: 'raw_iron', tool: 'stone_pickaxe', level: 16 },
  lapis: { drop: 'lapis_lazuli', tool: 'stone_pickaxe', level: 0 },
  gold: { drop: 'raw_gold', tool: 'iron_pickaxe', level: -16 },
  redstone: { drop: 'redstone', tool: 'iron_pickaxe', level: -50 },
  diamond: { drop: 'diamond', tool: 'iron_pickaxe', level: -50 },
  emerald: { drop: 'emerald', tool: 'iron_pickaxe', level: 100 },
};

/** The ore kind of a name (`iron`, `iron_ore` or `deepslate_iron_ore`), or undefined. */
export function oreKind(name: string): OreKind | undefined {
  const kind = name.replace(/^deepslate_/, '').replace(/_ore$/, '');
  return kind in ORES ? (kind as OreKind) : undefined;
}

/** The block names of an ore kind: the stone and the deepslate variant (stone itself: only stone). */
export function oreBlocks(kind: OreKind): string[] {
  return kind === 'stone' ? ['stone'] : [`${kind}_ore`, `deepslate_${kind}_ore`];
}
