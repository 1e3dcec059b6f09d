import { AsyncLocalStorage, createHook } from 'node:async_hooks';
import type { Bot } from 'mineflayer';

/**
 * Bot calls that wait for the server under mineflayer's own timeouts (`once(emitter, event, 20 s)`), whose
 * timers are never cleared when the answer comes: each would keep a process alive 20 s after the bot quit.
 */
const TIMED_OPERATIONS = [
  'dig', 'placeBlock', 'craft', 'equip', 'unequip', 'toss', 'tossStack', 'consume',
  'activateBlock', 'activateEntity', 'openBlock', 'openContainer', 'openChest', 'openFurnace', 'clickWindow', 'transfer',
] as const;

const inOperation = new AsyncLocalStorage<true>();
let operationsInFlight = 0;
// Enabled only while an operation runs: an init hook also sees every promise, which costs on the hot path.
const unrefOperationTimeouts = createHook({
  init(_asyncId, type, _triggerAsyncId, resource) {
    if (type === 'Timeout' && inOperation.getStore()) (resource as NodeJS.Timeout).unref();
  },
});

function settled(): void {
  operationsInFlight -= 1;
  if (operationsInFlight === 0) unrefOperationTimeouts.disable();
}

/**
 * Makes the timers mineflayer starts inside its server operations (dig, craft, windows…) unref'd, so they never
 * keep the process alive: while the bot is connected its socket does, and once it quit they guard nothing.
 */
export function unrefMineflayerTimeouts(bot: Bot): void {
  const methods = bot as unknown as Record<string, unknown>;
  for (const name of TIMED_OPERATIONS) {
    const original = methods[name];
    if (typeof original !== 'function') continue;
    methods[name] = function (this: unknown, ...args: unknown[]): unknown {
      if (operationsInFlight++ === 0) unrefOperationTimeouts.enable();
      let result: unknown;
      try {
        result = inOperation.run(true, () => (original as (...a: unknown[]) => unknown).apply(this, args));
      } catch (error) {
        settled();
        throw error;
      }
      Promise.resolve(result).then(settled, settled);
      return result;
    };
  }
}
