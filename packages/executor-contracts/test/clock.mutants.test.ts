import { describe, expect, it } from 'vitest';
import { ManualClock, settleWithin, systemClock } from '../src/clock.js';

/** Records what fired, with the clock's time when it did. */
function recorder(clock: ManualClock) {
  const fired: string[] = [];
  const at = (name: string) => () => fired.push(`${name}@${clock.now()}`);
  return { fired, at };
}

describe('ManualClock', () => {
  it('starts at 0, or at the time it is given', () => {
    expect(new ManualClock().now()).toBe(0);
    expect(new ManualClock(1_700_000).now()).toBe(1_700_000);
  });

  it('runs due timers in due order, each at its own instant, and ends at the target time', async () => {
    const clock = new ManualClock(100);
    const { fired, at } = recorder(clock);
    clock.setTimeout(at('late'), 300);
    clock.setTimeout(at('early'), 50);
    clock.setTimeout(at('beyond'), 301);
    await clock.advance(300);
    expect(fired).toEqual(['early@150', 'late@400']);
    expect(clock.now()).toBe(400);
    expect(clock.pending()).toBe(1);
    await clock.advance(1);
    expect(fired).toEqual(['early@150', 'late@400', 'beyond@401']);
    expect(clock.pending()).toBe(0);
  });

  it('fires timers due at the same instant in the order they were set', async () => {
    const clock = new ManualClock();
    const { fired, at } = recorder(clock);
    clock.setTimeout(at('b'), 20);
    clock.setTimeout(at('a'), 10);
    clock.setTimeout(at('c'), 20);
    clock.setTimeout(at('d'), 20);
    await clock.advance(25);
    expect(fired).toEqual(['a@10', 'b@20', 'c@20', 'd@20']);
  });

  it('treats a negative delay as zero: the timer fires on the next flush, not in the past', async () => {
    const clock = new ManualClock(40);
    const { fired, at } = recorder(clock);
    clock.setTimeout(at('negative'), -25);
    await clock.flush();
    expect(fired).toEqual(['negative@40']);
    expect(clock.now()).toBe(40);
  });

  it('runs a timer that a callback sets inside the window, and leaves one set past it', async () => {
    const clock = new ManualClock();
    const { fired, at } = recorder(clock);
    clock.setTimeout(() => {
      at('outer')();
      clock.setTimeout(at('inner'), 30);
      clock.setTimeout(at('after'), 61);
    }, 20);
    await clock.advance(60);
    expect(fired).toEqual(['outer@20', 'inner@50']);
    expect(clock.pending()).toBe(1);
  });

  it('cancels a timer by its handle and ignores a handle it never made', async () => {
    const clock = new ManualClock();
    const { fired, at } = recorder(clock);
    const dropped = clock.setTimeout(at('dropped'), 5);
    clock.setTimeout(at('kept'), 5);
    clock.clearTimeout(dropped);
    clock.clearTimeout(globalThis.setTimeout(() => undefined, 0));
    clock.clearTimeout(dropped);
    expect(clock.pending()).toBe(1);
    await clock.advance(5);
    expect(fired).toEqual(['kept@5']);
  });

  it('settles promise reactions (even one that waits a macrotask turn) before the next timer fires', async () => {
    const clock = new ManualClock();
    const order: string[] = [];
    clock.setTimeout(() => {
      void Promise.resolve()
        .then(() => new Promise((resolve) => setImmediate(resolve)))
        .then(() => order.push('reaction of first'));
    }, 10);
    clock.setTimeout(() => order.push('second'), 10);
    await clock.advance(10);
    expect(order).toEqual(['reaction of first', 'second']);
  });

  it('settles reactions to the last timer before advance returns', async () => {
    const clock = new ManualClock();
    let settled = false;
    clock.setTimeout(() => {
      void Promise.resolve().then(() => new Promise((resolve) => setImmediate(resolve))).then(() => (settled = true));
    }, 10);
    await clock.advance(10);
    expect(settled).toBe(true);
  });

  it('lets reactions pending before the call settle before the first timer fires', async () => {
    const clock = new ManualClock();
    const order: string[] = [];
    void new Promise((resolve) => setImmediate(resolve)).then(() => order.push('pending reaction'));
    clock.setTimeout(() => order.push('timer'), 0);
    await clock.advance(0);
    expect(order).toEqual(['pending reaction', 'timer']);
  });

  it('refuses a negative or NaN advance with a RangeError naming the value, and moves no time', async () => {
    const clock = new ManualClock(7);
    await expect(clock.advance(-1)).rejects.toThrow(new RangeError('advance(ms): ms must be >= 0, got -1'));
    await expect(clock.advance(Number.NaN)).rejects.toThrow(RangeError);
    expect(clock.now()).toBe(7);
    await expect(clock.advance(0)).resolves.toBeUndefined();
  });
});

describe('systemClock', () => {
  it('reads epoch milliseconds', () => {
    const before = Date.now();
    const now = systemClock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('fires a real timer, and a cleared one never (a later timer fires after it would have)', async () => {
    const fired: string[] = [];
    const cleared = systemClock.setTimeout(() => fired.push('cleared'), 1);
    systemClock.clearTimeout(cleared);
    await new Promise<void>((resolve) => systemClock.setTimeout(() => resolve(void fired.push('kept')), 5));
    expect(fired).toEqual(['kept']);
  });
});

describe('settleWithin', () => {
  it('settles with the promise when it answers first, and clears its timer', async () => {
    const clock = new ManualClock();
    const result = settleWithin(clock, Promise.resolve('answer'), 1000, () => 'expired');
    await expect(result).resolves.toBe('answer');
    expect(clock.pending()).toBe(0);
  });

  it('settles with onExpire once the time passes first, drops the late answer and clears nothing left behind', async () => {
    const clock = new ManualClock();
    let answer!: (value: string) => void;
    const slow = new Promise<string>((resolve) => (answer = resolve));
    let settled: string | undefined;
    void settleWithin(clock, slow, 1000, () => 'expired').then((value) => (settled = value));
    await clock.advance(999);
    expect(settled).toBeUndefined();
    await clock.advance(1);
    expect(settled).toBe('expired');
    answer('late');
    await clock.flush();
    expect(settled).toBe('expired');
    expect(clock.pending()).toBe(0);
  });

  it('passes on a rejection from either side and clears its timer', async () => {
    const clock = new ManualClock();
    await expect(settleWithin(clock, Promise.reject(new Error('refused')), 1000, () => 'expired')).rejects.toThrow('refused');
    expect(clock.pending()).toBe(0);
    const expiring = settleWithin(clock, new Promise<string>(() => undefined), 10, () => Promise.reject(new Error('no reply within 10 ms')));
    const caught = expiring.catch((error: Error) => error.message);
    await clock.advance(10);
    expect(await caught).toBe('no reply within 10 ms');
  });
});
