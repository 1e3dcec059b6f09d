import type { Executor } from '@sinew/bt-runtime';
import type { SinewBot } from '@sinew/capabilities';
import { reset, startServer, type TestServer } from '@sinew/testkit';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

/** One embedded server for the file, reset before each test; the bot (and executor) a test tracks is closed after it. */
export function useEmbeddedServer(): { server(): TestServer; track(bot: SinewBot, executor?: Executor<SinewBot>): void } {
  let server: TestServer;
  let current: { bot: SinewBot; executor?: Executor<SinewBot> } | undefined;
  beforeAll(async () => {
    server = await startServer();
  });
  beforeEach(async () => {
    await reset(server);
  });
  afterEach(async () => {
    await current?.executor?.close();
    current?.bot.quit();
    current = undefined;
  });
  afterAll(async () => {
    await server?.stop();
  });
  return { server: () => server, track: (bot, executor) => void (current = executor ? { bot, executor } : { bot }) };
}
