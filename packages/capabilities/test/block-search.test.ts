import { setBlock } from '@sinew/testkit';
import { describe, expect, it } from 'vitest';
import { findBlockPositions } from '../src/body/block-search.js';
import { blockIds } from '../src/body/geometry.js';
import { useWorld, waitUntil } from './world.js';

const world = useWorld('search');

describe('findBlockPositions', () => {
  it('finds the same positions in the same order as bot.findBlocks (ties, radii, counts)', async () => {
    const { bot, server } = world;
    // Equal distances (ties), one per side, one high up in an otherwise single-valued air section, one out of range.
    const offsets = [
      [2, 0, 0],
      [-2, 0, 0],
      [0, 0, 2],
      [0, 0, -2],
      [5, 3, -4],
      [3, 20, 3],
      [30, 0, 0],
    ] as const;
    const placed = offsets.map(([x, y, z]) => server.spawn.offset(x, y, z).floored());
    for (const position of placed) await setBlock(server, position, 'oak_log');
    await waitUntil(world.server, () => placed.every((position) => bot.blockAt(position)?.name === 'oak_log'), 100);
    const matching = blockIds(bot, 'oak_log');
    for (const maxDistance of [4, 16, 24, 48]) {
      for (const count of [1, 3, 10]) {
        const expected = bot.findBlocks({ matching, maxDistance, count });
        expect(findBlockPositions(bot, { matching, maxDistance, count }), `radius ${maxDistance}, count ${count}`).toEqual(expected);
      }
    }
    expect(findBlockPositions(bot, { matching, maxDistance: 48, count: 10 })).toHaveLength(7);
    // `accept` filters before counting: only the level logs, in mineflayer's order; count 1 past five nearer logs it
    // refuses still finds the one 20 up.
    const low = (p: { y: number }) => p.y <= placed[0]!.y;
    const accepted = findBlockPositions(bot, { matching, maxDistance: 48, count: 10, accept: low });
    expect(accepted).toEqual(bot.findBlocks({ matching, maxDistance: 48, count: 10 }).filter(low));
    expect(accepted.map((p) => p.y)).not.toContain(placed[4]!.y);
    expect(findBlockPositions(bot, { matching, maxDistance: 48, count: 1, accept: (p) => p.y > placed[4]!.y })).toEqual([placed[5]]);
  });

  it('reads single-valued sections: a block kind filling a whole section is found there (air)', () => {
    const { bot } = world;
    const matching = blockIds(bot, 'air');
    const point = bot.entity.position.offset(0, 40, 0);
    const found = findBlockPositions(bot, { matching, maxDistance: 3, count: 5, point });
    expect(found).toEqual(bot.findBlocks({ matching, maxDistance: 3, count: 5, point }));
    expect(found).toHaveLength(5);
  });

  it('finds nothing when no block of the kind is loaded', () => {
    const { bot } = world;
    expect(findBlockPositions(bot, { matching: blockIds(bot, 'diamond_block'), maxDistance: 32, count: 4 })).toEqual([]);
  });
});
