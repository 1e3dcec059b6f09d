import { instrumentMethods, type BodySignals, type PredicateEvaluator } from '@sinew/bt-runtime';
import type { Bot } from 'mineflayer';
import pathfinderPackage from 'mineflayer-pathfinder';
import { unrefMineflayerTimeouts } from './operation-timers.js';
import { minecraftPredicates } from './predicates.js';

/** Sinew's state on a mineflayer bot, all at `bot.sinew` (as pathfinder's is at `bot.pathfinder`). */
export interface SinewNamespace extends BodySignals {
  /** The last chat lines the server sent this bot (plain text, oldest first, at most 50), each with its sequence number. */
  readonly chatLog: readonly ChatLine[];
  /** Entity id → how many times the bot saw it hurt (for entities still around). */
  readonly hurtCounts: ReadonlyMap<number, number>;
  /** Entities the bot saw die (the latest 256, kept after the server removes them): id → name and last position. */
  readonly deadEntities: ReadonlyMap<number, DeadEntity>;
  /** Subscribes to the bot going away for good (`end`, `kicked`, `error`; the first wins); returns the unsubscribe function. */
  onDisconnect(listener: (info: { readonly reason: string }) => void): () => void;
  /** The Minecraft predicate evaluator the executor checks plan steps' preconds/effects with. */
  readonly predicates: PredicateEvaluator<Bot>;
}

declare module 'mineflayer' {
  interface Bot {
    /** Sinew's namespace, set by `bot.loadPlugin(sinew)` or `instrumentBot(bot)`. */
    sinew: SinewNamespace;
  }
}

/** One chat line the server sent; `seq` counts every line since instrumenting (1, 2, …), so it never repeats. */
export interface ChatLine {
  readonly seq: number;
  readonly line: string;
}

/** An entity the bot saw die, as it was at its death. */
export interface DeadEntity {
  readonly name: string;
  readonly position: { readonly x: number; readonly y: number; readonly z: number };
}

/** A mineflayer bot with the sinew plugin loaded (the `Bot` type itself carries `bot.sinew` once this package is imported). */
export type SinewBot = Bot;

/** Every bot method that moves the body (control states, look, dig, place, craft, equip, attack, consume, activate, chat, swing). */
export const BOT_ACTUATORS = [
  'setControlState',
  'clearControlStates',
  'look',
  'lookAt',
  'dig',
  'stopDigging',
  'placeBlock',
  'craft',
  'equip',
  'unequip',
  'toss',
  'tossStack',
  'attack',
  'consume',
  'activateBlock',
  'activateEntity',
  'activateItem',
  'deactivateItem',
  'chat',
  'whisper',
  'swingArm',
] as const;

/** The pathfinder calls that set the body moving (its own steering goes through the bot methods above). */
export const PATHFINDER_ACTUATORS = ['pathfinder.setGoal', 'pathfinder.goto', 'pathfinder.stop'] as const;

const CHAT_LOG_LIMIT = 50;
const DEAD_LIMIT = 256;
const ALL_ACTUATORS = [...BOT_ACTUATORS, ...PATHFINDER_ACTUATORS];

/**
 * Instruments a mineflayer bot in place, plugin-style: `bot.loadPlugin(sinew)`, returning the same bot
 * (still the user's). See `sinew` for what it adds; on a bot fresh from `createBot` that happens when
 * mineflayer loads its plugins, before `spawn`.
 *
 * @example
 * const bot = instrumentBot(await connectBot(server));
 * const stop = bot.sinew.onActuate(({ command }) => console.log(command));
 */
export function instrumentBot<B extends Bot>(bot: B): B {
  bot.loadPlugin(sinew);
  return bot;
}

/**
 * The mineflayer plugin: loads pathfinder if the bot has not, reports every call that moves the body to
 * `bot.sinew.onActuate` listeners before it runs, and keeps at `bot.sinew` the chat, hurts and deaths
 * the bot saw, its disconnect signal and predicate evaluator. Loaded twice, or beside `instrumentBot`,
 * it wires everything once.
 *
 * @example
 * const bot = mineflayer.createBot({ host, port, username: 'sinew' });
 * bot.loadPlugin(sinew);
 * const executor = createExecutor({ registry: createStandardRegistry(), body: bot });
 */
export function sinew(bot: Bot): void {
  // Another copy of this package (ESM beside CJS) is another function to loadPlugin: the state says it is done.
  if (Object.hasOwn(bot.sinew ?? {}, 'chatLog')) return;
  // Plugins run once mineflayer injects them, so pathfinder loads at once and its methods exist below.
  if (!bot.pathfinder) bot.loadPlugin(pathfinderPackage.pathfinder);
  instrumentMethods(bot, ALL_ACTUATORS, { ignoreMissing: true, describe });
  unrefMineflayerTimeouts(bot);
  Object.assign(bot.sinew, { chatLog: chatLog(bot), ...combatRecord(bot), onDisconnect: disconnectSignal(bot), predicates: minecraftPredicates });
}

