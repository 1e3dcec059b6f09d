// Seed 004's structured (HRM) and collaborative columns: the routes to the goal-oriented planner
// (`goap`) and to the collaborative planner (a model's proposal checked against the declarations).
import type { RouteRule } from './router.js';

const KIND = '(?:has_item|near_block|within_reach|at|air|block|equipped|out_of|structure|seen_mob|in_biome|custom|y)';
/** A goal written as predicates (`has_item:torch:4 near_block:crafting_table`): every word `<kind>:<rest>`. */
// Words and separators never overlap, so a long goal that is not predicates fails in linear time.
export const PREDICATE_GOAL = new RegExp(`^${KIND}:[^\\s,]+(?:[\\s,]+${KIND}:[^\\s,]+)*[\\s,]*$`);

/** Rows added to the default routing table; they only score planners named `goap` and `collaborative` when registered. */
export const GOAP_ROUTING_RULES: readonly RouteRule[] = [
  { name: 'predicate_goal', goal: PREDICATE_GOAL, route: ['goap', 'llm'], weight: 5 },
  { name: 'structured_logic', traits: ['navigation', 'puzzle', 'resource_optimization'], route: ['goap', 'htn'], weight: 3 },
  { name: 'collaborative', traits: ['trade_off', 'collaborative'], route: ['collaborative', 'llm'], weight: 3 },
];
