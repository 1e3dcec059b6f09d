// Time as every Sinew package reads it: the executor's watchdogs, the belief layer, the planners' timeouts.
// One interface, so a test injects one ManualClock into all of them and nothing sleeps.

/** An opaque timer handle returned by `Clock.setTimeout`. */
export type TimerHandle = { readonly __timer: true } | ReturnType<typeof globalThis.setTimeout>;

/** Where the executor's time comes from; inject a `ManualClock` in tests so watchdogs never sleep. */
export interface Clock {
  /** Milliseconds, monotonic within one clock. */
  now(): number;
  /** Calls `callback` once after `ms` on this clock. */
  setTimeout(callback: () => void, ms: number): TimerHandle;
  /** Cancels a pending timeout (a fired or unknown handle is ignored). */
  clearTimeout(handle: TimerHandle): void;
}

/**
 * The real clock: `Date.now()` (so outcome timestamps are epoch ms) and the global timers. Timers are
 * not unref'd: a running step keeps the process alive; every timer is cleared when its step ends.
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(callback, ms) {
    return globalThis.setTimeout(callback, ms);
  },
  clearTimeout(handle) {
    globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>);
  },
};

interface ManualTimer {
  readonly __timer: true;
  readonly id: number;
  readonly due: number;
  readonly callback: () => void;
}

/** Lets pending promise reactions run (a macrotask turn), without advancing any clock. */
function flushMicrotasks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A clock that only moves when told to: `await clock.advance(2000)` runs every timer due in that window
 * in order, letting promise reactions settle after each one. For deterministic watchdog tests.
 *
 * @example
 * const clock = new ManualClock();
 * const executor = createExecutor({ registry, body, clock });
 * const outcome = executor.run(plan);
 * await clock.advance(2000); // TTFA deadline trips
 */
export class ManualClock implements Clock {
  #now: number;
  #nextId = 1;
  readonly #timers = new Map<number, ManualTimer>();

  constructor(start = 0) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const timer: ManualTimer = { __timer: true, id: this.#nextId++, due: this.#now + Math.max(0, ms), callback };
    this.#timers.set(timer.id, timer);
    return timer;
  }

  clearTimeout(handle: TimerHandle): void {
    const id = (handle as Partial<ManualTimer>).id;
    if (id !== undefined) this.#timers.delete(id);
  }

  /** Number of timers still scheduled. */
  pending(): number {
    return this.#timers.size;
  }

  /** Moves time forward by `ms`, running due timers in due order and settling promises between them. */
  async advance(ms: number): Promise<void> {
    if (!(ms >= 0)) throw new RangeError(`advance(ms): ms must be >= 0, got ${ms}`);
    const target = this.#now + ms;
    await flushMicrotasks();
    for (;;) {
      const next = this.#nextDue(target);
      if (!next) break;
      this.#timers.delete(next.id);
      this.#now = next.due;
      next.callback();
      await flushMicrotasks();
      await flushMicrotasks();
    }
    this.#now = target;
    await flushMicrotasks();
  }

  /** Settles pending promise reactions without moving time. */
  flush(): Promise<void> {
    return this.advance(0);
  }

  #nextDue(limit: number): ManualTimer | undefined {
    let best: ManualTimer | undefined;
    for (const timer of this.#timers.values()) {
      if (timer.due <= limit && (!best || timer.due < best.due || (timer.due === best.due && timer.id < best.id))) best = timer;
    }
    return best;
  }
}

/**
 * Settles like `promise`, or with `onExpire()` once `ms` pass first on `clock` (a late answer is dropped);
 * the timer is cleared either way. How the planners bound a `plan()` or a model call on the injected clock.
 *
 * @example
 * const reply = await settleWithin(clock, complete(prompt), 20_000, () => Promise.reject(new Error('no reply within 20000 ms')));
 */
export async function settleWithin<T>(clock: Clock, promise: Promise<T>, ms: number, onExpire: () => T | Promise<T>): Promise<T> {
  let timer: TimerHandle | undefined;
  const expired = new Promise<T>((resolve) => {
    timer = clock.setTimeout(() => resolve(onExpire()), ms);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clock.clearTimeout(timer!);
  }
}
