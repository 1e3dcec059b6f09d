import { setBlock } from '@sinew/testkit';
import { describe, expect, it } from 'vitest';
import { useWorld, waitUntil } from './world.js';

// Its own file (its own superflat server), so that it runs beside explore.test.ts's generated world.
describe('explore sees far only what lies open to the sky', () => {
  const world = useWorld('roofed');

  it('walks past water under a roof (a cave pool, air beside it) to open water farther off', async () => {
    const { bot, server } = world;
    const ground = server.spawn.floored();
    // 40 blocks east, a pool air touches from the side under a stone roof; 56 south, a pool open to the sky.
    const roofed = ground.offset(40, 0, 0);
    await setBlock(server, roofed, 'water');
    for (const [dx, dy, dz] of [[0, 1, 0], [1, 1, 0], [-1, 0, 0], [0, 0, 1], [0, 0, -1], [1, 0, 1], [1, 0, -1], [2, 0, 0]] as const) await setBlock(server, roofed.offset(dx, dy, dz), 'stone');
    const open = ground.offset(0, 0, 56);
    await setBlock(server, open, 'water');
    await waitUntil(server, () => bot.blockAt(roofed)?.name === 'water' && bot.blockAt(open)?.name === 'water' && bot.blockAt(roofed.offset(2, 0, 0))?.name === 'stone', 100);
    const outcome = await world.step('explore', { target: { block: 'water' } });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(bot.entity.position.distanceTo(open)).toBeLessThan(4);
  });
});
