import { give, setBlock, teleport } from '@sinew/testkit';
import { describe, expect, it } from 'vitest';
import { Vec3 } from 'vec3';
import { countItem, useWorld, waitUntil } from './world.js';

// Issue 27, lava buckets: where a mine's stairs end at y -53 (feet), the caves below are lava up to y -55 under air,
// behind the rock and with lava for a floor. Seed 10 has such a pool at x 4..7, z 99.

describe('fill_bucket at the depth of the lava caves (generated terrain)', () => {
  const world = useWorld('cave', { server: { world: { generator: 'terrain', seed: 10 } } });

  it('digs from the end of a tunnel to a cave pool and fills a bucket with lava, unhurt', async () => {
    const { bot, server } = world;
    // The end of a mine's tunnel: a pocket two high in the rock, ~3 blocks from the cave.
    const feet = new Vec3(8, -53, 100);
    await setBlock(server, feet, 'air');
    await setBlock(server, feet.offset(0, 1, 0), 'air');
    await setBlock(server, feet.offset(0, -1, 0), 'stone');
    await teleport(bot, feet.offset(0.5, 0, 0.5));
    await waitUntil(server, () => bot.entity.position.distanceTo(feet.offset(0.5, 0, 0.5)) < 1 && bot.entity.onGround, 200);
    await give(bot, 'bucket', 1);
    await give(bot, 'stone_pickaxe', 1);
    const outcome = await world.step('fill_bucket', { fluid: 'lava' });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(countItem(bot, 'lava_bucket')).toBe(1);
    expect(bot.health).toBe(20);
  });
});
