import type { IndexedData } from 'minecraft-data';

/** A crafting recipe from minecraft-data, normalized for matching against a grid. */
export interface GridRecipe {
  /** Row-major item ids of the trimmed shape (null = empty cell); absent for shapeless. */
  shape?: { width: number; height: number; cells: (number | null)[] };
  /** Sorted item ids of a shapeless recipe. */
  ingredients?: number[];
  result: { id: number; count: number };
}

type RawCell = number | null | { id: number } | undefined;
const idOf = (cell: RawCell): number | null => (cell == null ? null : typeof cell === 'number' ? cell : cell.id);

const cache = new WeakMap<object, GridRecipe[]>();

/** Every crafting recipe of a version, trimmed to its bounding box. */
export function recipesOf(registry: IndexedData): GridRecipe[] {
  const cached = cache.get(registry);
  if (cached) return cached;
  const all: GridRecipe[] = [];
  const table = registry.recipes as unknown as Record<string, { inShape?: RawCell[][]; ingredients?: RawCell[]; result: { id: number; count: number } }[]>;
  for (const variants of Object.values(table)) {
    for (const raw of variants) {
      const result = { id: raw.result.id, count: raw.result.count ?? 1 };
      if (raw.inShape) {
        const rows = raw.inShape.map((row) => row.map(idOf));
        const shape = trim(rows);
        if (shape) all.push({ shape, result });
      } else if (raw.ingredients) {
        all.push({ ingredients: raw.ingredients.map(idOf).filter((id): id is number => id !== null).sort((a, b) => a - b), result });
      }
    }
  }
  cache.set(registry, all);
  return all;
}

/** The smallest box holding every non-empty cell, or null when all are empty. */
export function trim(rows: (number | null)[][]): GridRecipe['shape'] | null {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -1;
  let maxY = -1;
  rows.forEach((row, y) =>
    row.forEach((cell, x) => {
      if (cell === null) return;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }),
  );
  if (maxX < 0) return null;
  const width = maxX - minX + 1;
  const height = maxY - minY + 1;
  const cells: (number | null)[] = [];
  for (let y = minY; y <= maxY; y++) for (let x = minX; x <= maxX; x++) cells.push(rows[y]?.[x] ?? null);
  return { width, height, cells };
}

/** The recipe a square crafting grid (row-major item ids) makes, if any. */
export function matchGrid(recipes: GridRecipe[], grid: (number | null)[], size: number): GridRecipe | null {
  const rows: (number | null)[][] = [];
  for (let y = 0; y < size; y++) rows.push(grid.slice(y * size, y * size + size));
  const shape = trim(rows);
  if (!shape) return null;
  const items = shape.cells.filter((c): c is number => c !== null).sort((a, b) => a - b);
  for (const recipe of recipes) {
    if (recipe.shape) {
      if (recipe.shape.width !== shape.width || recipe.shape.height !== shape.height) continue;
      if (sameShape(recipe.shape, shape, false) || sameShape(recipe.shape, shape, true)) return recipe;
    } else if (recipe.ingredients && recipe.ingredients.length === items.length) {
      if (recipe.ingredients.every((id, i) => id === items[i])) return recipe;
    }
  }
  return null;
}

function sameShape(recipe: NonNullable<GridRecipe['shape']>, grid: NonNullable<GridRecipe['shape']>, mirrored: boolean): boolean {
  for (let y = 0; y < grid.height; y++) {
    for (let x = 0; x < grid.width; x++) {
      const rx = mirrored ? grid.width - 1 - x : x;
      if ((recipe.cells[y * recipe.width + rx] ?? null) !== (grid.cells[y * grid.width + x] ?? null)) return false;
    }
  }
  return true;
}
