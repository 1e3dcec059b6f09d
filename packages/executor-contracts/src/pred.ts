// The builders of typed predicates (`pred.*`): what guards, acceptance checks, planners and capability
// declarations write instead of wire strings.
import type { BlockPos, Fluid, ItemRef, Placeholder, Predicate, PredicateTemplate } from './predicates.js';

/**
 * Builders of typed predicates; format them with `formatPredicate`, or pass them straight to
 * `precondMissing` / `effectsUnmet`. Positions are floored to their block. Given a placeholder in a value
 * slot (a capability declaration over symbolic args), a builder returns a `PredicateTemplate`.
 *
 * @example
 * precondMissing([pred.hasItem('stick', 2), pred.nearBlock('crafting_table')])
 */
export const pred = {
  /** At least `count` of an item (or of an item class: `{ class: 'food' }`). */
  hasItem: <I extends ItemRef | Placeholder, C extends number | Placeholder = number>(item: I, count?: C) =>
    ({ kind: 'has_item', item, count: count ?? 1, mode: 'at_least' }) as Built<I | C>,
  /** `count` more of an item than before the step. */
  gained: <I extends ItemRef | Placeholder, C extends number | Placeholder = number>(item: I, count?: C) =>
    ({ kind: 'has_item', item, count: count ?? 1, mode: 'gain' }) as Built<I | C>,
  /** A block of this name within reach of the bot. */
  nearBlock: <B extends string | Placeholder>(block: B) => ({ kind: 'near_block', block }) as Built<B>,
  /** The bot can reach this position. */
  withinReach: (position: Position): Predicate => ({ kind: 'within_reach', position: toTarget(position) }),
  /** The bot stands at this position. */
  at: (position: Position): Predicate => ({ kind: 'at', position: toTarget(position) }),
  /** Air (nothing solid) at this position. */
  airAt: (position: Position): Predicate => ({ kind: 'air_at', position: toTarget(position) }),
  /** A block of this name at this position. */
  blockAt: <B extends string | Placeholder>(position: Position, block: B) => ({ kind: 'block_at', position: toTarget(position), block }) as Built<B>,
  /** This item held in, or worn at, `destination` (`hand`, `head`, …). */
  equipped: <D extends string | Placeholder, I extends string | Placeholder>(destination: D, item: I) => ({ kind: 'equipped', destination, item }) as Built<D | I>,
  /** This entity took damage. */
  hurt: (entity: { readonly name: string; readonly id: string | number } | Placeholder): Predicate =>
    ({ kind: 'hurt', entity: 'placeholder' in entity ? entity : { name: entity.name, id: String(entity.id) } }),
  /** The bot stands at least `blocks` higher than before the step. */
  rose: <N extends number | Placeholder>(blocks: N) => ({ kind: 'rose', blocks }) as Built<N>,
  /** The nearest threat is at least `atLeast` blocks away (the capability default when omitted). */
  distanceFromThreat: <N extends number | Placeholder = number>(atLeast?: N) =>
    (atLeast === undefined ? { kind: 'distance_from_threat' } : { kind: 'distance_from_threat', atLeast }) as Built<N>,
  /** The food bar is higher than before the step. */
  foodRose: (): Predicate => ({ kind: 'food_rose' }),
  /** The server echoed the chat message. */
  chatEchoed: (): Predicate => ({ kind: 'chat_echoed' }),
  /** A structure is built (or observed as already built). */
  structure: (state: 'built' | 'observed'): Predicate => ({ kind: 'structure', state }),
  /** The body is out of a fluid (`lava`, `fire`: feet and head clear; `water`: eyes in air). */
  outOf: <F extends Fluid | Placeholder>(fluid: F) => ({ kind: 'out_of', fluid }) as Built<F>,
  /** A mob of this kind (an entity name: `sheep`) in sight of the bot. */
  seenMob: <M extends string | Placeholder>(mob: M) => ({ kind: 'seen_mob', mob }) as Built<M>,
  /** The bot stands in a biome of this name (`desert`). */
  inBiome: <B extends string | Placeholder>(biome: B) => ({ kind: 'in_biome', biome }) as Built<B>,
  /** The bot's feet at block y `y` or lower (`y:<=16`): a depth reached. */
  belowY: <Y extends number | Placeholder>(y: Y) => ({ kind: 'below_y', y: typeof y === 'number' ? y + 0 : y }) as Built<Y>,
  /** Free text for what no other kind says; planners cannot subgoal on it. */
  custom: (text: string): Predicate => ({ kind: 'custom', text }),
  /** An unobserved target (`<target>` on the wire). */
  placeholder: (name: string): Placeholder => ({ placeholder: name }),
} as const;

type Position = { readonly x: number; readonly y: number; readonly z: number } | Placeholder;

/** A built predicate's type: a template when a value slot was given a placeholder, else a predicate a step can carry. */
type Built<Values> = [Extract<Values, Placeholder>] extends [never] ? Predicate : PredicateTemplate;

function toTarget(position: Position): BlockPos | Placeholder {
  // `+ 0` turns -0 into 0, so a built position equals its parsed wire form.
  return 'placeholder' in position ? position : { x: Math.floor(position.x) + 0, y: Math.floor(position.y) + 0, z: Math.floor(position.z) + 0 };
}
