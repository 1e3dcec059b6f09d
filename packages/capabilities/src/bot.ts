import { instrumentMethods, type ActuatorSource } from '@sinew/bt-runtime';
import type { Bot } from 'mineflayer';
import pathfinderPackage from 'mineflayer-pathfinder';
import { minecraftPredicates } from './predicates.js';

/** What `instrumentBot` adds to a bot: its actuator commands, its recent chat and the hurts it saw. */
export interface Instrumentation extends ActuatorSource {
  /** The last chat lines the server sent this bot (plain text, oldest first, at most 50), each with its sequence number. */
  readonly sinewChatLog: readonly ChatLine[];
  /** Entity id → how many times the bot saw it hurt (for entities still around). */
  readonly sinewHurtCounts: ReadonlyMap<number, number>;
  /** Entities the bot saw die (the latest 256, kept after the server removes them): id → name and last position. */
  readonly sinewDeadEntities: ReadonlyMap<number, DeadEntity>;
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

/** A mineflayer bot with pathfinder loaded and its actuators instrumented. */
export type SinewBot = Bot & Instrumentation;

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

const EXTRAS = Symbol.for('sinew.capabilities.instrumented');
const CHAT_LOG_LIMIT = 50;
const DEAD_LIMIT = 256;

/**
 * Instruments a mineflayer bot in place, plugin-style: the same object comes back (still the user's
 * bot), pathfinder is loaded if it was not, and every call that moves the body emits an actuator
 * command to `onActuate` listeners before it runs. Calling it twice is harmless.
 *
 * @example
 * const bot = instrumentBot(await connectBot(server));
 * const stop = bot.onActuate(({ command }) => console.log(command));
 */
export function instrumentBot<B extends Bot>(bot: B): B & Instrumentation {
  const target = bot as B & Instrumentation & { [EXTRAS]?: true };
  if (!(bot as { pathfinder?: unknown }).pathfinder) bot.loadPlugin(pathfinderPackage.pathfinder);
  instrumentMethods(bot, [...BOT_ACTUATORS, ...PATHFINDER_ACTUATORS], { ignoreMissing: true, describe });
  // A brand-new bot loads plugins on `inject_allowed`; instrument pathfinder once it exists.
  if (!(bot as { pathfinder?: unknown }).pathfinder) {
    bot.once('inject_allowed', () => {
      setImmediate(() => {
        instrumentMethods(bot, [...PATHFINDER_ACTUATORS], { ignoreMissing: true, describe });
      });
    });
  }
  if (target[EXTRAS]) return target;
  Object.defineProperty(target, EXTRAS, { value: true });
  const chatLog: ChatLine[] = [];
  let chatSeq = 0;
  const hurts = new Map<number, number>();
  const dead = new Map<number, DeadEntity>();
  Object.defineProperty(target, 'sinewChatLog', { get: () => chatLog, enumerable: false });
  Object.defineProperty(target, 'sinewHurtCounts', { get: () => hurts, enumerable: false });
  Object.defineProperty(target, 'sinewDeadEntities', { get: () => dead, enumerable: false });
  Object.defineProperty(target, 'onDisconnect', { value: disconnectSignal(bot), enumerable: false });
  // The executor checks plan steps' preconds/effects with the body's own evaluator unless given one.
  Object.defineProperty(target, 'predicates', { value: minecraftPredicates, enumerable: false });
  bot.on('messagestr', (message: string) => {
    chatSeq += 1;
    chatLog.push({ seq: chatSeq, line: message });
    if (chatLog.length > CHAT_LOG_LIMIT) chatLog.shift();
  });
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
  return target;
}

/**
 * The body contract's disconnect signal from mineflayer's `end`, `kicked` and `error` (the first one
 * wins: a bot that went away does not come back). A listener added after that hears it at once.
 */
function disconnectSignal(bot: Bot): NonNullable<Instrumentation['onDisconnect']> {
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
