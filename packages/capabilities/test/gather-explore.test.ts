import { placeTree } from '@sinew/testkit';
import { describe, expect, it } from 'vitest';
import { useWorld } from './world.js';

// gather's exploring, split from gather.test.ts so the two files run side by side (each waits on its own server's ticks).
const world = useWorld();

const logs = () => world.bot.inventory.items().filter((i) => i.name.endsWith('_log')).reduce((n, i) => n + i.count, 0);

describe('gather', () => {
  it('explores to find blocks beyond its search radius', async () => {
    const { server } = world;
    // 20 blocks east: out of the 12-block search, found after exploring east.
    await placeTree(server, server.spawn.offset(20, 0, 0).floored(), { kind: 'oak', height: 5 });
    const outcome = await world.step('gather', { block: 'oak_log', count: 1, maxDistance: 12 });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(logs()).toBeGreaterThanOrEqual(1);
  });
});

describe('gather with nothing to find', () => {
  it('explores each direction once, then fails at the Explore node instead of wandering', async () => {
    // Bounded in server ticks (45 s of the world's time), not the wall's: a loaded machine slows both the bot and the server.
    const serv = world.server.serv!;
    const started = serv.tickCount;
    const outcome = await world.step('gather', { block: 'pumpkin', count: 1, maxDistance: 8 });
    expect(outcome.status).toBe('failed');
    expect(outcome.failure?.code).toBe('runner_error');
    expect(outcome.failure?.nodePath).toContain('Explore');
    expect(serv.tickCount - started).toBeLessThan(900);
  });
});
