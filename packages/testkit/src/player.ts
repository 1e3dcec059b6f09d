import { ConfigError } from '@sinew/executor-contracts';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { serverOfBot } from './bot.js';
import { TestkitError } from './errors.js';
import { playerOf } from './server.js';
import { syncBot } from './sync.js';
import { addToInventory } from './extensions/items.js';

/** Game modes accepted by {@link setGameMode}. */
export type GameMode = 'survival' | 'creative' | 'adventure' | 'spectator';
const GAME_MODES: readonly GameMode[] = ['survival', 'creative', 'adventure', 'spectator'];

/** The server state behind a testkit bot (serv is null on an external server). */
function control(bot: Bot) {
  const { state } = serverOfBot(bot);
  return { state, serv: state.serv };
}

/** Adds `count` of an item to the bot's inventory (stacking, hotbar first) and waits until the bot sees it. */
export async function give(bot: Bot, item: string, count = 1): Promise<void> {
  if (!Number.isInteger(count) || count < 1 || count > 64 * 36)
    throw ConfigError.field('give', ['count'], `expected an integer 1..2304, received ${JSON.stringify(count)}`);
  const name = item.replace(/^minecraft:/, '');
  const { state, serv } = control(bot);
  if (!serv) {
    await state.external!.command(`give ${bot.username} minecraft:${name} ${count}`);
    return;
  }
  const def = serv.registry.itemsByName[name];
  if (!def) throw new TestkitError('unknown_item', `no item named ${JSON.stringify(item)}`);
  const left = addToInventory(serv, playerOf(serv, bot.username).inventory, def.id, count);
  if (left > 0) throw new TestkitError('inventory_full', `inventory of ${bot.username} is full (${left} ${name} not given)`);
  await syncBot(serv, bot);
}

/** Hurts the bot by `amount` half-hearts as a hit would (death at 0) and waits until the bot sees it. */
export async function damage(bot: Bot, amount: number): Promise<void> {
  if (!(Number.isFinite(amount) && amount > 0))
    throw ConfigError.field('damage', ['amount'], `expected a positive number, received ${JSON.stringify(amount)}`);
  const { state, serv } = control(bot);
  if (!serv) {
    await state.external!.command(`damage ${bot.username} ${amount}`);
    return;
  }
  const player = playerOf(serv, bot.username);
  player.takeDamage({ damage: amount, animation: true });
  await syncBot(serv, bot);
}

/** Sets the bot's food level (0..20) and waits until the bot sees it. */
export async function setFood(bot: Bot, level: number): Promise<void> {
  if (!(Number.isInteger(level) && level >= 0 && level <= 20))
    throw ConfigError.field('setFood', ['level'], `expected an integer 0..20, received ${JSON.stringify(level)}`);
  const { serv } = control(bot);
  if (!serv) throw new TestkitError('unsupported_external', 'setFood has no vanilla command; use effects on an external server');
  const player = playerOf(serv, bot.username);
  player.foodSaturation = Math.min(player.foodSaturation ?? 0, level);
  player.updateFood(level);
  await syncBot(serv, bot);
}

/** Changes the bot's game mode (server and bot agree afterwards: `bot.game.gameMode`). */
export async function setGameMode(bot: Bot, mode: GameMode): Promise<void> {
  const index = GAME_MODES.indexOf(mode);
  if (index < 0) throw ConfigError.field('setGameMode', ['mode'], `expected one of ${GAME_MODES.join(', ')}, received ${JSON.stringify(mode)}`);
  const { state, serv } = control(bot);
  if (!serv) {
    await state.external!.command(`gamemode ${mode} ${bot.username}`);
    return;
  }
  playerOf(serv, bot.username).setGameMode(index);
  await syncBot(serv, bot);
}

/**
 * Waits until the server has handled everything the bot sent so far and the bot has handled
 * the answers (two ping round trips), e.g. before asserting the server or bot state after clicks.
 */
export async function sync(bot: Bot): Promise<void> {
  const { serv } = control(bot);
  if (!serv) {
    await bot.waitForTicks(2);
    return;
  }
  // First trip: the server has handled what the bot sent; second: the bot has seen the answers.
  await syncBot(serv, bot);
  await syncBot(serv, bot);
}

type ChunkSender = { position: Vec3; lastPositionChunkUpdated?: Vec3; sendingChunks?: boolean; worldSendRestOfChunks(): Promise<void> };

/**
 * Sends the chunks around a player teleported more than a chunk away, as vanilla does: flying-squid sends them
 * only when the client moves (and not while it is still sending others), and a bot in unloaded chunks does not move.
 */
async function sendChunksAround(player: object): Promise<void> {
  const sender = player as ChunkSender;
  const far = () => sender.lastPositionChunkUpdated !== undefined && sender.position.distanceTo(sender.lastPositionChunkUpdated) > 16;
  if (!far()) return;
  for (let waited = 0; sender.sendingChunks && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!sender.sendingChunks && far()) await sender.worldSendRestOfChunks();
}

/** Moves the bot to a position (server-side teleport) and waits until the bot is there. */
export async function teleport(bot: Bot, pos: { x: number; y: number; z: number }): Promise<void> {
  const { state, serv } = control(bot);
  if (!serv) {
    await state.external!.command(`tp ${bot.username} ${pos.x} ${pos.y} ${pos.z}`);
    return;
  }
  const target = new Vec3(pos.x, pos.y, pos.z);
  const player = playerOf(serv, bot.username);
  // The last forced move the bot saw decides (physics may move it after that, e.g. falling).
  let seen: Vec3 | null = null;
  const onForcedMove = (): void => {
    seen = bot.entity.position.clone();
  };
  bot.on('forcedMove', onForcedMove);
  try {
    // A position the server sends meanwhile (e.g. a late login packet) could win; send again then.
    for (let attempt = 0; attempt < 3; attempt++) {
      player.sendSelfPosition(target.clone());
      await syncBot(serv, bot);
      if (seen !== null && (seen as Vec3).distanceTo(target) < 1e-6) return await sendChunksAround(player);
    }
  } finally {
    bot.off('forcedMove', onForcedMove);
  }
  throw new TestkitError('teleport_failed', `${bot.username} was moved to ${String(seen)}, not ${target.toString()}, after 3 teleports`);
}
