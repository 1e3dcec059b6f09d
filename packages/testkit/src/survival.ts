import { ConfigError } from '@sinew/executor-contracts';
import type { Bot } from 'mineflayer';
import { z } from 'zod';
import { serverOfBot } from './bot.js';
import { TestkitError } from './errors.js';
import { HAZARD_RULES, setPlayerAir } from './extensions/hazards.js';
import { configureRegeneration } from './extensions/regeneration.js';
import { configureHostileSpawning, HostileSpawningInputSchema, type HostileSpawningOptions } from './extensions/spawning.js';
import { embedded, parseOptions, playerOf, stateOf, type TestServer } from './server.js';
import type { SquidServer } from './squid/types.js';
import { syncAll, syncBot } from './sync.js';

export type { HostileSpawningOptions } from './extensions/spawning.js';

const setTimeOptionsSchema = z
  .object({
    /** Whether time keeps running (20 ticks per second, flying-squid's default) or stands still. */
    daylightCycle: z.boolean().optional(),
  })
  .strict();

/** Options of {@link setTime}. */
export type SetTimeOptions = z.input<typeof setTimeOptionsSchema>;

type DayCycleServer = SquidServer & { setTime(time: number): void; doDaylightCycle: boolean };

/** Sets the time of day in ticks (0 sunrise, 6 000 noon, 13 000 night, 18 000 midnight) and waits until bots see it. */
export async function setTime(server: TestServer, ticks: number, input: SetTimeOptions = {}): Promise<void> {
  if (!(Number.isInteger(ticks) && ticks >= 0))
    throw ConfigError.field('setTime', ['ticks'], `expected an integer ≥ 0, received ${JSON.stringify(ticks)}`);
  const options = parseOptions(setTimeOptionsSchema, input, 'setTime');
  const state = stateOf(server);
  if (state.external) {
    await state.external.command(`time set ${ticks}`);
    if (options.daylightCycle !== undefined) await state.external.command(`gamerule doDaylightCycle ${options.daylightCycle}`);
    return;
  }
  const serv = embedded(server, 'setTime').serv as DayCycleServer;
  if (options.daylightCycle !== undefined) serv.doDaylightCycle = options.daylightCycle;
  serv.setTime(ticks % 24_000);
  await syncAll(serv);
}

/**
 * Turns night-time hostile spawning on (true or options) or off (false) at runtime; the same as
 * `startServer({ hostileSpawning })`. Spawned mobs stay when it is turned off.
 */
export function setHostileSpawning(server: TestServer, input: boolean | HostileSpawningOptions): void {
  const { serv } = embedded(server, 'setHostileSpawning');
  configureHostileSpawning(serv, parseOptions(HostileSpawningInputSchema, input, 'hostileSpawning'));
}

/** Turns vanilla natural regeneration on or off at runtime (the `naturalRegeneration` game rule); the same as `startServer({ naturalRegeneration })`. */
export function setNaturalRegeneration(server: TestServer, on: boolean): void {
  if (typeof on !== 'boolean') throw ConfigError.field('setNaturalRegeneration', ['on'], `expected a boolean, received ${JSON.stringify(on)}`);
  const { serv } = embedded(server, 'setNaturalRegeneration');
  configureRegeneration(serv, on);
}

/** Sets the bot's air supply in ticks (0..300; 300 full, mineflayer shows ticks / 15 as `bot.oxygenLevel`). */
export async function setAir(bot: Bot, ticks: number): Promise<void> {
  if (!(Number.isInteger(ticks) && ticks >= 0 && ticks <= HAZARD_RULES.maxAir))
    throw ConfigError.field('setAir', ['ticks'], `expected an integer 0..300, received ${JSON.stringify(ticks)}`);
  const { state } = serverOfBot(bot);
  if (!state.serv) throw new TestkitError('unsupported_external', 'setAir needs the embedded server');
  const player = playerOf(state.serv, bot.username);
  if (!setPlayerAir(state.serv, player, ticks)) throw new TestkitError('player_not_found', `no hazard state for ${bot.username}`);
  await syncBot(state.serv, bot);
}
