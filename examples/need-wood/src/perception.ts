import { observeWorld, type ObservedWorld, type SinewBot } from '@sinew/capabilities';
import { focusAround } from '@sinew/planners/minecraft';

/**
 * How far a crafting table or furnace is looked for beyond the focus: the planner walks back to a station within 24
 * blocks rather than craft another (`WALK_BACK_DISTANCE` in @sinew/planners' GOAP), so it must see that far.
 */
const STATION_DISTANCE = 24;
const STATIONS = ['crafting_table', 'furnace'] as const;

/**
 * The planner's snapshot: the body, the blocks within `focus` of it, and every station within walk-back distance at
 * any focus. A flee (or a gather) takes the body out of the wood story's 6 blocks; a table out of view is one the
 * repair crafts again, spending the planks the pickaxe needs (the survival story: flee → a new table → planks short →
 * gather → out of view again → repairs used up).
 */
export function observeAround(body: SinewBot, focus: number): ObservedWorld {
  const matching = STATIONS.map((name) => body.registry.blocksByName[name]?.id).filter((id): id is number => id !== undefined);
  const stations = body.findBlocks({ matching, maxDistance: STATION_DISTANCE, count: 8 });
  return observeWorld(body, { positions: [...focusAround(body.entity.position, focus), ...stations] });
}
