import type { Clock, TimerHandle } from '../clock/clock.js';

/**
 * The executor's watchdog timer, shared by its attempts (one runs at a time, I1). An attempt sets its
 * next deadline; a timer already armed for that same instant is kept instead of cleared and made again
 * (steps in a row within one clock tick cost no timer work), any other deadline re-arms it. A timer
 * whose attempt cleared it fires into nothing; the executor releases it when a plan ends.
 */
export class WatchdogTimer {
  #handle: TimerHandle | undefined;
  #due = 0;
  #owner: (() => void) | undefined;
  readonly #fire = () => {
    this.#handle = undefined;
    const owner = this.#owner;
    this.#owner = undefined;
    owner?.();
  };

  constructor(private readonly clock: Clock) {}

  /** Calls `onDue` at `due` (clock ms) unless cleared first; replaces any earlier deadline. */
  set(onDue: () => void, due: number, now: number): void {
    this.#owner = onDue;
    const at = Math.max(due, now);
    if (this.#handle !== undefined && this.#due === at) return;
    this.#cancel();
    this.#due = at;
    this.#handle = this.clock.setTimeout(this.#fire, at - now);
  }

  /** Drops `onDue`'s deadline (the timer itself stays armed until released or due). */
  clear(onDue: () => void): void {
    if (this.#owner === onDue) this.#owner = undefined;
  }

  /** Clears the timer when no attempt holds a deadline (at the end of a plan, so nothing is left pending). */
  releaseIfIdle(): void {
    if (this.#owner === undefined) this.#cancel();
  }

  #cancel(): void {
    if (this.#handle === undefined) return;
    this.clock.clearTimeout(this.#handle);
    this.#handle = undefined;
  }
}
