import readline from 'node:readline';
import { createMCServer } from 'flying-squid';
import type { SquidServer } from './types.js';

/**
 * A stand-in for the stdin console flying-squid opens at load (it would keep the process alive).
 * It never emits a line, so it keeps no listeners: flying-squid's log plugin subscribes `'line'` on
 * this one module-wide console for every server it creates and never unsubscribes, which held every
 * stopped server in memory and printed MaxListenersExceededWarning at the eleventh server.
 */
function detachedConsole(): readline.Interface {
  const fake: Record<string, unknown> = {};
  for (const method of ['setPrompt', 'prompt', 'close', 'pause', 'resume', 'write']) fake[method] = () => undefined;
  for (const method of ['on', 'once', 'addListener', 'prependListener', 'off', 'removeListener', 'removeAllListeners'])
    fake[method] = () => fake;
  return fake as unknown as readline.Interface;
}

/**
 * Creates a flying-squid server without its process-wide side effects: no stdin console,
 * no console.log rewrite, no log output.
 */
export function createQuietSquid(options: Record<string, unknown>): SquidServer {
  const createInterface = readline.createInterface;
  const cursorTo = readline.cursorTo;
  const consoleLog = console.log;
  readline.createInterface = (() => detachedConsole()) as typeof readline.createInterface;
  readline.cursorTo = (() => true) as typeof readline.cursorTo;
  try {
    const serv = createMCServer(options) as SquidServer;
    const silent = (): void => undefined;
    const debug = options.debug as ((m: string) => void) | undefined;
    serv.log = silent;
    serv.info = silent;
    serv.warn = silent;
    serv.err = (message) => debug?.(message);
    return serv;
  } finally {
    readline.createInterface = createInterface;
    readline.cursorTo = cursorTo;
    console.log = consoleLog;
  }
}
