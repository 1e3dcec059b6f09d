import { blockKey, WorldSnapshotSchema } from '@sinew/executor-contracts';
import { give, setBlock } from '@sinew/testkit';
import { describe, expect, it } from 'vitest';
import { observeWorld, ObservedWorldSchema } from '../src/index.js';
import { useWorld, waitUntil } from './world.js';

const world = useWorld();

describe('observeWorld on the embedded server', () => {
  it('fills, with every focus, a snapshot ObservedWorldSchema accepts (unknown keys refused) whose core fields parse as WorldSnapshotSchema', async () => {
    const { bot, server } = world;
    const block = server.spawn.offset(2, 0, 0).floored();
    await setBlock(server, block, 'oak_log');
    await give(bot, 'oak_planks', 3);
    bot.chat('observe me');
    const focus = { positions: [block], entityIds: [bot.entity.id], equipment: true, chat: true };
    await waitUntil(world.server, () => (observeWorld(bot, focus).chat ?? []).length > 0 && bot.blockAt(block)?.name === 'oak_log', 100);
    const snapshot = observeWorld(bot, focus);
    const parsed = ObservedWorldSchema.safeParse(snapshot);
    expect(parsed.error?.issues).toBeUndefined();
    expect(snapshot).toMatchObject({ blocks: { [blockKey(block)]: 'oak_log' }, inventory: { oak_planks: 3 }, entities: { [String(bot.entity.id)]: { name: expect.any(String) } } });
    const core = WorldSnapshotSchema.parse(snapshot);
    expect(Object.keys(core).sort()).toEqual(['blocks', 'food', 'health', 'heldItem', 'inventory', 'position', 'time']);
    expect(ObservedWorldSchema.safeParse({ ...snapshot, weather: 'rain' }).error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['weather'] });
  });
});
