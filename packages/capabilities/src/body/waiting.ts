import type { BotRunContext } from '../body.js';

/** What waiting needs from a run context: its clock and its abort signal. */
export type WaitContext = Pick<BotRunContext, 'signal' | 'now' | 'sleep'>;

/**
 * Polls `done` every `stepMs` of the context's clock until it holds (true), the signal aborts (false) or
 * `timeoutMs` passes (false).
 */
export async function waitFor(ctx: WaitContext, done: () => boolean, timeoutMs: number, stepMs = 50): Promise<boolean> {
  const deadline = ctx.now() + timeoutMs;
  for (;;) {
    if (done()) return true;
    const left = deadline - ctx.now();
    if (ctx.signal.aborted || left <= 0) return false;
    await ctx.sleep(Math.min(stepMs, left));
  }
}
