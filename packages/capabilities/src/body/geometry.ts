import { type Vec3 as Position } from '@sinew/executor-contracts';
import { EYE_HEIGHT } from '@sinew/executor-contracts/minecraft';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import type { Block } from '../mc-types.js';
import { findBlockPositions } from './block-search.js';

/** Reach from the eyes to a block centre, as vanilla survival allows it (≈ 4.5 blocks). */
export const REACH = 4.5;
const AIR = new Set(['air', 'cave_air', 'void_air']);

/** Whether a block name is some kind of air. */
export function isAir(name: string | undefined): boolean {
  return name === undefined || AIR.has(name);
}

/** A `Vec3` from any `{x,y,z}`, floored to a block position. */
export function toBlockVec(position: Position): Vec3 {
  return new Vec3(Math.floor(position.x), Math.floor(position.y), Math.floor(position.z));
}

/** Distance from the bot's eyes to the centre of the block at `position`. */
export function eyeDistance(bot: Bot, position: Position): number {
  const eye = bot.entity.position.offset(0, EYE_HEIGHT, 0);
  return eye.distanceTo(toBlockVec(position).offset(0.5, 0.5, 0.5));
}

const overlaps = (low: number, high: number, cell: number) => low < cell + 1 && high > cell;

/** Whether the bot's 0.6 × 0.6 footprint (which can reach into a neighbouring column) overlaps a block's column. */
function inFootprint(bot: Bot, position: Position): boolean {
  const { x, z } = bot.entity.position;
  const block = toBlockVec(position);
  return overlaps(x - 0.3, x + 0.3, block.x) && overlaps(z - 0.3, z + 0.3, block.z);
}

/** Whether the bot's 1.8-high body overlaps a block position (the server refuses a block placed into the player). */
export function occupiedByBot(bot: Bot, position: Position): boolean {
  const y = bot.entity.position.y;
  return inFootprint(bot, position) && overlaps(y, y + 1.8, toBlockVec(position).y);
}

/**
 * Whether the block at `position` holds the bot up: under its footprint, with its top at the feet or a little
 * below them while the bot jumps or steps down.
 */
export function standsOn(bot: Bot, position: Position): boolean {
  const drop = bot.entity.position.y - (toBlockVec(position).y + 1);
  return inFootprint(bot, position) && drop > -0.01 && drop < 1.3;
}

/**
 * Whether a block name matches a block pattern: the exact name, or a suffix group (`log` → any `*_log`)
 * when the pattern is not itself a block name.
 */
export function blockMatcher(bot: Bot, pattern: string): (name: string) => boolean {
  if (bot.registry.blocksByName[pattern]) return (name) => name === pattern;
  const suffix = `_${pattern}`;
  return (name) => name.endsWith(suffix);
}

/** Ids of every block matching a pattern (see `blockMatcher`). */
export function blockIds(bot: Bot, pattern: string): number[] {
  const matches = blockMatcher(bot, pattern);
  return bot.registry.blocksArray.filter((block) => matches(block.name)).map((block) => block.id);
}

/** The nearest loaded block matching a pattern within `maxDistance`, or undefined. */
export function nearestBlock(bot: Bot, pattern: string, maxDistance: number): Block | undefined {
  const ids = blockIds(bot, pattern);
  if (ids.length === 0) return undefined;
  const [nearest] = findBlockPositions(bot, { matching: ids, maxDistance });
  return nearest ? (bot.blockAt(nearest) ?? undefined) : undefined;
}

const FACE_OFFSETS = [[0, 1, 0], [0, -1, 0], [1, 0, 0], [-1, 0, 0], [0, 0, 1], [0, 0, -1]] as const;

/** Whether air touches a block on any face (an ore in a tunnel wall, a log in the open), so the bot can see it. */
export function touchesAir(bot: Bot, position: Vec3): boolean {
  // An unloaded neighbour counts as rock: nothing is seen through it.
  return FACE_OFFSETS.some(([dx, dy, dz]) => isAir(bot.blockAt(position.offset(dx, dy, dz))?.name ?? 'stone'));
}
