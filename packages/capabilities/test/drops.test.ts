import { systemClock } from '@sinew/executor-contracts';
import { createExecutor, createMemoryProvenance, type Clock, type TimerHandle } from '@sinew/bt-runtime';
import { fill, setBlock } from '@sinew/testkit';
import { describe, expect, it } from 'vitest';
import { createStandardRegistry } from '../src/index.js';
import { countItem, useWorld, waitUntil } from './world.js';

// collect_drops, split from blocks.test.ts so the two files run side by side (each waits on its own server's ticks).
const world = useWorld();

/** The real clock, counting timers set and neither fired nor cleared. */
function countingClock(): Clock & { pending(): number } {
  const live = new Set<TimerHandle>();
  return {
    now: () => systemClock.now(),
    setTimeout(callback, ms) {
      const handle = systemClock.setTimeout(() => {
        live.delete(handle);
        callback();
      }, ms);
      live.add(handle);
      return handle;
    },
    clearTimeout(handle) {
      live.delete(handle);
      systemClock.clearTimeout(handle);
    },
    pending: () => live.size,
  };
}

const count = (name: string): number => countItem(world.bot, name);

describe('collect_drops', () => {
  it('walks over the drops; acceptance sees the inventory grow', async () => {
    const { bot, server } = world;
    const target = server.spawn.offset(3, 0, 0).floored();
    await setBlock(server, target, 'oak_log');
    await bot.dig(bot.blockAt(target)!, true);
    await waitUntil(world.server, () => Object.values(bot.entities).some((e) => e.name === 'item'), 60);
    const memory = createMemoryProvenance();
    const executor = createExecutor({ registry: createStandardRegistry(), body: bot, provenance: [memory], policy: { maxLocalRetries: 0 } });
    const outcome = (await executor.run({ planId: 'walk-over', intentId: 'test', steps: [{ stepId: 's1', type: 'collect_drops', args: { item: 'oak_log' } }] })).steps[0]!;
    await executor.close();
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(count('oak_log')).toBe(1);
    // The server's hand-over is progress of its own, between the walk and the slot arriving: the two waits
    // together would sit 0.5 s under the stuck window, too close on a loaded machine.
    const notes = memory.records().find((r) => r.stepId === 's1')!.trace.filter((e) => e.kind === 'progress').map((e) => e.name);
    const handedOver = notes.findIndex((name) => /^drop \d+ handed over$/.test(name));
    expect(handedOver, notes.join(' | ')).toBeGreaterThan(notes.findIndex((name) => /^drop \d+: walk onto it$/.test(name)));
    expect(notes.findIndex((name) => /^drop \d+ collected$/.test(name))).toBeGreaterThan(handedOver);
  });

  it('picks up only the named item when the server says what each drop is', async () => {
    const { bot, server } = world;
    // 3 blocks out: within reach to dig, beyond the pick-up radius even when a drop rolls toward the bot.
    const log = server.spawn.offset(3, 0, 0).floored();
    const dirt = server.spawn.offset(-3, 0, 0).floored();
    await setBlock(server, log, 'oak_log');
    await setBlock(server, dirt, 'dirt');
    await bot.dig(bot.blockAt(dirt)!, true);
    await bot.dig(bot.blockAt(log)!, true);
    await waitUntil(world.server, () => Object.values(bot.entities).filter((e) => e.name === 'item').length === 2, 200);
    const outcome = await world.step('collect_drops', { item: 'oak_log' });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(count('oak_log')).toBe(1);
    expect(count('dirt')).toBe(0);
  });

  /** A stone wall 2 east of spawn, `height` high, with a log at `notch` blocks up dug out by hand: its drop lies in the notch. */
  async function dropInNotch(height: number, notch: number): Promise<void> {
    const { bot, server } = world;
    const base = server.spawn.offset(2, 0, 0).floored();
    await fill(server, base.offset(0, 0, -1), base.offset(0, height - 1, 1), 'stone');
    await setBlock(server, base.offset(0, notch, 0), 'oak_log');
    await bot.dig(bot.blockAt(base.offset(0, notch, 0))!, true);
    await waitUntil(world.server, () => Object.values(bot.entities).some((e) => e.name === 'item'), 60);
  }

  it('reaches a drop in a notch above head height (approach from the side and jump) instead of standing still', async () => {
    await dropInNotch(5, 3);
    expect(count('oak_log')).toBe(0);
    const outcome = await world.step('collect_drops', { item: 'oak_log' });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(count('oak_log')).toBe(1);
  }, 60_000);

  it('leaves no timer pending on the executor clock once its step ends (walks, jumps, pickup waits)', async () => {
    await dropInNotch(5, 3);
    const clock = countingClock();
    const executor = createExecutor({ registry: createStandardRegistry(), body: world.bot, clock, policy: { maxLocalRetries: 0 } });
    try {
      const outcome = await executor.run({ planId: 'timers', intentId: 'test', steps: [{ stepId: 's1', type: 'collect_drops', args: { item: 'oak_log' } }] });
      expect(outcome.status, JSON.stringify(outcome.steps.at(-1)?.failure)).toBe('completed');
      expect(clock.pending()).toBe(0);
    } finally {
      await executor.close();
    }
  }, 60_000);

  it('ends with a coded unreachable failure, not a stall, when no approach reaches the drop', async () => {
    const { bot, server } = world;
    // A 3×3 stone pillar 5 high with a log at the centre of its top: dug out, its drop lies in a hole it cannot roll out of.
    const corner = server.spawn.offset(2, 0, -1).floored();
    await fill(server, corner, corner.offset(2, 4, 2), 'stone');
    const hole = corner.offset(1, 4, 1);
    await setBlock(server, hole, 'oak_log');
    await bot.dig(bot.blockAt(hole)!, true);
    await waitUntil(world.server, () => Object.values(bot.entities).some((e) => e.name === 'item'), 60);
    const outcome = await world.step('collect_drops', { item: 'oak_log' });
    expect(outcome.failure?.code, JSON.stringify(outcome)).toBe('effects_unmet');
    expect(outcome.failure?.reason).toMatch(/^unreachable: oak_log at /);
    expect(count('oak_log')).toBe(0);
  }, 60_000);

  it('fails the guard when nothing lies around', async () => {
    const outcome = await world.step('collect_drops', { radius: 4 });
    expect(outcome.failure?.code).toBe('guard_failed');
  });
});
