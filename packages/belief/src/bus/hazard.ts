/** A bucketed region of danger: integer cell coordinates, a level 1..4, how many threats are in it. */
export interface HazardRegion {
  readonly cell: { readonly x: number; readonly y: number; readonly z: number };
  readonly level: number;
  readonly count: number;
}

/**
 * Derived, ephemeral control input for navigation and reflexes (pivot 5/8): bucketed, bounded and
 * sorted, and never part of the canonical state hash.
 */
export interface HazardSummary {
  readonly tickId: number;
  readonly cellBlocks: number;
  readonly regions: readonly HazardRegion[];
}

export interface HazardSource {
  readonly cx: number;
  readonly cy: number;
  readonly cz: number;
  readonly score: number;
}

/** Aggregates threat sources into at most `max` regions, highest level first, then by cell. */
export function summarizeHazards(
  tickId: number,
  cellBlocks: number,
  sources: readonly HazardSource[],
  max: number,
): HazardSummary {
  const cells = new Map<string, { x: number; y: number; z: number; level: number; count: number }>();
  for (const s of sources) {
    const level = Math.min(4, 1 + Math.trunc(s.score / 250));
    const key = `${s.cx},${s.cy},${s.cz}`;
    const cell = cells.get(key);
    if (cell) {
      cell.level = Math.max(cell.level, level);
      cell.count += 1;
    } else cells.set(key, { x: s.cx, y: s.cy, z: s.cz, level, count: 1 });
  }
  const regions = [...cells.values()]
    .sort((a, b) => b.level - a.level || b.count - a.count || a.x - b.x || a.y - b.y || a.z - b.z)
    .slice(0, max)
    .map(({ x, y, z, level, count }) => ({ cell: { x, y, z }, level, count }));
  return { tickId, cellBlocks, regions };
}
