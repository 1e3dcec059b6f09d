/** A block cell, integer coordinates. */
export interface Cell {
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

/** What the reach search asks of the world: can a mob's body not pass this block (full collision, or lava)? */
export type Blocked = (x: number, y: number, z: number) => boolean;

/** Whether a walker can get from one cell to the other, as far as a bounded search can tell. */
export type Reach = 'reachable' | 'unreachable' | 'unknown';

/**
 * Hostiles that hurt from afar (arrows, fireballs, potions, bullets, fangs): walking is not how they reach the bot, so
 * the reach check never leaves them out.
 */
export const RANGED_HOSTILES: ReadonlySet<string> = new Set(['skeleton', 'stray', 'bogged', 'pillager', 'blaze', 'ghast', 'witch', 'shulker', 'evoker', 'wither', 'ender_dragon', 'breeze', 'drowned']);

/** How far a walking mob goes in one move: up a block by jumping, down by falling at most this far (vanilla's safe fall). */
const MAX_DROP = 3;
const SIDES = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
] as const;

/**
 * Can a walking mob at `from` reach melee range of `to`? Two bounded best-first searches (nearest to the other end
 * first) over standing cells (two free blocks over a blocked one; a step up one block with head room, or a fall of at
 * most 3): one forward from the mob, one backward from the target. On open ground the first walks straight there;
 * whichever runs out of cells before `maxNodes` settles it — a target walled in, or a mob in a closed cave, is
 * `unreachable` in a few dozen cells even when the other side is an open field; both budgets spent is `unknown`
 * (treat it as reachable). Each block is read once per call.
 */
export function reach(blockedAt: Blocked, from: Cell, to: Cell, maxNodes = 400): Reach {
  const known = new Map<string, boolean>();
  const blocked: Blocked = (x, y, z) => {
    const key = `${x},${y},${z}`;
    let value = known.get(key);
    if (value === undefined) known.set(key, (value = blockedAt(x, y, z)));
    return value;
  };
  const start = settle(blocked, from);
  const goal = settle(blocked, to);
  if (!start || !goal) return 'unknown';
  const near = (c: Cell, target: Cell) => Math.max(Math.abs(c.x - target.x), Math.abs(c.z - target.z)) <= 1 && Math.abs(c.y - target.y) <= 1;
  const forward = search(blocked, start, goal, (c) => near(c, goal), maxNodes, false);
  if (forward !== 'unknown') return forward;
  return search(blocked, goal, start, (c) => near(c, start), maxNodes, true);
}

/** The standing cell at or up to 3 below a position (a mob in the air lands), or one up if the position is in a block. */
function settle(blocked: Blocked, p: Cell): Cell | undefined {
  const x = Math.floor(p.x), z = Math.floor(p.z);
  const y0 = Math.floor(p.y + 0.01);
  for (let y = y0 + 1; y >= y0 - MAX_DROP; y -= 1) if (standing(blocked, x, y, z)) return { x, y, z };
  return undefined;
}

function standing(blocked: Blocked, x: number, y: number, z: number): boolean {
  return !blocked(x, y, z) && !blocked(x, y + 1, z) && blocked(x, y - 1, z);
}

/** Is the move a → b (horizontal neighbours, both standing cells) one a walking mob can make? */
function canMove(blocked: Blocked, a: Cell, b: Cell): boolean {
  if (b.y === a.y) return true;
  if (b.y === a.y + 1) return !blocked(a.x, a.y + 2, a.z); // jump: head room above the take-off cell
  if (b.y < a.y && a.y - b.y <= MAX_DROP) {
    for (let y = b.y + 2; y <= a.y + 1; y += 1) if (blocked(b.x, y, b.z)) return false; // the fall's column is free
    return true;
  }
  return false;
}

function search(blocked: Blocked, start: Cell, target: Cell, done: (c: Cell) => boolean, maxNodes: number, backward: boolean): Reach {
  const key = (c: Cell) => `${c.x},${c.y},${c.z}`;
  const seen = new Set<string>([key(start)]);
  // a bucket queue on the distance left (taxicab): the open cell nearest to the target comes out first
  const buckets: Cell[][] = [];
  const left = (c: Cell) => Math.abs(c.x - target.x) + Math.abs(c.y - target.y) + Math.abs(c.z - target.z);
  const push = (c: Cell) => (buckets[left(c)] ??= []).push(c);
  push(start);
  for (let h = 0; h < buckets.length; ) {
    const cell = buckets[h]?.pop();
    if (!cell) {
      h += 1;
      continue;
    }
    if (done(cell)) return 'reachable';
    if (seen.size >= maxNodes) return 'unknown';
    for (const [dx, dz] of SIDES) {
      const x = cell.x + dx, z = cell.z + dz;
      for (let y = cell.y + (backward ? MAX_DROP : 1); y >= cell.y - (backward ? 1 : MAX_DROP); y -= 1) {
        const next = { x, y, z };
        if (!standing(blocked, x, y, z) || seen.has(key(next))) continue;
        if (!(backward ? canMove(blocked, next, cell) : canMove(blocked, cell, next))) continue;
        seen.add(key(next));
        push(next);
        h = Math.min(h, left(next));
      }
    }
  }
  return 'unreachable';
}

/** The part of a threat `threatsThatReach` reads. */
export interface ReachThreat {
  readonly cls: string;
  readonly hostile: boolean;
  readonly predicted: Cell;
  readonly distance: number;
}

/** Where the reach check looks from and how far: the bot's cell, the world's blocks, the search budget, the radius. */
export interface ReachScope {
  readonly self: Cell;
  readonly blocked: Blocked;
  readonly maxNodes: number;
  readonly radius: number;
  /** Counted into: hostiles checked, and those found unable to reach the bot. */
  readonly counts: { checked: number; unreachable: number };
}

/**
 * Leaves out the melee hostiles within `radius` that cannot walk to the bot (see `reach`); ranged ones
 * (`RANGED_HOSTILES`), those farther off and non-hostiles pass as they are.
 */
export function threatsThatReach<T extends ReachThreat>(threats: readonly T[], scope: ReachScope): readonly T[] {
  return threats.filter((t) => {
    if (!t.hostile || t.distance > scope.radius || RANGED_HOSTILES.has(t.cls)) return true;
    scope.counts.checked += 1;
    const unreachable = reach(scope.blocked, t.predicted, scope.self, scope.maxNodes) === 'unreachable';
    if (unreachable) scope.counts.unreachable += 1;
    return !unreachable;
  });
}