/** The chat lines the server sends, the latest `CHAT_LOG_LIMIT`, numbered from 1. */
function chatLog(bot: Bot): readonly ChatLine[] {
  const log: ChatLine[] = [];
  let seq = 0;
  bot.on('messagestr', (message: string) => {
    seq += 1;
    log.push({ seq, line: message });
    if (log.length > CHAT_LOG_LIMIT) log.shift();
  });
  return log;
}

/** Hurts per live entity and the entities seen dying (attack acceptance reads both). */
function combatRecord(bot: Bot): Pick<SinewNamespace, 'hurtCounts' | 'deadEntities'> {
  const hurts = new Map<number, number>();
  const dead = new Map<number, DeadEntity>();
  bot.on('entityHurt', (entity) => {
    hurts.set(entity.id, (hurts.get(entity.id) ?? 0) + 1);
  });
  bot.on('entityDead', (entity) => {
    const { x, y, z } = entity.position;
    dead.set(entity.id, { name: entity.name ?? entity.username ?? entity.type, position: { x, y, z } });
    // Oldest first (insertion order): a death is evidence long after the body despawns, but not forever.
    if (dead.size > DEAD_LIMIT) dead.delete(dead.keys().next().value!);
  });
  bot.on('entityGone', (entity) => {
    hurts.delete(entity.id);
  });
  return { hurtCounts: hurts, deadEntities: dead };
}

/**
 * The body contract's disconnect signal from mineflayer's `end`, `kicked` and `error` (the first one
 * wins: a bot that went away does not come back). A listener added after that hears it at once.
 */
function disconnectSignal(bot: Bot): SinewNamespace['onDisconnect'] {
  const listeners = new Set<(info: { readonly reason: string }) => void>();
  let gone: { readonly reason: string } | undefined;
  const report = (reason: string) => {
    if (gone) return;
    gone = { reason };
    for (const listener of [...listeners]) listener(gone);
  };
  bot.on('kicked', (reason: unknown) => report(`kicked: ${kickText(reason)}`));
  bot.on('end', (reason: unknown) => report(`connection ended: ${typeof reason === 'string' && reason ? reason : 'unknown'}`));
  bot.on('error', (error: unknown) => report(`connection error: ${error instanceof Error ? error.message : String(error)}`));
  return (listener) => {
    if (gone) listener(gone);
    else listeners.add(listener);
    return () => listeners.delete(listener);
  };
}

/** A kick reason as text (mineflayer passes a JSON chat component or a plain string). */
function kickText(reason: unknown): string {
  if (typeof reason === 'string') {
    try {
      const parsed = JSON.parse(reason) as { text?: unknown; translate?: unknown };
      if (typeof parsed?.text === 'string' && parsed.text) return parsed.text;
      if (typeof parsed?.translate === 'string') return parsed.translate;
    } catch {
      // not JSON: the reason is the text itself
    }
    return reason || 'no reason given';
  }
  const text = (reason as { text?: unknown; value?: { text?: { value?: unknown } } } | null)?.text;
  return typeof text === 'string' && text ? text : 'no reason given';
}

/** Short provenance detail of an actuator call: block/entity/item names and positions, never whole objects. */
function describe(method: string, args: readonly unknown[]): string | undefined {
  const [first, second] = args;
  switch (method) {
    case 'setControlState':
      return `${String(first)}=${String(second)}`;
    case 'look':
      return `${num(first)},${num(second)}`;
    case 'lookAt':
      return vec(first);
    case 'dig':
    case 'activateBlock':
    case 'placeBlock': {
      const block = first as { name?: string; position?: unknown } | undefined;
      return block ? `${block.name ?? 'block'}@${vec(block.position)}` : undefined;
    }
    case 'attack':
    case 'activateEntity': {
      const entity = first as { name?: string; id?: number } | undefined;
      return entity ? `${entity.name ?? 'entity'}#${entity.id ?? '?'}` : undefined;
    }
    case 'equip':
    case 'tossStack':
      return typeof first === 'object' && first !== null ? `${(first as { name?: string }).name ?? 'item'}${second ? `→${String(second)}` : ''}` : String(first);
    case 'craft': {
      const recipe = first as { result?: { id?: number; count?: number } } | undefined;
      return `item#${recipe?.result?.id ?? '?'}×${num(second ?? 1)}`;
    }
    case 'chat':
      return typeof first === 'string' ? `${first.length} chars` : undefined;
    case 'pathfinder.setGoal':
    case 'pathfinder.goto':
      return first === null || first === undefined ? 'null' : ((first as { constructor?: { name?: string } }).constructor?.name ?? 'Goal');
    default:
      return undefined;
  }
}

function num(value: unknown): string {
  return typeof value === 'number' && !Number.isInteger(value) ? value.toFixed(2) : String(value);
}

function vec(value: unknown): string {
  if (!value || typeof value !== 'object') return String(value);
  const { x, y, z } = value as { x?: unknown; y?: unknown; z?: unknown };
  return `${num(x)},${num(y)},${num(z)}`;
}
