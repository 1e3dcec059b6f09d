import type { SquidServer } from '../squid/types.js';

/** A reset() hook; what it returns runs at the end of the reset. */
export type ResetHandler = () => void | (() => void);

/** What an extension gets: the server plus a place to register what must be undone on stop. */
export interface ExtensionContext {
  serv: SquidServer;
  /** Timers created for this server; all are cleared when it stops. */
  timers: Set<NodeJS.Timeout>;
  /** Runs on stop, before the socket server closes. */
  onStop(cleanup: () => void): void;
  /**
   * Runs on reset(), before inventories are emptied (drop per-player state such as open windows). A handler may return
   * what to do once the world and the players are back (e.g. resume what it paused while reset() awaited the world).
   */
  onReset(handler: ResetHandler): void;
}

/** Starts a timer owned by the server (cleared on stop). */
export function serverTimeout(ctx: ExtensionContext, fn: () => void, ms: number): NodeJS.Timeout {
  const timer = setTimeout(() => {
    ctx.timers.delete(timer);
    fn();
  }, ms);
  ctx.timers.add(timer);
  return timer;
}

/** Cancels a timer started with serverTimeout. */
export function cancelServerTimeout(ctx: ExtensionContext, timer: NodeJS.Timeout | undefined): void {
  if (timer === undefined) return;
  clearTimeout(timer);
  ctx.timers.delete(timer);
}
