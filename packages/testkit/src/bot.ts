import { createBot, type Bot } from 'mineflayer';
import { TestkitError } from './errors.js';
import { loginSettled } from './extensions/login.js';
import { roundTrip } from './sync.js';
import { z } from 'zod';
import { parseOptions, stateOf, type ServerState, type TestServer } from './server.js';

const connectBotOptionsSchema = z
  .object({
    /** 1–16 characters of [A-Za-z0-9_]; default `bot1`, `bot2`, … per server. */
    username: z.string().regex(/^[A-Za-z0-9_]{1,16}$/, '1-16 characters of [A-Za-z0-9_]').optional(),
    /** Milliseconds to wait for spawn and chunks (default 20 000). */
    timeoutMs: z.number().int().positive().optional(),
  })
  .strict();

/** Options of {@link connectBot}. */
export type ConnectBotOptions = z.input<typeof connectBotOptionsSchema>;

const botServers = new WeakMap<Bot, TestServer>();

/** The server a testkit bot is connected to. */
export function serverOfBot(bot: Bot): { server: TestServer; state: ServerState } {
  const server = botServers.get(bot);
  if (!server) throw new TestkitError('not_a_testkit_bot', 'bot was not created by connectBot()');
  return { server, state: stateOf(server) };
}

/** Connects a mineflayer bot and resolves once it has spawned and loaded the chunks around it. */
export async function connectBot(server: TestServer, input: ConnectBotOptions = {}): Promise<Bot> {
  const state = stateOf(server);
  const options = parseOptions(connectBotOptionsSchema, input, 'connectBot options');
  const username = options.username ?? `bot${++state.botCounter}`;
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
  // A socket error after a server stop must not crash the test process ('end' follows it).
  bot.on('error', () => undefined);
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
    // flying-squid sends the login position once more at the end of its login; wait until the
    // bot has seen it, or a teleport right after connectBot would be undone by it.
    const player = state.serv?.getPlayer(username);
    if (player) await Promise.race([loginSettled(player).then(() => roundTrip(player)), failed]);
  } catch (err) {
    bot.quit();
    throw err;
  } finally {
    clearTimeout(timer);
  }
  return bot;
}
