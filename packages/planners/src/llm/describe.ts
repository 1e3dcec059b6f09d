import type { Intent, ToolDefinition, Vec3 } from '@sinew/executor-contracts';
import type { PlannerWorld } from '../contract.js';

/** The intent for the prompt: goal, source, traits and urgency in words (context numbers are left out). */
export function describeIntent(intent: Intent): string {
  const urgency = intent.urgency >= 0.8 ? 'urgent' : intent.urgency >= 0.4 ? 'moderately urgent' : 'not urgent';
  const context = Object.entries(intent.context)
    .filter(([, v]) => typeof v === 'string' || typeof v === 'boolean')
    .map(([k, v]) => `${k}: ${String(v)}`);
  return [`goal: ${intent.goal}`, `from: ${intent.source}`, `urgency: ${urgency}`, ...(intent.traits.length ? [`traits: ${intent.traits.join(', ')}`] : []), ...context].join('\n');
}

/** A count as a word (seeds/001: numbers stay in the substrate): none, one, a few (2–4), several (5–16), a stack (17–64), lots. */
export function countWord(count: number): string {
  if (!(count > 0)) return 'none';
  if (count < 2) return 'one';
  if (count <= 4) return 'a few';
  if (count <= 16) return 'several';
  return count <= 64 ? 'a stack' : 'lots';
}

/** A distance in blocks as a word: within reach (≤ 4), close (≤ 10), nearby (≤ 24), far (≤ 64), very far. */
export function distanceWord(blocks: number): string {
  if (blocks <= 4) return 'within reach';
  if (blocks <= 10) return 'close';
  if (blocks <= 24) return 'nearby';
  return blocks <= 64 ? 'far' : 'very far';
}

const COMPASS = ['east', 'south-east', 'south', 'south-west', 'west', 'north-west', 'north', 'north-east'] as const;

/** Where `to` lies from `from`, in words: distance word, compass direction (north is −z) and above/below. */
export function relativeWords(from: Vec3, to: Vec3): string {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const dz = to.z - from.z;
  const flat = Math.hypot(dx, dz);
  const direction = flat < 1 ? 'here' : `to the ${COMPASS[(Math.round(Math.atan2(dz, dx) / (Math.PI / 4)) + 8) % 8]}`;
  const height = dy >= 2 ? ', above' : dy <= -2 ? ', below' : '';
  return `${distanceWord(Math.hypot(dx, dy, dz))} ${direction}${height}`;
}

/** The part of the day of a world time (ticks of 24 000) in words. */
export function dayPartWord(time: number): string {
  const t = ((time % 24_000) + 24_000) % 24_000;
  return t < 1_000 ? 'dawn' : t < 12_000 ? 'day' : t < 13_000 ? 'dusk' : t < 23_000 ? 'night' : 'dawn';
}

/**
 * The world for the prompt in words and buckets (seeds/001: no coordinates, counts or health numbers reach the
 * model): condition, held item, inventory counts as words, blocks and threats by distance word and direction.
 */
export function describeWorld(world: PlannerWorld): string {
  const health = world.health >= 16 ? 'healthy' : world.health >= 8 ? 'hurt' : 'badly hurt';
  const food = world.food >= 16 ? 'fed' : world.food >= 6 ? 'hungry' : 'starving';
  const items = Object.entries(world.inventory).sort(([a], [b]) => a.localeCompare(b)).map(([item, n]) => `${countWord(n)} ${item}`);
  const blocks = Object.entries(world.blocks)
    .map(([at, block]) => ({ block, at: parseKey(at) }))
    .sort((a, b) => a.block.localeCompare(b.block))
    .map(({ block, at }) => `${block} ${at ? relativeWords(world.position, at) : 'in view'}`);
  const threats = (world.threats ?? []).map((t) => `${t.entity} ${t.position ? relativeWords(world.position, t.position) : distanceWord(t.distance)}`);
  return [
    `condition: ${health}, ${food}`,
    ...(world.time !== undefined ? [`time: ${dayPartWord(world.time)}`] : []),
    `holding: ${world.heldItem ?? 'nothing'}`,
    `inventory: ${items.length ? items.join(', ') : 'empty'}`,
    `blocks in view: ${blocks.length ? blocks.join('; ') : 'none noted'}`,
    ...(threats.length ? [`threats: ${threats.join(', ')}`] : []),
  ].join('\n');
}

function parseKey(key: string): Vec3 | undefined {
  const parts = key.split(',').map(Number);
  return parts.length === 3 && parts.every(Number.isFinite) ? { x: parts[0]!, y: parts[1]!, z: parts[2]! } : undefined;
}

/** One verb for the prompt: its description, then what it needs and gives in the predicate wire form (args as `<placeholders>`). */
export function describeTool(tool: ToolDefinition): string {
  const declared = [
    tool.preconds?.length ? `needs ${tool.preconds.join(', ')}` : '',
    tool.effects?.length ? `gives ${tool.effects.join(', ')}` : '',
  ].filter(Boolean);
  return `- ${tool.name}: ${tool.description}${declared.length ? ` (${declared.join('; ')})` : ''}`;
}
