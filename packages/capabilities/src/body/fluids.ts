import { blockKey, type Vec3 as Position } from '@sinew/executor-contracts';
import { EYE_HEIGHT } from '@sinew/executor-contracts/minecraft';
import type { SinewBot } from '../bot.js';
import { observeWorld, type ObservedWorld } from '../world.js';

const BURNING = new Set(['lava', 'fire', 'soul_fire']);

/** What escape_fluid gets the body out of (the `out_of` predicate's fluids). */
export type Fluid = 'lava' | 'fire' | 'water';

/** The blocks at the feet and at the eyes, keyed like `observeWorld` keys them. */
export function bodyCells(position: Position): Position[] {
  return [position, { x: position.x, y: position.y + EYE_HEIGHT, z: position.z }];
}

/** True when the snapshot's body cells are clear of what `fluid` escapes from. */
export function clearOf(snapshot: ObservedWorld, fluid: Fluid): boolean {
  const [feet, eyes] = bodyCells(snapshot.position).map((p) => snapshot.blocks[blockKey(p)] ?? 'unloaded');
  if (fluid === 'water') return eyes !== 'water' && eyes !== 'unloaded';
  return !BURNING.has(feet ?? '') && !BURNING.has(eyes ?? '');
}

/** Whether the bot's body is out of `fluid` now (what `out_of:<fluid>` means on the live bot). */
export function outOfFluid(bot: SinewBot, fluid: Fluid): boolean {
  return clearOf(observeWorld(bot, { positions: bodyCells(bot.entity.position) }), fluid);
}
