import { give, setBlock } from '@sinew/testkit';
import { describe, expect, it } from 'vitest';
import { countItem, useWorld } from './world.js';

// smelt_item resuming, split from smelting.test.ts so the two files run side by side (each waits on its own furnace's ticks).
const world = useWorld();

const count = (name: string): number => countItem(world.bot, name);

describe('smelt_item', () => {
  it('resumes on a second try from what the furnace already holds instead of asking for the ore again', async () => {
    const { bot, server } = world;
    await setBlock(server, server.spawn.offset(2, 0, 0).floored(), 'furnace');
    await give(bot, 'raw_iron', 2);
    await give(bot, 'coal', 1);
    // A 4 s expectation times the first attempt out after 12 s: one ingot cooked, one ore still in the furnace.
    const first = await world.executor.run({
      planId: 'resume-1',
      intentId: 'test',
      steps: [{ stepId: 's1', type: 'smelt_item', args: { item: 'iron_ingot', input: 'raw_iron', count: 2 }, expectedDurationMs: 4_000 }],
    });
    expect(first.steps.at(-1)?.failure?.code).toBe('timeout');
    expect([count('raw_iron'), count('iron_ingot')]).toEqual([0, 0]);
    const second = await world.step('smelt_item', { item: 'iron_ingot', input: 'raw_iron', count: 2 });
    expect(second.status, JSON.stringify(second.failure)).toBe('succeeded');
    expect(count('iron_ingot')).toBe(2);
  }, 90_000);
});
