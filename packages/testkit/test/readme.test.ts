// The README example, verbatim (imports from source instead of the package name).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectBot, give, startServer, type TestServer } from '../src/index.js';
import type { Bot } from 'mineflayer';

let server: TestServer;
let bot: Bot;
beforeAll(async () => { server = await startServer(); bot = await connectBot(server); });
afterAll(() => server.stop());

it('crafts planks', async () => {
  await give(bot, 'oak_log', 1);
  await bot.craft(bot.recipesFor(bot.registry.itemsByName.oak_planks!.id, null, 1, null)[0]!, 1);
  expect(bot.inventory.items().map((i) => `${i.name}x${i.count}`)).toEqual(['oak_planksx4']);
});
