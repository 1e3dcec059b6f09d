import type { ExecutorState } from '@sinew/bt-runtime';

/** What the server reads of a bot: a mineflayer `Bot` fits; every field is optional and read defensively. */
export interface BotLike {
  readonly username?: string;
  readonly health?: number;
  readonly food?: number;
  readonly entity?: { readonly position?: { readonly x: number; readonly y: number; readonly z: number } } | null;
  readonly game?: { readonly dimension?: string } | null;
  readonly heldItem?: { readonly name: string; readonly count: number } | null;
  readonly inventory?: {
    /** The stacks in the inventory. */
    items(): readonly { readonly name: string; readonly count: number }[];
  } | null;
}

/** The bot as `/api/bot/status` and `botEvent` report it. */
export interface BotSnapshot {
  readonly username: string | null;
  readonly health: number | null;
  readonly food: number | null;
  readonly position: { readonly x: number; readonly y: number; readonly z: number } | null;
  readonly dimension: string | null;
  readonly heldItem: { readonly name: string; readonly count: number } | null;
  /** item name → total count */
  readonly inventory: Readonly<Record<string, number>>;
}

/** Reads one field; a getter that throws or a value of the wrong type reads as null. */
function read<T>(get: () => unknown, check: (value: unknown) => value is T): T | null {
  try {
    const value = get();
    return check(value) ? value : null;
  } catch {
    return null;
  }
}

type Vec3 = { readonly x: number; readonly y: number; readonly z: number };
type Item = { readonly name: string; readonly count: number };
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isVec3 = (v: unknown): v is Vec3 => typeof v === 'object' && v !== null && isNumber((v as Vec3).x) && isNumber((v as Vec3).y) && isNumber((v as Vec3).z);
const isItem = (v: unknown): v is Item => typeof v === 'object' && v !== null && isString((v as Item).name) && isNumber((v as Item).count);
const isArray = (v: unknown): v is readonly unknown[] => Array.isArray(v);

/** A snapshot of the bot (rounded position, inventory summed per item); never throws. */
export function readBot(bot: BotLike): BotSnapshot {
  const position = read(() => bot.entity?.position, isVec3);
  const held = read(() => bot.heldItem, isItem);
  const inventory: Record<string, number> = {};
  for (const item of read(() => bot.inventory?.items(), isArray) ?? []) {
    if (isItem(item)) inventory[item.name] = (inventory[item.name] ?? 0) + item.count;
  }
  return {
    username: read(() => bot.username, isString),
    health: read(() => bot.health, isNumber),
    food: read(() => bot.food, isNumber),
    position: position ? { x: round(position.x), y: round(position.y), z: round(position.z) } : null,
    dimension: read(() => bot.game?.dimension, isString),
    heldItem: held ? { name: held.name, count: held.count } : null,
    inventory,
  };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** `/api/bot/status`: the bot (null when none is wired), the executor's state and the active plan/step. */
export function botStatus(bot: BotLike | undefined, executor: ExecutorState): Record<string, unknown> {
  const active = executor.activeStep;
  return {
    bot: bot ? readBot(bot) : null,
    executor,
    activePlan: active ? { planId: active.planId, stepId: active.stepId, verb: active.verb, attempt: active.attempt, phase: active.phase } : null,
  };
}
