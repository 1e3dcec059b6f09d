import { instrumentBot } from '@sinew/capabilities';
import { blockKey } from '@sinew/executor-contracts';
import { connectBot, setBlock, startServer, type TestServer } from '@sinew/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SinewBot } from '@sinew/capabilities';
import { observeAround } from '../src/perception.js';

let server: TestServer;
let bot: SinewBot;
beforeAll(async () => {
  server = await startServer();
  bot = instrumentBot(await connectBot(server, { username: 'sinew' }));
});
afterAll(async () => {
  bot.quit();
  await server.stop();
});

it('the planner sees a crafting table a flee left 15 blocks behind, beyond the 6-block focus, and none past 24', async () => {
  const near = server.spawn.offset(15, 0, 2).floored();
  const far = server.spawn.offset(-27, 0, 0).floored();
  await setBlock(server, near, 'crafting_table');
  await setBlock(server, far, 'furnace');
  await expect.poll(() => bot.blockAt(near)?.name, { timeout: 10_000 }).toBe('crafting_table');
  const world = observeAround(bot, 6);
  expect(world.blocks[blockKey(near)]).toBe('crafting_table');
  expect(Object.values(world.blocks)).not.toContain('furnace');
  // The focus itself is still there: the block under the bot.
  expect(world.blocks[blockKey(bot.entity.position.floored().offset(0, -1, 0))]).toBeDefined();
});
