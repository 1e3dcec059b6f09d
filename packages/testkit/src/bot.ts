import { createBot, type Bot } from 'mineflayer';
import { TestkitError } from './errors.js';
import { stateOf, type ServerState, type TestServer } from './server.js';

/** Options of {@link connectBot}. */
export interface ConnectBotOptions {
  /** 1–16 characters of [A-Za-z0-9_]; default `bot1`, `bot2`, … per server. */
  username?: string;
  /** Milliseconds to wait for spawn and chunks (default 20 000). */
  timeoutMs?: number;
}

const botServers = new WeakMap<Bot, TestServer>();

/** The server a testkit bot is connected to. */
export function serverOfBot(bot: Bot): { server: TestServer; state: ServerState } {
  const server = botServers.get(bot);
  if (!server) throw new TestkitError('not_a_testkit_bot', 'bot was not created by connectBot()');
  return { server, state: stateOf(server) };
}

/** Connects a mineflayer bot and resolves once it has spawned and loaded the chunks around it. */
export async function connectBot(server: TestServer, options: ConnectBotOptions = {}): Promise<Bot> {
  const state = stateOf(server);
  const username = options.username ?? `bot${++state.botCounter}`;
  if (!/^[A-Za-z0-9_]{1,16}$/.test(username))
    throw new TestkitError('invalid_options', `username: expected 1-16 of [A-Za-z0-9_], received ${JSON.stringify(username)}`);
  const timeoutMs = options.timeoutMs ?? 20_000;

  const bot = createBot({
    host: server.host,
    port: server.port,
    username,
    version: server.version,
    auth: 'offline',
    hideErrors: true,
    logErrors: false,
    viewDistance: 'short',
  });
  botServers.set(bot, server);
  state.bots.add(bot);
  bot.once('end', () => {
    state.bots.delete(bot);
  });

  let timer: NodeJS.Timeout | undefined;
  const failed = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TestkitError('spawn_timeout', `${username} did not spawn within ${timeoutMs} ms`)), timeoutMs);
    bot.once('kicked', (reason) => reject(new TestkitError('spawn_timeout', `${username} was kicked: ${String(reason)}`)));
    bot.once('error', (err) => reject(err));
    bot.once('end', (reason) => reject(new TestkitError('spawn_timeout', `${username} disconnected: ${String(reason)}`)));
  });
  failed.catch(() => undefined);
  try {
    await Promise.race([
      new Promise<void>((resolve) => bot.once('spawn', () => resolve())),
      failed,
    ]);
    await Promise.race([bot.waitForChunksToLoad(), failed]);
  } catch (err) {
    bot.quit();
    throw err;
  } finally {
    clearTimeout(timer);
  }
  return bot;
}
