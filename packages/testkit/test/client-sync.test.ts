import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { connectBot, give, reset, startServer, teleport, type TestServer } from '../src/index.js';

describe('reset resyncs the client inventory', () => {
  let server: TestServer;
  let bot: Bot;
  beforeAll(async () => {
    server = await startServer();
    bot = await connectBot(server, { username: 'resync' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('after a 2x2 craft, reset leaves the bot and the server both empty', async () => {
    await give(bot, 'oak_log', 2);
    const planks = bot.recipesFor(bot.registry.itemsByName.oak_planks!.id, null, 1, null)[0]!;
    await bot.craft(planks, 2, undefined);
    const sticks = bot.recipesFor(bot.registry.itemsByName.stick!.id, null, 1, null)[0]!;
    await bot.craft(sticks, 1, undefined);
    await reset(server);
    const player = server.serv!.getPlayer('resync')!;
    expect(player.inventory.slots.filter((s) => s)).toEqual([]);
    expect(bot.inventory.slots.filter((s) => s).map((s) => `${s!.slot}:${s!.name}:${s!.count}`)).toEqual([]);
  });
});

describe('teleport', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('resolves with the bot at the target, even right after connectBot', async () => {
    for (let i = 0; i < 3; i++) {
      const bot = await connectBot(server);
      const target = server.spawn.offset(10 + i, 0, -7);
      await teleport(bot, target);
      expect(bot.entity.position.distanceTo(target)).toBeLessThan(0.01);
      // ...and stays there: the server's late login position must not pull it back to spawn.
      await bot.waitForTicks(20);
      expect(bot.entity.position.distanceTo(target)).toBeLessThan(0.01);
      bot.quit();
    }
  });
});
