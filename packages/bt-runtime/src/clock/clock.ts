import { describeValue, MAX_TIMER_MS, type Clock } from '@sinew/executor-contracts';

// Clock, TimerHandle, systemClock and ManualClock live in the contracts (every package reads time through
// them); re-exported for the runtime's own modules.
export { ManualClock, systemClock, type Clock, type TimerHandle } from '@sinew/executor-contracts';

/**
 * `RunContext.sleep` on a clock: resolves after `ms`, or at once (never rejecting) when `signal` aborts;
 * a bad delay rejects with a RangeError, since a NaN or over-long timer would fire at once.
 * @internal
 */
export function sleepOn(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  if (typeof ms !== 'number' || !(ms >= 0 && ms <= MAX_TIMER_MS)) {
    return Promise.reject(new RangeError(`ctx.sleep(ms): ms must be a number from 0 to ${MAX_TIMER_MS}, received ${typeof ms === 'number' ? ms : `a ${typeof ms} (${describeValue(ms)})`}`));
  }
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clock.clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = clock.setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
