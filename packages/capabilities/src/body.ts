import { capabilityFactory, type RunContext } from '@sinew/executor-contracts';
import type { SinewBot } from './bot.js';
import type { ObservedWorld } from './world.js';

/** `defineCapability` bound to the mineflayer body and the shared world snapshot. */
export const defineBotCapability = capabilityFactory<SinewBot, ObservedWorld>();

/** The run context of a capability whose body is the instrumented mineflayer bot. */
export type BotRunContext = RunContext<SinewBot>;

/**
 * A per-args memo: guard, observe and runner of one step see the same target (the executor hands them
 * the same parsed args object), so "the nearest oak_log" cannot change between pre and post snapshots.
 */
export function targetMemo<T>(): { get(args: object): T | undefined; set(args: object, value: T): T } {
  const memo = new WeakMap<object, T>();
  return {
    get: (args) => memo.get(args),
    set: (args, value) => {
      memo.set(args, value);
      return value;
    },
  };
}
