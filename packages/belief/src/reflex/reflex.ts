import { PlanStepSchema, type PlanStep, type Preemptor, type StepOutcome, type Vec3 } from '@sinew/executor-contracts';
import { z } from 'zod';
import { BeliefConfigError, issuesOf } from '../errors.js';

const blocks = z.number().positive().finite();

/** The reflex's bands and hold, validated when the reflex is built. */
export const ReflexConfigSchema = z
  .object({
    /** A hostile this close engages the reflex (trigger band). */
    fleeWithinBlocks: blocks.default(6),
    /** Control is released only once the nearest hostile is beyond this (reset band) and the hold expired. */
    releaseBeyondBlocks: blocks.default(10),
    /** Closer than this, fleeing is pointless: fight (`attack_entity`). */
    attackWithinBlocks: blocks.default(1.5),
    /** `flee.distance` asked of the body. */
    fleeDistanceBlocks: blocks.default(12),
    /** `attack_entity.maxDistance` asked of the body. */
    attackMaxDistanceBlocks: blocks.default(6),
    /** The body's own melee reach: a fight keeps its target across bursts while it is this close, else aims at the nearest. */
    attackReachBlocks: blocks.default(3),
    /**
     * `attack_entity.hits` of one fight: a fight is a burst (it ends sooner when its target dies), then the modes decide
     * again. Low health's higher preemption tier cuts a burst short; 6 kills a zombie with any sword, so a pack costs the
     * plan step one interruption per zombie, not one per 3 hits (which used up its resumes).
     */
    attackBurstHits: z.number().int().positive().default(6),
    /**
     * `attack_entity.keepAway`: between hits the bot backs away from hostiles closer than this (a zombie hits from 1.6
     * blocks, the bot from 3), so a fight against several is not a stand among all of them; 0 stands and fights.
     */
    attackKeepAwayBlocks: z.number().nonnegative().max(3).default(2),
    /** After each preemption the reflex keeps control for at least this many ticks. */
    holdTicks: z.number().int().positive().default(10),
    /**
     * Flees from one threat (its track, across engagements: a mob that comes back each time the bot returns to
     * its work was not escaped; each flee counts for every hostile within the reset band, so a following pack counts
     * whole), or from any threats within one engagement (a swarm that never lets control go), before the bot counts
     * as cornered and fights (0: always fight in band).
     */
    maxFleesBeforeFight: z.number().int().nonnegative().default(3),
  })
  .strict()
  .refine((c) => c.releaseBeyondBlocks > c.fleeWithinBlocks, {
    message: 'releaseBeyondBlocks must exceed fleeWithinBlocks (hysteresis)',
    path: ['releaseBeyondBlocks'],
  })
  .refine((c) => c.attackWithinBlocks < c.fleeWithinBlocks, {
    message: 'attackWithinBlocks must be below fleeWithinBlocks',
    path: ['attackWithinBlocks'],
  });
export type ReflexConfig = z.output<typeof ReflexConfigSchema>;
export type ReflexConfigInput = z.input<typeof ReflexConfigSchema>;

/** What the reflex reads of a threat track (a `TrackView` fits). */
export interface ReflexThreat {
  readonly trackId: number;
  readonly cls: string;
  readonly hostile: boolean;
  readonly visibility: 'visible' | 'inferred' | 'lost';
  readonly predicted: Vec3;
  readonly distance: number;
  /** The engine's entity id (a decimal string in Minecraft): a fight passes it as `attack_entity.entityId`. */
  readonly hint?: string | undefined;
}

/** What the reflex reports: engaged, a preemption, its outcome or error, released. */
export type ReflexEvent =
  | { readonly type: 'engaged'; readonly tickId: number; readonly trackId: number; readonly distance: number }
  | { readonly type: 'preempt'; readonly tickId: number; readonly trackId: number; readonly distance: number; readonly step: PlanStep }
  | { readonly type: 'outcome'; readonly tickId: number; readonly step: PlanStep; readonly outcomes: readonly StepOutcome[] }
  | { readonly type: 'error'; readonly tickId: number; readonly step: PlanStep; readonly message: string }
  | { readonly type: 'released'; readonly tickId: number };

/** What one reflex tick did. */
export type ReflexDecision = 'idle' | 'preempting' | 'busy' | 'holding' | 'released';

/** What `reflex.status()` reports. */
export interface ReflexStatus {
  readonly engaged: boolean;
  readonly inFlight: boolean;
  readonly engagedSinceTick: number | undefined;
  readonly holdUntilTick: number;
  readonly preempts: number;
  readonly flees: number;
  readonly attacks: number;
  readonly errors: number;
  /** Ticks on which a threat was in band but a preemption was still running (one controller at a time). */
  readonly busyTicks: number;
  /** Times `onEvent` threw (caught: the reflex keeps running). */
  readonly listenerErrors: number;
}

