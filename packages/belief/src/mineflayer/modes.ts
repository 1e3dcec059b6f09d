import { EYE_HEIGHT, SCAFFOLD_BLOCKS } from '@sinew/executor-contracts/minecraft';
import type { Bot } from 'mineflayer';
import { Registry } from 'prom-client';
import { createModes, type BodySignals, type Modes, type ModesOptions } from '../modes/modes.js';
import type { ReflexThreat } from '../reflex/reflex.js';
import type { BeliefAdapter } from './adapter.js';
import { createBeliefMetrics } from './metrics.js';
import { threatsThatReach, type Blocked } from './reach.js';

const FALL_SPEED = -0.6; // blocks per tick: more than a step down or a jump's fall
const SCAFFOLD = new Set<string>(SCAFFOLD_BLOCKS);
const FIRE = new Set(['fire', 'soul_fire']);

type Block = NonNullable<Bot['targetDigBlock']>;

/** When each bot's dig under way was first seen, and when mineflayer let go of it (mineflayer keeps the target, not the start). */
const digsSeen = new WeakMap<Bot, { key: string; at: number; block: Block; releasedAt?: number }>();
/** After mineflayer sends the finish, the server's answer may take this long: the dig still counts, with nothing left. */
const CONFIRM_WINDOW_MS = 500;

/**
 * Milliseconds left of the bot's dig under way, timed from when it was first seen (undefined: not digging). A dig
 * whose finish was sent and whose block is still there awaits the server: 0 left (a step preempted then finds the
 * block gone on resume and fails its guard), for at most CONFIRM_WINDOW_MS.
 */
function digRemainingMs(bot: Bot, clock: () => number): number | undefined {
  const block = bot.targetDigBlock;
  const now = clock();
  let seen = digsSeen.get(bot);
  if (!block) {
    if (!seen) return undefined;
    seen.releasedAt ??= now;
    const standing = bot.blockAt(seen.block.position)?.type === seen.block.type;
    if (standing && now - seen.releasedAt <= CONFIRM_WINDOW_MS) return 0;
    digsSeen.delete(bot);
    return undefined;
  }
  const key = block.position.toString();
  if (seen?.key !== key || seen.releasedAt !== undefined) digsSeen.set(bot, (seen = { key, at: now, block }));
  return Math.max(0, bot.digTime(block) - (now - seen.at));
}

/**
 * Reads the body signals the modes need from a mineflayer bot (undefined before it has spawned); `now` (ms) times the
 * dig under way — the modes' own clock, so `digRemainingMs` and the modes' deadlines run on one time source.
 */
export function bodySignals(bot: Bot, now: () => number = Date.now): BodySignals | undefined {
  const entity = bot.entity;
  if (!entity?.position) return undefined;
  const at = (dy: number) => bot.blockAt(entity.position.offset(0, dy, 0))?.name;
  const feet = at(0.1);
  const eyes = at(EYE_HEIGHT);
  const items = bot.inventory.items();
  const meta = entity.metadata as unknown[] | undefined;
  const flags = typeof meta?.[0] === 'number' ? meta[0] : 0;
  return {
    health: bot.health,
    food: bot.food,
    oxygen: bot.oxygenLevel ?? 20,
    inLava: feet === 'lava' || eyes === 'lava',
    inFire: FIRE.has(feet ?? '') || FIRE.has(eyes ?? ''),
    onFire: (flags & 1) === 1,
    eyesInWater: eyes === 'water',
    falling: !entity.onGround && entity.velocity.y < FALL_SPEED && feet !== 'water',
    hasFood: items.some((item) => bot.registry.foodsByName[item.name] !== undefined),
    scaffoldBlocks: items.filter((item) => SCAFFOLD.has(item.name)).reduce((sum, item) => sum + item.count, 0),
    digRemainingMs: digRemainingMs(bot, now),
  };
}

