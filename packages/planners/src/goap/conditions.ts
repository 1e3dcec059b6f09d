// What the goal-oriented planner regresses over: item demands (counts) and the other open predicates.
import { blockKey, formatPredicate, type Predicate } from '@sinew/executor-contracts';
import type { PlannerWorld } from '../contract.js';
// Pure geometry over the snapshot (contracts only): no minecraft-data behind it.
import { blockNear } from '../minecraft/state.js';

/** Whether a predicate holds in a world; the default reads inventory and the observed blocks. */
export type PredicateEvaluator = (predicate: Predicate, world: PlannerWorld) => boolean;

/** A regression state: the counts of named items needed and the other predicates that must hold, before the plan's suffix. */
export interface Conditions {
  /** Item name → how many must be held (sorted by name when read). */
  readonly demand: ReadonlyMap<string, number>;
  /** Wire string → predicate, for everything that is not a named-item count. */
  readonly open: ReadonlyMap<string, Predicate>;
}

/** The conditions a goal states: `has_item` of a named item is a demand (`gained` adds to what is held). */
export function conditionsOf(goal: readonly Predicate[], world: PlannerWorld): Conditions {
  const demand = new Map<string, number>();
  const open = new Map<string, Predicate>();
  for (const predicate of goal) {
    if (predicate.kind === 'has_item' && typeof predicate.item === 'string') {
      const wanted = predicate.mode === 'gain' ? held(world, predicate.item) + predicate.count : predicate.count;
      demand.set(predicate.item, Math.max(demand.get(predicate.item) ?? 0, wanted));
    } else {
      open.set(formatPredicate(predicate), predicate);
    }
  }
  return { demand, open };
}

/** How many of a named item the world holds. */
export function held(world: PlannerWorld, item: string): number {
  return world.inventory[item] ?? 0;
}

/** The conditions the world does not meet, in a fixed order (items by name, then predicates by wire string). */
export function unmet(conditions: Conditions, world: PlannerWorld, holds: PredicateEvaluator): Predicate[] {
  const found: Predicate[] = [];
  for (const item of [...conditions.demand.keys()].sort()) {
    const need = conditions.demand.get(item)!;
    const have = held(world, item);
    if (have < need) found.push({ kind: 'has_item', item, count: need - have, mode: 'gain' });
  }
  for (const key of [...conditions.open.keys()].sort()) {
    const predicate = conditions.open.get(key)!;
    if (!holds(predicate, world)) found.push(predicate);
  }
  return found;
}

/** A stable key for a state (closed set): only what the world does not already meet. */
export function stateKey(conditions: Conditions, world: PlannerWorld, holds: PredicateEvaluator): string {
  const items = [...conditions.demand].filter(([item, need]) => held(world, item) < need).sort(([a], [b]) => (a < b ? -1 : 1));
  const open = [...conditions.open].filter(([, p]) => !holds(p, world)).map(([key]) => key).sort();
  return `${items.map(([item, need]) => `${item}=${need}`).join(',')}|${open.join(',')}`;
}

/**
 * The default evaluator over a `PlannerWorld`: counts for `has_item` (class `any`: anything held), a block in
 * focus within `NEAR_BLOCK_DISTANCE` for `near_block`, `block_at`, `air_at`; the item in hand for `equipped:hand`. Anything else (events such
 * as `food_rose`, `hurt`) does not hold before a step makes it hold.
 */
export const defaultEvaluator: PredicateEvaluator = (predicate, world) => {
  switch (predicate.kind) {
    case 'has_item':
      if (typeof predicate.item !== 'string') return predicate.item.class === 'any' && Object.values(world.inventory).some((n) => n >= predicate.count);
      return predicate.mode === 'at_least' && held(world, predicate.item) >= predicate.count;
    case 'near_block':
      return blockNear(world, predicate.block);
    case 'block_at':
      return 'x' in predicate.position && world.blocks[blockKey(predicate.position)] === predicate.block;
    case 'air_at':
      return 'x' in predicate.position && /^(air|cave_air|void_air)$/.test(world.blocks[blockKey(predicate.position)] ?? '');
    case 'equipped':
      return predicate.destination === 'hand' && world.heldItem === predicate.item;
    default:
      return false;
  }
};
