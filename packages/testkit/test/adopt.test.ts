import { once } from 'node:events';
import { createBot, type Bot } from 'mineflayer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adoptBot, give, startServer, sync, teleport, type TestServer } from '../src/index.js';

// Bots made the way existing bots make them: mineflayer's own createBot, the user's options.
const userBot = (server: TestServer, username: string): Bot => {
  const bot = createBot({ host: server.host, port: server.port, username, version: server.version, auth: 'offline', hideErrors: true });
  bot.on('error', () => undefined);
  return bot;
};

describe('adoptBot', () => {
  let server: TestServer;
  let other: TestServer;
  beforeAll(async () => {
    [server, other] = await Promise.all([startServer(), startServer()]);
  });
  afterAll(async () => {
    await Promise.all([server.stop(), other.stop()]);
  });

  it('lets teleport, give and sync act on a bot adopted right after createBot', async () => {
    const bot = userBot(server, 'Adopted_Early');
    await expect(give(bot, 'dirt', 1)).rejects.toMatchObject({ code: 'not_a_testkit_bot' });
    expect(await adoptBot(server, bot)).toBe(bot);
    await teleport(bot, { x: 6.5, y: 5, z: -3.5 });
    expect(bot.entity.position.toArray()).toEqual([6.5, 5, -3.5]);
    await give(bot, 'oak_log', 3);
    expect(bot.inventory.items().map((item) => `${item.name}x${item.count}`)).toEqual(['oak_logx3']);
    bot.setQuickBarSlot(4);
    await sync(bot);
    expect(server.serv!.getPlayer('Adopted_Early')!.heldItemSlot).toBe(4);
  });

  it('adopts a bot that has already spawned, and adopting it again changes nothing', async () => {
    const bot = userBot(server, 'Adopted_Late');
    await once(bot, 'spawn');
    await adoptBot(server, bot);
    await adoptBot(server, bot, { timeoutMs: 1_000 });
    await give(bot, 'stick', 2);
    expect(bot.inventory.count(bot.registry.itemsByName.stick!.id, null)).toBe(2);
  });

  it('refuses a bot connected to another server, naming both ports', async () => {
    const bot = userBot(other, 'Elsewhere');
    await expect(adoptBot(server, bot)).rejects.toThrow(`connected to port ${other.port}, not to this server (port ${server.port})`);
    await expect(teleport(bot, { x: 1, y: 5, z: 1 })).rejects.toMatchObject({ code: 'not_a_testkit_bot' });
  });

  it('refuses a bot another server adopted, and bad options', async () => {
    const bot = userBot(other, 'Taken');
    await adoptBot(other, bot);
    await expect(adoptBot(server, bot)).rejects.toThrow(`Taken already belongs to the server on port ${other.port}`);
    await expect(adoptBot(other, bot, { timeoutMs: 0 })).rejects.toMatchObject({ code: 'invalid_config', where: 'adoptBot', path: ['timeoutMs'], message: expect.stringContaining('Too small') });
    await expect(adoptBot(other, bot, { username: 'x' } as never)).rejects.toMatchObject({ code: 'invalid_config', where: 'adoptBot', message: expect.stringContaining('Unrecognized key: "username"') });
  });

  it('server.stop() quits the bots it adopted', async () => {
    const own = await startServer();
    const bot = userBot(own, 'Stopped');
    await adoptBot(own, bot);
    const ended = once(bot, 'end');
    await own.stop();
    await ended;
    expect(bot._client.ended).toBe(true);
  });
});