/** Options of `attachModes`. */
export interface AttachModesOptions extends ModesOptions {
  /** The belief adapter whose ticks feed defense (hostiles by class and distance); without it, only body modes run. */
  readonly belief?: BeliefAdapter;
  /** prom-client registry for `sinew_hazard_emergencies_total` (default: the belief adapter's, else the preemptor's when it is an executor, else a private one). */
  readonly registry?: Registry;
  /**
   * Cells each reach search may visit (default 400; 0 turns the check off): a hostile near enough to matter that
   * cannot walk to the bot (behind a wall, in a cave below, outside a shelter) is no threat — nothing flees or fights it.
   */
  readonly reachNodes?: number;
}

/** Counts of the reach check: hostiles near enough to be checked, and those found unable to reach the bot (left out). */
export interface ReachCounts {
  readonly checked: number;
  readonly unreachable: number;
}

/** The modes attached to a bot (`attachModes`); `detach()` unhooks them. */
export interface AttachedModes extends Modes {
  /** Stops reading the bot and the belief adapter. */
  detach(): void;
  /** The reach check's counts so far. */
  reachCounts(): ReachCounts;
}

/**
 * Runs the self-preservation modes on a mineflayer bot: the body is read on every physics tick and on
 * health/breath packets (so a danger is acted on within the tick the server reports it), threats on every belief tick.
 */
export function attachModes(bot: Bot, options: AttachModesOptions): AttachedModes {
  const registry = options.registry ?? options.belief?.registry ?? executorRegistry(options.preemptor) ?? new Registry();
  const { hazardEmergencies } = createBeliefMetrics(registry);
  const modes = createModes({
    ...options,
    onEvent: (event) => {
      if (event.type === 'emergency') hazardEmergencies.inc({ mode: event.mode, result: event.result });
      options.onEvent?.(event);
    },
  });
  const now = options.now ?? Date.now;
  const read = () => {
    const signals = bodySignals(bot, now);
    if (signals) modes.body(signals);
  };
  // forcedMove: a teleport into lava is seen before the next physics tick
  const bodyEvents = ['physicsTick', 'health', 'breath', 'entityHurt', 'forcedMove'] as const;
  for (const event of bodyEvents) bot.on(event as 'physicsTick', read);
  const counts = { checked: 0, unreachable: 0 };
  const reachable = reachFilter(bot, options.reachNodes ?? 400, Math.max(modes.config.dangerWithinBlocks, modes.config.defense.releaseBeyondBlocks), counts);
  const off = options.belief?.on('tick', (tick) => {
    const reach = reachable(tick.threats);
    // the ones left out cannot walk to the body: a hurt body shelters from them (modes' shelterMs)
    const cannotReach = reach.length === tick.threats.length ? [] : tick.threats.filter((t) => !reach.includes(t));
    modes.threats(tick.tickId, reach, cannotReach);
  });
  return {
    ...modes,
    reachCounts: () => ({ ...counts }),
    detach() {
      for (const event of bodyEvents) bot.removeListener(event as 'physicsTick', read);
      off?.();
    },
  };
}

/** Reads the bot's blocks for `threatsThatReach`: a full collision box or lava stops a walker. */
function reachFilter(bot: Bot, maxNodes: number, radius: number, counts: { checked: number; unreachable: number }) {
  return (threats: readonly ReflexThreat[]): readonly ReflexThreat[] => {
    const self = bot.entity?.position;
    if (maxNodes <= 0 || !self) return threats;
    const probe = self.clone();
    const blocked: Blocked = (x, y, z) => {
      const block = bot.blockAt(probe.set(x, y, z), false);
      return block !== null && (block.boundingBox === 'block' || block.name === 'lava');
    };
    return threatsThatReach(threats, { self, blocked, maxNodes, radius, counts });
  };
}

/** The executor's metrics registry when the preemptor is an executor (what its `/metrics` serves). */
function executorRegistry(preemptor: unknown): Registry | undefined {
  const registry = (preemptor as { metrics?: { registry?: unknown } } | undefined)?.metrics?.registry;
  return registry instanceof Registry ? registry : undefined;
}
