import { blockKey } from '@sinew/executor-contracts';
import type { SinewBot } from '../bot.js';

/** What a furnace was last seen holding (a retry resumes from it instead of asking for the input again). */
export interface FurnaceContents {
  readonly input?: { readonly name: string; readonly count: number };
  readonly output?: { readonly name: string; readonly count: number };
}

type Position = { readonly x: number; readonly y: number; readonly z: number };

// Each attempt sees the body through its own view object, so the view is no key; every view reads the
// bot's own `sinew` namespace through, and it lives exactly as long as the bot (a username is shared).
const lastSeen = new WeakMap<object, Map<string, FurnaceContents>>();
const MAX_REMEMBERED = 64;

function owner(bot: SinewBot): object {
  return (bot as { sinew?: object }).sinew ?? bot;
}

/** Records what the furnace at `position` holds, as this bot saw it. */
export function rememberFurnace(bot: SinewBot, position: Position, contents: FurnaceContents): void {
  let byBlock = lastSeen.get(owner(bot));
  if (!byBlock) lastSeen.set(owner(bot), (byBlock = new Map()));
  byBlock.delete(blockKey(position));
  byBlock.set(blockKey(position), contents);
  // Oldest first out: a bot uses a handful of furnaces, never an unbounded number.
  if (byBlock.size > MAX_REMEMBERED) byBlock.delete(byBlock.keys().next().value!);
}

/** What this bot last saw the furnace at `position` holding, if it ever looked. */
export function lastSeenInFurnace(bot: SinewBot, position: Position): FurnaceContents | undefined {
  return lastSeen.get(owner(bot))?.get(blockKey(position));
}
