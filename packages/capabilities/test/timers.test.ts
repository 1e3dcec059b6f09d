import { ManualClock } from '@sinew/executor-contracts';
import { createTestRunContext } from '@sinew/bt-runtime/testing';
import type { Bot } from 'mineflayer';
import { describe, expect, it } from 'vitest';
import { settleWithin } from '../src/body/waiting.js';
import { unrefMineflayerTimeouts } from '../src/operation-timers.js';

describe('settleWithin', () => {
  const context = () => {
    const clock = new ManualClock();
    return { clock, ctx: createTestRunContext({ body: {}, clock }) };
  };

  it('answers with the value and leaves no timer pending once the promise settles', async () => {
    const { clock, ctx } = context();
    let answer: (value: string) => void = () => undefined;
    const waiting = settleWithin(ctx, new Promise<string>((resolve) => (answer = resolve)), 1_500);
    await clock.advance(200);
    answer('window');
    await clock.advance(50);
    await expect(waiting).resolves.toBe('window');
    expect(clock.pending()).toBe(0);
  });

  it('answers undefined after the timeout, and at once on abort, with no timer left', async () => {
    const { clock, ctx } = context();
    const never = new Promise<string>(() => undefined);
    const timedOut = settleWithin(ctx, never, 1_000);
    await clock.advance(1_000);
    await expect(timedOut).resolves.toBeUndefined();
    const aborted = settleWithin(ctx, never, 60_000);
    ctx.abort();
    await clock.flush();
    await expect(aborted).resolves.toBeUndefined();
    expect(clock.pending()).toBe(0);
  });

  it('rethrows the rejection of the promise it waits on', async () => {
    const { clock, ctx } = context();
    const rejected = expect(settleWithin(ctx, Promise.reject(new Error('no furnace')), 1_000)).rejects.toThrow('no furnace');
    await clock.advance(50);
    await rejected;
  });
});

describe('unrefMineflayerTimeouts', () => {
  it("unrefs the timeouts a bot operation starts (mineflayer never clears them), not the caller's", async () => {
    const started: NodeJS.Timeout[] = [];
    // Shaped like mineflayer's craft: it awaits, then starts a 20 s `once` timeout it never clears.
    const bot = {
      async craft() {
        await Promise.resolve();
        started.push(setTimeout(() => undefined, 20_000));
      },
    };
    unrefMineflayerTimeouts(bot as unknown as Bot);
    await bot.craft();
    const callers = setTimeout(() => undefined, 20_000);
    try {
      expect(started).toHaveLength(1);
      expect(started[0]!.hasRef()).toBe(false);
      expect(callers.hasRef()).toBe(true);
    } finally {
      for (const timer of [...started, callers]) clearTimeout(timer);
    }
  });
});
