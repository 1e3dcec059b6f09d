import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock/clock.js';
import { WatchdogTimer } from '../src/executor/watchdog.js';

/** A ManualClock that counts the timers it was asked for. */
class CountingClock extends ManualClock {
  made = 0;
  override setTimeout(callback: () => void, ms: number) {
    this.made += 1;
    return super.setTimeout(callback, ms);
  }
}

describe('the executor watchdog timer', () => {
  it('keeps the armed timer for the same or a later deadline, re-arms for an earlier one, and fires only for the attempt holding it', async () => {
    const clock = new CountingClock();
    const watchdog = new WatchdogTimer(clock);
    const fired: string[] = [];
    const a = () => fired.push('a');
    const b = () => fired.push('b');
    watchdog.set(a, 2000, 0);
    watchdog.clear(a);
    watchdog.set(b, 2000, 0); // the next attempt in the same tick: same deadline, no new timer
    expect(clock.made).toBe(1);
    watchdog.set(b, 2500, 0); // later: the timer armed for 2000 is kept
    expect(clock.made).toBe(1);
    await clock.advance(2000); // it fires early, calls nobody, and re-arms for 2500
    expect(fired).toEqual([]);
    expect(clock.made).toBe(2);
    expect(clock.pending()).toBe(1);
    await clock.advance(499);
    expect(fired).toEqual([]);
    await clock.advance(1);
    expect(fired).toEqual(['b']);
    watchdog.set(a, 4000, 2500);
    watchdog.set(a, 3000, 2500); // earlier: cleared and armed anew, one timer pending
    expect(clock.made).toBe(4);
    expect(clock.pending()).toBe(1);
    await clock.advance(500);
    expect(fired).toEqual(['b', 'a']);
    expect(clock.pending()).toBe(0);
  });

  it('a cleared deadline fires into nothing, and release leaves no timer pending', async () => {
    const clock = new ManualClock();
    const watchdog = new WatchdogTimer(clock);
    const fired: string[] = [];
    const a = () => fired.push('a');
    watchdog.set(a, 100, 0);
    watchdog.releaseIfIdle(); // held: kept
    expect(clock.pending()).toBe(1);
    watchdog.clear(a);
    watchdog.releaseIfIdle();
    expect(clock.pending()).toBe(0);
    watchdog.set(a, 50, 0);
    watchdog.clear(a);
    await clock.advance(100);
    expect(fired).toEqual([]);
  });

  it('a deadline already past fires at once', async () => {
    const clock = new ManualClock(1000);
    const watchdog = new WatchdogTimer(clock);
    const fired: number[] = [];
    watchdog.set(() => fired.push(clock.now()), 400, 1000);
    await clock.advance(0);
    expect(fired).toEqual([1000]);
  });
});
