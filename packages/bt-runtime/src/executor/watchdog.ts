import type { Clock, TimerHandle } from '../clock/clock.js';

/**
 * The executor's watchdog timer, shared by its attempts (one runs at a time, I1). An attempt sets its
 * next deadline; a timer already armed for that instant or earlier is kept (steps in a row, each with a
 * deadline a little later than the last, cost no timer work): when it fires before the deadline it re-arms
 * for it, so `onDue` is never called early. Only an earlier deadline clears it and arms anew. A timer whose
 * attempt cleared it fires into nothing; the executor releases it when a plan ends.
 */
export class WatchdogTimer {
  #handle: TimerHandle | undefined;
  /** When the armed timer fires. */
  #armedAt = 0;
  #owner: (() => void) | undefined;
  /** When the owner's deadline is (at or after `#armedAt` while armed). */
  #due = 0;
  readonly #fire = () => {
    this.#handle = undefined;
    const owner = this.#owner;
    if (owner === undefined) return;
    const now = this.clock.now();
    if (now < this.#due) return this.#arm(this.#due, now);
    this.#owner = undefined;
    owner();
  };

  constructor(private readonly clock: Clock) {}

  /** Calls `onDue` at `due` (clock ms) unless cleared first; replaces any earlier deadline. */
  set(onDue: () => void, due: number, now: number): void {
    this.#owner = onDue;
    const at = Math.max(due, now);
    this.#due = at;
    if (this.#handle !== undefined && this.#armedAt <= at) return;
    this.#cancel();
    this.#arm(at, now);
  }

  /** Drops `onDue`'s deadline (the timer itself stays armed until released or due). */
  clear(onDue: () => void): void {
    if (this.#owner === onDue) this.#owner = undefined;
  }

  /** Clears the timer when no attempt holds a deadline (at the end of a plan, so nothing is left pending). */
  releaseIfIdle(): void {
    if (this.#owner === undefined) this.#cancel();
  }

  #arm(at: number, now: number): void {
    this.#armedAt = at;
    this.#handle = this.clock.setTimeout(this.#fire, at - now);
  }

  #cancel(): void {
    if (this.#handle === undefined) return;
    this.clock.clearTimeout(this.#handle);
    this.#handle = undefined;
  }
}
