import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { connectBot, give, GROUND_Y, reset, setGameMode, spawnMob, startServer, type TestServer } from '../src/index.js';

const waitFor = async (check: () => boolean, timeoutMs: number): Promise<boolean> => {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
};

describe('mobs with a chase-and-melee AI', () => {
  let server: TestServer;
  let bot: Bot;

  beforeAll(async () => {
    server = await startServer();
    bot = await connectBot(server, { username: 'target' });
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    await reset(server);
  });

  it('a zombie spawned 6 blocks away is seen as a zombie, walks to the bot and lowers its health', async () => {
    const zombie = await spawnMob(server, 'zombie', { x: 6.5, y: GROUND_Y + 1, z: 0.5 });
    const seen = bot.entities[zombie.id];
    expect(seen?.name).toBe('zombie');
    expect(seen?.type).toBe('hostile');
    const startDistance = seen!.position.distanceTo(bot.entity.position);
    expect(startDistance).toBeGreaterThan(5);
    expect(await waitFor(() => bot.health < 20, 8_000)).toBe(true);
    expect(bot.entities[zombie.id]!.position.distanceTo(bot.entity.position)).toBeLessThan(3);
    expect(bot.health).toBeLessThanOrEqual(17);
  });

  it('hits are spaced by the cooldown (about one per second)', async () => {
    await spawnMob(server, 'zombie', { x: 1.5, y: GROUND_Y + 1, z: 0.5 }, { attackDamage: 1 });
    expect(await waitFor(() => bot.health < 20, 3_000)).toBe(true);
    const afterFirst = bot.health;
    await new Promise((r) => setTimeout(r, 400));
    expect(bot.health).toBe(afterFirst);
  });

  it('ignores players out of range and players in creative mode', async () => {
    await spawnMob(server, 'zombie', { x: 30.5, y: GROUND_Y + 1, z: 0.5 });
    await setGameMode(bot, 'creative');
    await spawnMob(server, 'zombie', { x: 2.5, y: GROUND_Y + 1, z: 0.5 });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(bot.health).toBe(20);
  });

  it('hits deal the held weapon damage: a stone sword kills a chicken (4 health) at once, a fist needs four hits', async () => {
    const first = await spawnMob(server, 'chicken', { x: 2.5, y: GROUND_Y + 1, z: 0.5 });
    const second = await spawnMob(server, 'chicken', { x: 0.5, y: GROUND_Y + 1, z: 2.5 });
    const hitsToKill = async (id: number): Promise<number> => {
      let hits = 0;
      while (bot.entities[id] && server.serv!.entities[id] && hits < 10) {
        bot.attack(bot.entities[id]!);
        hits++;
        await bot.waitForTicks(2);
      }
      return hits;
    };
    expect(await hitsToKill(second.id)).toBe(4);
    await give(bot, 'stone_sword', 1);
    await bot.equip(bot.registry.itemsByName.stone_sword!.id, 'hand');
    expect(await hitsToKill(first.id)).toBe(1);
  });

  it('a mob killed by the bot disappears, and reset removes mobs', async () => {
    const cow = await spawnMob(server, 'cow', { x: 2.5, y: GROUND_Y + 1, z: 0.5 });
    expect(bot.entities[cow.id]?.name).toBe('cow');
    for (let i = 0; i < 25 && bot.entities[cow.id]; i++) {
      bot.attack(bot.entities[cow.id]!);
      await bot.waitForTicks(2);
    }
    expect(await waitFor(() => bot.entities[cow.id] === undefined, 3_000)).toBe(true);
    const zombie = await spawnMob(server, 'zombie', { x: 10.5, y: GROUND_Y + 1, z: 0.5 });
    expect(bot.entities[zombie.id]).toBeDefined();
    await reset(server);
    expect(bot.entities[zombie.id]).toBeUndefined();
    await expect(spawnMob(server, 'dragonfly', { x: 0, y: 5, z: 0 })).rejects.toMatchObject({ code: 'unknown_mob' });
  });
});
