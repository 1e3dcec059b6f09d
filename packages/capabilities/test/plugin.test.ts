import { once } from 'node:events';
import { createExecutor, type ActuatorCommand } from '@sinew/bt-runtime';
import { connectBot, startServer, waitUntil, type TestServer } from '@sinew/testkit';
import { createBot, type Bot } from 'mineflayer';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createStandardRegistry, instrumentBot, sinew } from '../src/index.js';

let server: TestServer;
const bots: Bot[] = [];

beforeAll(async () => {
  server = await startServer();
});

afterEach(async () => {
  await Promise.all(bots.splice(0).map(async (bot) => Promise.all([once(bot, 'end'), bot.quit()])));
});

afterAll(async () => {
  await server?.stop();
});

/** A testkit bot the suite quits after each test. */
async function connect(username: string): Promise<Bot> {
  const bot = await connectBot(server, { username });
  bots.push(bot);
  return bot;
}

/** Lines the server sent `bot` that end with `text`. */
const linesWith = (bot: Bot, text: string) => bot.sinew.chatLog.filter(({ line }) => line.endsWith(text));

/** Resolves once `check` holds, within 200 server ticks (10 s of server time). */
async function until(check: () => boolean): Promise<void> {
  if (!(await waitUntil(server, check, 200))) throw new Error('condition not met within 200 server ticks');
}

describe('bot.loadPlugin(sinew)', () => {
  const before = { 'bot.loadPlugin(sinew)': (bot: Bot) => bot.loadPlugin(sinew), 'instrumentBot(bot)': (bot: Bot) => void instrumentBot(bot) };
  it.each(Object.entries(before))('%s before spawn: bot.sinew is wired, every actuator (pathfinder too) reported, and a step runs with the bot as the body', async (how, load) => {
    const username = how.startsWith('bot') ? 'plugged' : 'instrumented';
    const bot = createBot({ host: server.host, port: server.port, username, version: server.version, auth: 'offline', hideErrors: true });
    bot.on('error', () => undefined);
    bots.push(bot);
    load(bot);
    await once(bot, 'spawn');
    await bot.waitForChunksToLoad();
    const commands: string[] = [];
    bot.sinew.onActuate(({ command }) => commands.push(command));
    bot.swingArm('right');
    bot.pathfinder.setGoal(null);
    expect(commands.slice(0, 2)).toEqual(['swingArm', 'pathfinder.setGoal']);
    const executor = createExecutor({ registry: createStandardRegistry(), body: bot, policy: { maxLocalRetries: 0 } });
    const outcome = await executor.run({ planId: 'plugin', intentId: 'plugin', steps: [{ stepId: 's1', type: 'chat', args: { message: `${username} in` } }] });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('completed');
    expect(commands).toContain('chat');
    expect(linesWith(bot, `${username} in`)).toHaveLength(1);
    await executor.close();
  });

  it('wires once however often it is loaded, with instrumentBot too: one chat line per message, one command per call', async () => {
    const bot = await connect('twice');
    bot.loadPlugin(sinew);
    const wired = { chat: bot.listenerCount('messagestr'), hurt: bot.listenerCount('entityHurt'), end: bot.listenerCount('end') };
    const state = bot.sinew;
    expect(instrumentBot(bot)).toBe(bot);
    bot.loadPlugin(sinew);
    expect(bot.sinew).toBe(state);
    expect({ chat: bot.listenerCount('messagestr'), hurt: bot.listenerCount('entityHurt'), end: bot.listenerCount('end') }).toEqual(wired);
    const seen: ActuatorCommand[] = [];
    bot.sinew.onActuate((command) => seen.push(command));
    bot.swingArm('right');
    expect(seen.map(({ command }) => command)).toEqual(['swingArm']);
    const other = await connect('speaker');
    other.chat('heard once');
    await until(() => linesWith(bot, 'heard once').length > 0);
    other.chat('and again');
    await until(() => linesWith(bot, 'and again').length > 0);
    const [first] = linesWith(bot, 'heard once');
    expect(linesWith(bot, 'heard once')).toHaveLength(1);
    expect(linesWith(bot, 'and again')).toEqual([{ seq: first!.seq + 1, line: '<speaker> and again' }]);
  });

  it('keeps every piece of Sinew state in the one namespace, none loose on the bot', async () => {
    const bot = await connect('tidy');
    const before = new Set(Reflect.ownKeys(bot));
    bot.loadPlugin(sinew);
    // Patched actuators replace the bot's own methods in place: only the pathfinder plugin and `sinew` appear.
    expect(Reflect.ownKeys(bot).filter((key) => !before.has(key) && typeof key === 'string').sort()).toEqual(['pathfinder', 'sinew']);
    expect(Object.keys(bot.sinew).sort()).toEqual(['chatLog', 'deadEntities', 'hurtCounts', 'onActuate', 'onDisconnect', 'predicates']);
    for (const loose of ['onActuate', 'onDisconnect', 'predicates', 'sinewChatLog', 'sinewHurtCounts', 'sinewDeadEntities']) expect(loose in bot).toBe(false);
  });

  it('a bot that never loaded it is refused by createExecutor with a message naming the plugin', async () => {
    const bot = await connect('plain');
    expect(() => createExecutor({ registry: createStandardRegistry(), body: bot })).toThrow(/bot\.loadPlugin\(sinew\)/);
  });
});
