import { ConfigError } from '@sinew/executor-contracts';
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
  if (!server) throw new TestkitError('not_a_testkit_bot', 'bot was not created by connectBot() nor adopted with adoptBot(server, bot)');
  return { server, state: stateOf(server) };
}

/** Connects a mineflayer bot and resolves once it has spawned and loaded the chunks around it. */
export async function connectBot(server: TestServer, input: ConnectBotOptions = {}): Promise<Bot> {
  const state = stateOf(server);
  const options = parseOptions(connectBotOptionsSchema, input, 'connectBot');
  const username = options.username ?? `bot${++state.botCounter}`;

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
  // A socket error after a server stop must not crash the test process ('end' follows it).
  bot.on('error', () => undefined);
  return settle(server, bot, options.timeoutMs ?? 20_000);
}

const adoptBotOptionsSchema = connectBotOptionsSchema.pick({ timeoutMs: true });

/** Options of {@link adoptBot}. */
export type AdoptBotOptions = z.input<typeof adoptBotOptionsSchema>;

/**
 * Lets the testkit helpers (`give`, `teleport`, `sync`, …) act on a bot made with mineflayer's own
 * `createBot({ host: server.host, port: server.port, … })`: waits, like {@link connectBot}, until it has
 * spawned and loaded its chunks (at once if it already has), and `server.stop()` quits it.
 */
export async function adoptBot(server: TestServer, bot: Bot, input: AdoptBotOptions = {}): Promise<Bot> {
  stateOf(server);
  const options = parseOptions(adoptBotOptionsSchema, input, 'adoptBot');
  const owner = botServers.get(bot);
  if (owner === server) return bot;
  if (owner) throw ConfigError.field('adoptBot', ['bot'], `${bot.username} already belongs to the server on port ${owner.port}`);
  return settle(server, bot, options.timeoutMs ?? 20_000);
}

/** A bot that has spawned: mineflayer sets `health` right after its first 'spawn'. */
const hasSpawned = (bot: Bot): boolean => typeof bot.health === 'number' && bot.health > 0;

/** Registers the bot with the server and waits for its spawn, its chunks and flying-squid's late login position. */
async function settle(server: TestServer, bot: Bot, timeoutMs: number): Promise<Bot> {
  const state = stateOf(server);
  const label = bot.username ?? 'the bot';
  botServers.set(bot, server);
  state.bots.add(bot);
  bot.once('end', () => {
    state.bots.delete(bot);
  });

  let timer: NodeJS.Timeout | undefined;
  const failed = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TestkitError('spawn_timeout', `${label} did not spawn within ${timeoutMs} ms`)), timeoutMs);
    bot.once('kicked', (reason) => reject(new TestkitError('spawn_timeout', `${label} was kicked: ${String(reason)}`)));
    bot.once('error', (err) => reject(err));
    bot.once('end', (reason) => reject(new TestkitError('spawn_timeout', `${label} disconnected: ${String(reason)}`)));
  });
  failed.catch(() => undefined);
  try {
    if (!hasSpawned(bot)) await Promise.race([new Promise<void>((resolve) => bot.once('spawn', () => resolve())), failed]);
    assertConnectedTo(server, bot);
    await Promise.race([bot.waitForChunksToLoad(), failed]);
    // flying-squid sends the login position once more at the end of its login; wait until the
    // bot has seen it, or a teleport right after connectBot would be undone by it.
    const player = state.serv?.getPlayer(bot.username);
    if (player) await Promise.race([loginSettled(player).then(() => roundTrip(player)), failed]);
  } catch (err) {
    botServers.delete(bot);
    state.bots.delete(bot);
    bot.quit();
    throw err;
  } finally {
    clearTimeout(timer);
  }
  return bot;
}

/** The bot's socket must lead to this server's port: helpers would otherwise act on a stranger. */
function assertConnectedTo(server: TestServer, bot: Bot): void {
  const remotePort = (bot._client as { socket?: { remotePort?: number } }).socket?.remotePort;
  if (remotePort !== server.port)
    throw ConfigError.field('adoptBot', ['bot'], `${bot.username} is connected to port ${String(remotePort)}, not to this server (port ${server.port})`);
}
