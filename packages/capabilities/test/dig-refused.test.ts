import { setBlock } from '@sinew/testkit';
import { Vec3 } from 'vec3';
import { describe, expect, it } from 'vitest';
import { useWorld } from './world.js';

const world = useWorld('refused');

/** The name of the block the server holds at `position` (its world, not any client's view). */
async function serverBlock(position: { x: number; y: number; z: number }): Promise<string | undefined> {
  const serv = world.server.serv!;
  const stateId = await serv.overworld.getBlockStateId(new Vec3(position.x, position.y, position.z));
  return serv.registry.blocksByStateId[stateId]?.name;
}

describe('dig_block when the server refuses the break', () => {
  it('does not succeed on the client-side prediction: the server sends the dirt back and acceptance reads it', async () => {
    const { bot, server } = world;
    const target = server.spawn.offset(-2, 0, 2).floored();
    await setBlock(server, target, 'dirt');
    // A client whose dig timer runs short (a lagging server, a wrong tool estimate): it sends the finish at once, the
    // testkit server (vanilla's dig-time rule) refuses it and sends the dirt back, while mineflayer has already set
    // the block to air in its own world and resolved `dig`.
    const digTime = bot.digTime;
    bot.digTime = () => 0;
    try {
      const outcome = await world.step('dig_block', { position: target });
      expect(outcome.status, JSON.stringify(outcome)).not.toBe('succeeded');
      expect(outcome.failure?.code).toBe('effects_unmet');
      expect(outcome.failure?.reason).toMatch(/still dirt/);
    } finally {
      bot.digTime = digTime;
    }
    expect(await serverBlock(target)).toBe('dirt');
    expect(bot.blockAt(target)?.name).toBe('dirt');
  });

  it('digs on within the one attempt when the server sends the block back once, as a player holding the button does', async () => {
    const { bot, server } = world;
    const target = server.spawn.offset(3, 0, 1).floored();
    await setBlock(server, target, 'dirt');
    const digTime = bot.digTime;
    let refused = 0;
    // Only the first dig finishes too soon (a server stall between its start and finish looks the same to the server).
    bot.digTime = (block) => (refused++ === 0 ? 0 : digTime.call(bot, block));
    try {
      const outcome = await world.step('dig_block', { position: target });
      expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
      expect(outcome.attempts).toBe(1);
    } finally {
      bot.digTime = digTime;
    }
    expect(refused).toBe(2);
    expect(await serverBlock(target)).toBe('air');
  });

  it('still succeeds when the server accepts the break (it waits for the server, then reads air)', async () => {
    const { bot, server } = world;
    const target = server.spawn.offset(2, 0, -2).floored();
    await setBlock(server, target, 'dirt');
    const outcome = await world.step('dig_block', { position: target });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(await serverBlock(target)).toBe('air');
    expect(bot.blockAt(target)?.name).toBe('air');
  });
});