/** The defense reflex: preempts the executor when a threat enters a band. */
export interface Reflex {
  readonly config: ReflexConfig;
  /** Reads the threats of this tick (call it every ingest tick) and preempts when a band is entered. */
  tick(tickId: number, threats: readonly ReflexThreat[]): ReflexDecision;
  /** True from engagement until the threat is beyond the reset band, nothing runs and the hold expired. */
  inControl(): boolean;
  /** The reflex's counters and state now. */
  status(): ReflexStatus;
  /** Resolves when no preemption is in flight. */
  idle(): Promise<void>;
}

/** Options of `createReflex`. */
export interface ReflexOptions {
  readonly preemptor: Preemptor;
  readonly config?: ReflexConfigInput;
  /** Told every reflex event; if it throws, the error is counted in `status().listenerErrors` and ignored. */
  readonly onEvent?: (event: ReflexEvent) => void;
}

/** Tracks whose flee counts the reflex remembers. */
const MAX_FLED_TRACKS = 64;

/** Builds the reflex: TrackSet threats → `preempt([flee | attack_entity])`, never via a planner. */
export function createReflex(options: ReflexOptions): Reflex {
  const parsed = ReflexConfigSchema.safeParse(options.config ?? {});
  if (!parsed.success) throw new BeliefConfigError(issuesOf(parsed.error));
  const config = parsed.data;
  const onEvent = options.onEvent;
  let engaged = false;
  let engagedSinceTick: number | undefined;
  let holdUntilTick = 0;
  let inFlight: Promise<void> | undefined;
  let flees = 0;
  // how often the bot fled from each track, counting every hostile within the reset band at each flee: a pack that
  // follows the bot is not escaped by running, whichever of its mobs happens to be the nearest each time
  const fledFrom = new Map<number, number>();
  let lastFleeFailed = false;
  // flees since this engagement began, from any threat: a swarm that never lets control go corners the bot too
  let engagementFlees = 0;
  // a fight started in this engagement goes on until it is released: between bursts a pack's next mob is no reason to
  // turn and run (the traces: fight, flee at 1.9 blocks, fight, flee — each flee a free hit for the pack)
  let fighting = false;
  let attacks = 0;
  // the track the last fight aimed at: later bursts keep it while it is seen within reach (one burst rarely kills)
  let fightTrack: number | undefined;
  let errors = 0;
  let preempts = 0;
  let busyTicks = 0;
  let listenerErrors = 0;

  // a throwing listener must not escape tick() (the adapter's interval) nor reject the in-flight promise
  function emit(event: ReflexEvent): void {
    if (!onEvent) return;
    try {
      onEvent(event);
    } catch {
      listenerErrors += 1;
    }
  }

  function cornered(threat: ReflexThreat): boolean {
    const fled = fledFrom.get(threat.trackId) ?? 0;
    return fighting || threat.distance <= config.attackWithinBlocks || lastFleeFailed || fled >= config.maxFleesBeforeFight || engagementFlees >= config.maxFleesBeforeFight;
  }

  /**
   * What a fight aims at: the track fought last while it is seen within the body's reach, else the nearest one seen
   * in band, else the nearest (unseen: the fight waits) — a corpse or a mob behind a wall, kept up by prediction, must
   * not hold the fight back from one that is coming.
   */
  function aimed(threats: readonly ReflexThreat[], nearest: ReflexThreat): ReflexThreat {
    const seen = (t: ReflexThreat) => t.hostile && t.visibility === 'visible';
    const kept = threats.find((t) => t.trackId === fightTrack && seen(t) && t.distance <= Math.min(config.attackReachBlocks, config.attackMaxDistanceBlocks));
    const visible = threats.filter((t) => seen(t) && t.distance <= config.fleeWithinBlocks).sort((a, b) => a.distance - b.distance || a.trackId - b.trackId)[0];
    return kept ?? visible ?? nearest;
  }

  /** Counts a flee against every hostile seen within the reset band (bounded: the oldest tracks are forgotten). */
  function countFlee(threats: readonly ReflexThreat[]): void {
    for (const t of threats) {
      if (!t.hostile || t.visibility === 'lost' || t.distance > config.releaseBeyondBlocks) continue;
      const count = (fledFrom.get(t.trackId) ?? 0) + 1;
      fledFrom.delete(t.trackId);
      fledFrom.set(t.trackId, count);
    }
    while (fledFrom.size > MAX_FLED_TRACKS) fledFrom.delete(fledFrom.keys().next().value!);
  }

  function fire(tickId: number, threat: ReflexThreat, fight: boolean, threats: readonly ReflexThreat[]): void {
    const entity = threat.cls === 'unknown' ? {} : { entity: threat.cls };
    const entityId = threat.hint !== undefined && /^\d{1,15}$/.test(threat.hint) ? Number(threat.hint) : undefined;
    const step = fight
      ? PlanStepSchema.parse({
          stepId: `reflex-${tickId}-attack_entity`,
          type: 'attack_entity',
          args: { ...(entityId === undefined ? entity : { entityId }), maxDistance: config.attackMaxDistanceBlocks, hits: config.attackBurstHits, ...(config.attackKeepAwayBlocks > 0 ? { keepAway: config.attackKeepAwayBlocks } : {}) },
          safetyLevel: 'caution',
        })
      : PlanStepSchema.parse({
          stepId: `reflex-${tickId}-flee`,
          type: 'flee',
          args: { from: { ...threat.predicted }, ...entity, distance: config.fleeDistanceBlocks },
          safetyLevel: 'caution',
        });
    if (fight) {
      attacks += 1;
      fighting = true;
      fightTrack = threat.trackId;
    } else {
      flees += 1;
      engagementFlees += 1;
      countFlee(threats.includes(threat) ? threats : [threat, ...threats]);
    }
    preempts += 1;
    holdUntilTick = Math.max(holdUntilTick, tickId + config.holdTicks);
    emit({ type: 'preempt', tickId, trackId: threat.trackId, distance: threat.distance, step });
    let call: Promise<readonly StepOutcome[]>;
    try {
      // a bounded reason (verb and class, never the distance): the executor uses it as a metric label
      call = Promise.resolve(options.preemptor.preempt([step], { reason: `reflex:${step.type}:${threat.cls}` }));
    } catch (error) {
      call = Promise.reject(error);
    }
    inFlight = call.then(
      (outcomes) => {
        if (step.type === 'flee') lastFleeFailed = outcomes.some((o) => o.status !== 'succeeded');
        emit({ type: 'outcome', tickId, step, outcomes });
      },
      (error: unknown) => {
        errors += 1;
        if (step.type === 'flee') lastFleeFailed = true;
        emit({ type: 'error', tickId, step, message: error instanceof Error ? error.message : String(error) });
      },
    ).finally(() => {
      inFlight = undefined;
    });
  }

  return {
    config,
    tick(tickId, threats) {
      let nearest: ReflexThreat | undefined;
      for (const t of threats) {
        if (!t.hostile || t.visibility === 'lost') continue;
        if (!nearest || t.distance < nearest.distance || (t.distance === nearest.distance && t.trackId < nearest.trackId)) nearest = t;
      }
      const inBand = nearest !== undefined && nearest.distance <= config.fleeWithinBlocks;
      const released = nearest === undefined || nearest.distance > config.releaseBeyondBlocks;
      if (inFlight) {
        if (inBand) busyTicks += 1;
        return 'busy';
      }
      if (inBand && nearest) {
        if (!engaged) {
          engaged = true;
          engagedSinceTick = tickId;
          lastFleeFailed = false;
          engagementFlees = 0;
          fighting = false;
          emit({ type: 'engaged', tickId, trackId: nearest.trackId, distance: nearest.distance });
        }
        const fight = cornered(nearest);
        const target = fight ? aimed(threats, nearest) : nearest;
        // only what the bot sees, within the attack's distance, can be fought: a track kept up by prediction (the mob just
        // died, or is behind a wall) or one still beyond `attackMaxDistanceBlocks` waits (its guard would fail, each a resume)
        if (fight && (target.visibility !== 'visible' || target.distance > config.attackMaxDistanceBlocks)) return 'holding';
        fire(tickId, target, fight, threats);
        return 'preempting';
      }
      if (!engaged) return 'idle';
      if (tickId < holdUntilTick || !released) return 'holding';
      engaged = false;
      engagedSinceTick = undefined;
      fightTrack = undefined;
      fighting = false;
      emit({ type: 'released', tickId });
      return 'released';
    },
    inControl: () => engaged || inFlight !== undefined,
    status: () => ({
      engaged,
      inFlight: inFlight !== undefined,
      engagedSinceTick,
      holdUntilTick,
      preempts,
      flees,
      attacks,
      errors,
      busyTicks,
      listenerErrors,
    }),
    idle: async () => {
      while (inFlight) await inFlight;
    },
  };
}
