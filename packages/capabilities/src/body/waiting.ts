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

/**
 * `promise`'s value, or undefined when `timeoutMs` passes or the signal aborts first. It polls (`waitFor`)
 * rather than racing a long `ctx.sleep`, so no timer outlives the call (and so none outlives the step).
 */
export async function settleWithin<T>(ctx: WaitContext, promise: Promise<T>, timeoutMs: number): Promise<T | undefined> {
  let settled: { value: T } | { error: unknown } | undefined;
  promise.then(
    (value) => (settled = { value }),
    (error: unknown) => (settled = { error }),
  );
  await waitFor(ctx, () => settled !== undefined, timeoutMs);
  if (settled && 'error' in settled) throw settled.error;
  return settled?.value;
}
