import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { connectBot, give, reset, setFood, startServer, type TestServer } from '../src/index.js';

describe('eating with plain bot.consume', () => {
  let server: TestServer;
  let bot: Bot;

  beforeAll(async () => {
    server = await startServer();
    bot = await connectBot(server, { username: 'eater' });
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    await reset(server);
  });

  it('eating bread finishes, raises food by 5 and uses up one bread', async () => {
    await give(bot, 'bread', 3);
    await setFood(bot, 10);
    expect(bot.food).toBe(10);
    await bot.equip(bot.registry.itemsByName.bread!.id, 'hand');
    await bot.consume();
    await bot.waitForTicks(2);
    expect(bot.food).toBe(15);
    expect(bot.inventory.count(bot.registry.itemsByName.bread!.id, null)).toBe(2);
  });

  it('food does not rise above 20 and a full bot cannot start eating', async () => {
    await give(bot, 'cooked_beef', 2);
    await setFood(bot, 18);
    await bot.equip(bot.registry.itemsByName.cooked_beef!.id, 'hand');
    await bot.consume();
    await bot.waitForTicks(2);
    expect(bot.food).toBe(20);
    await expect(bot.consume()).rejects.toThrow(/Food is full/);
  });

  it('using a non-food item does not feed the bot', async () => {
    await give(bot, 'stick', 1);
    await setFood(bot, 5);
    await bot.equip(bot.registry.itemsByName.stick!.id, 'hand');
    await expect(bot.consume()).rejects.toThrow();
    expect(bot.food).toBe(5);
  });
});
