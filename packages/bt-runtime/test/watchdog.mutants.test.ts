import { ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { WatchdogTimer } from '../src/executor/watchdog.js';

describe('WatchdogTimer deadlines', () => {
  it('arms a first deadline at clock time 0 (nothing armed yet is not "the same instant")', async () => {
    const clock = new ManualClock();
    const watchdog = new WatchdogTimer(clock);
    const fired: number[] = [];
    watchdog.set(() => fired.push(clock.now()), 0, 0);
    expect(clock.pending()).toBe(1);
    await clock.flush();
    expect(fired).toEqual([0]);
  });

  it('re-arms after its timer fired, even for the instant it fired at', async () => {
    const clock = new ManualClock();
    const watchdog = new WatchdogTimer(clock);
    const fired: string[] = [];
    watchdog.set(() => fired.push(`a@${clock.now()}`), 100, 0);
    await clock.advance(100);
    watchdog.set(() => fired.push(`b@${clock.now()}`), 100, 100);
    await clock.flush();
    expect(fired).toEqual(['a@100', 'b@100']);
  });

  it('clear(onDue) drops only that attempt\'s deadline, not the one another attempt holds', async () => {
    const clock = new ManualClock();
    const watchdog = new WatchdogTimer(clock);
    const fired: string[] = [];
    const a = () => fired.push('a');
    watchdog.set(a, 50, 0);
    watchdog.clear(() => fired.push('someone else'));
    watchdog.releaseIfIdle();
    await clock.advance(50);
    expect(fired).toEqual(['a']);
  });
});
