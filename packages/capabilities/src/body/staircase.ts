// What a mining step must read before it digs: the cells it opens, what touches them (lava or water that would
// flow in), what rests on them (gravel or sand that would fall in) and what it will stand on (a cave below).
import { Vec3 } from 'vec3';

/** The blocks a hazard check reads: a block's name and collision, or undefined where nothing is loaded. */
export type BlockReader = (position: Vec3) => { readonly name: string; readonly boundingBox: string } | null | undefined;

/** Why a step was refused, and where. */
export interface Hazard {
  readonly kind: 'fluid' | 'falling_block' | 'fall' | 'unbreakable' | 'station' | 'unloaded';
  readonly block: string;
  readonly at: Vec3;
}

/** The four horizontal directions, in turning order (east, south, west, north). */
export const DIRECTIONS: readonly Vec3[] = [new Vec3(1, 0, 0), new Vec3(0, 0, 1), new Vec3(-1, 0, 0), new Vec3(0, 0, -1)];

/** Blocks that are fluid to a body (a bucket, a swim or a drowning: never walked into or dug toward). */
export const FLUIDS: ReadonlySet<string> = new Set(['water', 'lava', 'bubble_column']);
const FALLING = (name: string) => name === 'gravel' || name === 'sand' || name === 'red_sand' || name.endsWith('_concrete_powder') || name.startsWith('suspicious_');
const UNBREAKABLE = new Set(['bedrock', 'barrier', 'end_portal_frame', 'reinforced_deepslate']);
/**
 * Blocks a plan placed to work at: a staircase started beside its crafting table used to dig through it (the table
 * dropped, often left behind, and the craft after the climb found none).
 */
export const STATIONS: ReadonlySet<string> = new Set(['crafting_table', 'furnace', 'blast_furnace', 'smoker', 'chest', 'barrel']);
const NEIGHBOURS = [new Vec3(1, 0, 0), new Vec3(-1, 0, 0), new Vec3(0, 1, 0), new Vec3(0, -1, 0), new Vec3(0, 0, 1), new Vec3(0, 0, -1)];

/** Whether a block is fluid (water or lava, a waterlogged block counted as dry). */
function isFluid(name: string): boolean {
  return FLUIDS.has(name);
}

/** The cells a move from `feet` one block along `direction` opens: down a stair (three cells) or level (two). */
export function cellsToOpen(feet: Vec3, direction: Vec3, down: boolean): { cells: Vec3[]; standOn: Vec3; next: Vec3 } {
  const ahead = feet.plus(direction);
  if (!down) return { cells: [ahead.offset(0, 1, 0), ahead], standOn: ahead.offset(0, -1, 0), next: ahead };
  return { cells: [ahead.offset(0, 1, 0), ahead, ahead.offset(0, -1, 0)], standOn: ahead.offset(0, -2, 0), next: ahead.offset(0, -1, 0) };
}

/**
 * The first hazard of opening `cells` (top first) and standing on `standOn`: a cell or any neighbour of one
 * that is fluid, a falling block resting on the top cell, a block that cannot or must not be broken (a station), a floor that is not
 * solid (a cave or a shaft below), or an unloaded block. Undefined when the step is safe.
 */
export function stepHazard(read: BlockReader, cells: readonly Vec3[], standOn: Vec3): Hazard | undefined {
  const opened = new Set(cells.map((c) => c.toString()));
  for (const cell of cells) {
    const block = read(cell);
    if (!block) return { kind: 'unloaded', block: 'unloaded', at: cell };
    if (UNBREAKABLE.has(block.name)) return { kind: 'unbreakable', block: block.name, at: cell };
    if (STATIONS.has(block.name)) return { kind: 'station', block: block.name, at: cell };
    const around = [cell, ...NEIGHBOURS.map((offset) => cell.plus(offset)).filter((at) => !opened.has(at.toString()))];
    const fluid = around.find((at) => isFluid(read(at)?.name ?? ''));
    if (fluid) return { kind: 'fluid', block: read(fluid)!.name, at: fluid };
  }
  const top = cells[0]!.offset(0, 1, 0);
  const above = read(top)?.name;
  if (above !== undefined && FALLING(above)) return { kind: 'falling_block', block: above, at: top };
  const floor = read(standOn);
  if (!floor) return { kind: 'unloaded', block: 'unloaded', at: standOn };
  if (floor.boundingBox !== 'block' || FALLING(floor.name)) return { kind: 'fall', block: floor.name, at: standOn };
  return undefined;
}

/** The hazard of breaking one block (an ore in the wall): fluid at it or next to it. */
export function blockHazard(read: BlockReader, position: Vec3): Hazard | undefined {
  const fluid = [position, ...NEIGHBOURS.map((offset) => position.plus(offset))].find((at) => isFluid(read(at)?.name ?? ''));
  if (fluid) return { kind: 'fluid', block: read(fluid)!.name, at: fluid };
  const above = read(position.offset(0, 1, 0))?.name;
  if (above !== undefined && FALLING(above)) return { kind: 'falling_block', block: above, at: position.offset(0, 1, 0) };
  return undefined;
}
