import { PlanStepSchema, type PlanStep, type Preemptor, type StepOutcome } from '@sinew/executor-contracts';
import { createReflex, type Reflex, type ReflexEvent, type ReflexThreat } from '../reflex/reflex.js';
import { createEmergencyTracker, EMERGENCY_MODES, type EmergencyMode, type EmergencyResult } from './recall.js';
import { resolveModesConfig, type ModeProfile, type ModesConfig, type ModesOverrides } from './config.js';

/** What the body reports, read on every physics tick (the Minecraft part fills it from mineflayer). */
export interface BodySignals {
  /** Half-hearts, 0..20. */
  readonly health: number;
  readonly food: number;
  /** 0..20 (mineflayer's `oxygenLevel`). */
  readonly oxygen: number;
  readonly inLava: boolean;
  /** Feet or head in a fire block. */
  readonly inFire: boolean;
  readonly onFire: boolean;
  readonly eyesInWater: boolean;
  /** Airborne and going down fast: actions started now are wasted, so nothing new fires. */
  readonly falling: boolean;
  readonly hasFood: boolean;
  /** Blocks the body could pillar with. */
  readonly scaffoldBlocks: number;
  /** Milliseconds left of the dig under way (undefined: not digging); an interrupted dig loses all its progress. */
  readonly digRemainingMs?: number;
}

/** The self-preservation and maintenance modes, in priority order; `defense` (the reflex) sits between them. */
export type ModeName = 'hazard_block' | 'drowning' | 'low_health' | 'defense' | 'hunger';
/** A mode's priority tier: self-preservation > defense > maintenance. */
export type ModeTier = 'self_preservation' | 'defense' | 'maintenance';
const TIER: Record<ModeName, ModeTier> = {
  hazard_block: 'self_preservation',
  drowning: 'self_preservation',
  low_health: 'self_preservation',
  defense: 'defense',
  hunger: 'maintenance',
};
/**
 * A meal (vanilla: 32 ticks) with a margin: low health eats only when no hostile can reach the body sooner. 3 s, not
 * 2: in the survival traces, zombies 7.1 and 7.9 blocks off stood within 1.6 blocks when a 1.2 s meal ended (3–5
 * blocks/s as the client sees them), and the bot came out of it at 2 health (once it died).
 */
const MEAL_MS = 3_000;
/** Vanilla natural regeneration heals only from this food level up (`FoodData.tick`). */
const REGENERATION_FOOD = 18;
/** The executor's preemption tier of each: self-preservation interrupts a running defense fast path (never the reverse). */
const PREEMPT_TIER: Record<ModeTier, number> = { self_preservation: 2, defense: 1, maintenance: 0 };
const BODY_MODES = ['hazard_block', 'drowning', 'low_health', 'hunger'] as const;
/** A shelter's hold is asked for this long at a time and renewed at half of it, while the shelter lasts. */
const SHELTER_HOLD_MS = 1_000;
/**
 * A shelter ends when health has not risen for this long: no regeneration is coming (vanilla heals a fed body 1 per 4 s,
 * and none below 18 food; an empty food bar with nothing to eat stays where it is).
 */
const SHELTER_STALL_MS = 10_000;
type BodyMode = (typeof BODY_MODES)[number];

/** What the modes report: signal edges, preemptions and their outcomes, deferrals, give-ups. */
export type ModeEvent =
  | { readonly type: 'signal'; readonly mode: ModeName; readonly edge: 'rise' | 'fall'; readonly atMs: number; readonly reason: string }
  | { readonly type: 'preempt'; readonly mode: ModeName; readonly tier: ModeTier; readonly atMs: number; readonly step: PlanStep; readonly reason: string }
  | { readonly type: 'outcome'; readonly mode: ModeName; readonly atMs: number; readonly outcomes: readonly StepOutcome[] }
  | { readonly type: 'error'; readonly mode: ModeName; readonly atMs: number; readonly message: string }
  | { readonly type: 'deferred'; readonly mode: ModeName; readonly atMs: number; readonly reason: 'busy' | 'holding' | 'falling' | 'digging' | 'danger' }
  | { readonly type: 'no_fast_path'; readonly mode: ModeName; readonly atMs: number; readonly reason: string }
  | { readonly type: 'gave_up'; readonly mode: ModeName; readonly atMs: number; readonly attempts: number }
  /** Low health out of every near hostile's reach: the plan is held (rise) until that ends (fall, with why); see `shelterMs`. */
  | { readonly type: 'shelter'; readonly mode: 'low_health'; readonly edge: 'rise' | 'fall'; readonly atMs: number; readonly reason: string }
  | { readonly type: 'defense'; readonly atMs: number; readonly event: ReflexEvent }
  /** An emergency's end (see `createEmergencyTracker`): hazard recall counts these. */
  | { readonly type: 'emergency'; readonly mode: EmergencyMode; readonly result: EmergencyResult; readonly atMs: number; readonly onsetMs: number };

/** What `modes.status()` reports. */
export interface ModesStatus {
  readonly active: readonly ModeName[];
  /** The mode whose fast path is running, if any (one controller at a time). */
  readonly controller: ModeName | undefined;
  readonly preempts: Readonly<Record<ModeName, number>>;
  readonly listenerErrors: number;
  /** Whether low health holds the plan where no hostile near can reach the body (`shelterMs`). */
  readonly sheltering: boolean;
}

/** The self-preservation and maintenance modes beside the plan. */
export interface Modes {
  readonly config: ModesConfig;
  /** The defense reflex, fed by `threats()`. */
  readonly reflex: Reflex;
  /** Reads the body (call it on every physics tick or body event); may preempt. */
  body(signals: BodySignals): void;
  /**
   * Reads the belief layer's threats of this tick (call it every ingest tick); may preempt through the reflex.
   * `cannotReach`: the hostiles near that cannot walk to the body (left out of `threats`; a hurt body shelters from them).
   */
  threats(tickId: number, threats: readonly ReflexThreat[], cannotReach?: readonly ReflexThreat[]): void;
  /** True while a mode (or the reflex) drives the body. */
  inControl(): boolean;
  /** The modes' state and counters now. */
  status(): ModesStatus;
  /** Resolves when no fast path is in flight. */
  idle(): Promise<void>;
}

/** Options of `createModes`. */
export interface ModesOptions {
  readonly preemptor: Preemptor;
  /** A named profile (`cautious`, `brave`) under `config`. */
  readonly profile?: ModeProfile;
  readonly config?: ModesOverrides;
  /** Milliseconds (inject `ManualClock.now` in tests; default `Date.now`). */
  readonly now?: () => number;
  /** Told every decision; a throwing listener is counted and ignored. */
  readonly onEvent?: (event: ModeEvent) => void;
}

interface ModeState {
  active: boolean;
  attempts: number;
  holdUntil: number;
  gaveUp: boolean;
  /** Engaged with no fast path now (low health, nothing near, a full food bar): re-checked every tick, and defense still waits. */
  stalled: boolean;
  deferredFor: string | undefined;
}

const isEmergency = (mode: ModeName): mode is EmergencyMode => (EMERGENCY_MODES as readonly string[]).includes(mode);

let stepSeq = 0;
function fastStep(mode: ModeName, type: string, args: Record<string, unknown>): PlanStep {
  stepSeq += 1;
  return PlanStepSchema.parse({ stepId: `mode-${mode}-${stepSeq}`, type, args, safetyLevel: 'caution' });
}

/** Builds the modes controller: body and belief signals → edge-detected modes → fast paths through one preemptor. */
export function createModes(options: ModesOptions): Modes {
  const config = resolveModesConfig(options.profile, options.config);
  const now = options.now ?? Date.now;
  const state = Object.fromEntries(BODY_MODES.map((m) => [m, { active: false, attempts: 0, holdUntil: 0, gaveUp: false, stalled: false, deferredFor: undefined }])) as Record<BodyMode, ModeState>;
  const preempts: Record<ModeName, number> = { hazard_block: 0, drowning: 0, low_health: 0, defense: 0, hunger: 0 };
  const healthLog: { at: number; health: number }[] = [];
  let controller: ModeName | undefined;
  let inFlight: Promise<void> | undefined;
  let nearest: ReflexThreat | undefined;
  let lastBody: BodySignals | undefined;
  let listenerErrors = 0;
  let dangerNear = false;
  let digDeferred = false;
  // hunger's band (food below `foodBelow` until `foodReleaseAt`), and whether hunger is engaged only to heal
  let starving = false;
  let eatingToHeal = false;
  // low health out of reach: since when the plan is held, when the hold was last asked, and whether shelterMs is spent
  let shelterSince: number | undefined;
  let shelterAskedAt = Number.NEGATIVE_INFINITY;
  let shelterSpent = false;
  // the best health seen while sheltering, and when it was first seen
  let shelterBest = 0;
  let shelterRoseAt = 0;
  const emergencies = createEmergencyTracker(config.emergencyWindowMs, (mode, result, atMs, onsetMs) => emit({ type: 'emergency', mode, result, atMs, onsetMs }));

  function emit(event: ModeEvent): void {
    try {
      options.onEvent?.(event);
    } catch {
      listenerErrors += 1;
    }
  }

  /** The one door to the executor: one fast path in flight, but for self-preservation taking over from defense (its tier stops the fight). */
  function run(mode: ModeName, steps: readonly PlanStep[], reason: string): Promise<readonly StepOutcome[]> {
    controller = mode;
    preempts[mode] += 1;
    for (const step of steps) emit({ type: 'preempt', mode, tier: TIER[mode], atMs: now(), step, reason });
    if (isEmergency(mode)) emergencies.dispatched(mode, now());
    let call: Promise<readonly StepOutcome[]>;
    try {
      // A self-preservation mode holds the body for its hold after its fast path: the executor keeps caution steps waiting.
      // A pillar holds every plan step: the next one could walk the body back down before the shelter's hold begins.
      const hold = TIER[mode] === 'self_preservation' ? { holdMs: config.holdMs, ...(steps[0]?.type === 'pillar_up' ? { holds: 'all' as const } : {}) } : {};
      call = Promise.resolve(options.preemptor.preempt(steps, { reason: `mode:${mode}:${steps[0]?.type ?? 'none'}`, tier: PREEMPT_TIER[TIER[mode]], ...hold }));
    } catch (error) {
      call = Promise.reject(error);
    }
    const settled = call.then(
      (outcomes) => emit({ type: 'outcome', mode, atMs: now(), outcomes }),
      (error: unknown) => emit({ type: 'error', mode, atMs: now(), message: error instanceof Error ? error.message : String(error) }),
    );
    // only this flight's end frees the controller (a self-preservation flight may have taken over meanwhile)
    const flight: Promise<void> = settled.finally(() => {
      if (inFlight !== flight) return;
      inFlight = undefined;
      controller = undefined;
    });
    inFlight = flight;
    return call;
  }

  /**
   * A dig that ends before any hostile can reach the body finishes first: aborting it throws its progress away (a log
   * by hand takes 3 s; the swarm gives 1–4 s between fights). So does one that only one hostile can reach first while
   * health is at least `finishDigAtHealth`. Bounded by `protectDigMs`.
   */
  function digFinishesFirst(remainingMs: number | undefined, seen: readonly ReflexThreat[]): boolean {
    if (remainingMs === undefined || seen.length === 0 || remainingMs > config.protectDigMs) return false;
    const reachMs = (t: ReflexThreat) => (Math.max(0, t.distance - config.threatReachBlocks) / config.threatSpeedBlocksPerS) * 1000;
    const first = seen.filter((t) => reachMs(t) <= remainingMs).length;
    return first === 0 || (first === 1 && (lastBody?.health ?? 0) >= config.finishDigAtHealth);
  }

  function deferDefense(): void {
    if (!digDeferred) emit({ type: 'deferred', mode: 'defense', atMs: now(), reason: 'digging' });
    digDeferred = true;
  }

  const reflex = createReflex({
    config: config.defense,
    preemptor: { preempt: (steps, { reason }) => run('defense', steps, reason) },
    onEvent: (event) => emit({ type: 'defense', atMs: now(), event }),
  });

  /** Hurt with a food bar too low for natural regeneration: eat to heal (not hunger itself). */
  const healHunger = (s: BodySignals): boolean => s.health < config.eatToHealBelow && s.food < REGENERATION_FOOD;

  /** Whether any hostile could reach the body before a meal ends. */
  const mealInDanger = (): boolean => nearest !== undefined && (Math.max(0, nearest.distance - config.threatReachBlocks) / config.threatSpeedBlocksPerS) * 1000 <= MEAL_MS;

  /** Whether each body mode is engaged now, with hysteresis; the reason names the signal. */
  function levels(s: BodySignals, at: number): Record<BodyMode, string | undefined> {
    healthLog.push({ at, health: s.health });
    while (healthLog.length > 0 && healthLog[0]!.at < at - config.healthDropWindowMs) healthLog.shift();
    const peak = Math.max(...healthLog.map((h) => h.health));
    const low = state.low_health.active ? s.health < config.healthReleaseAt : s.health < config.healthBelow;
    const dropping = peak - s.health >= config.healthDrop;
    // hunger's own band (with hysteresis), apart from eating to heal: a meal for healing waits out danger, hunger does not
    starving = starving ? s.food < config.foodReleaseAt : s.food < config.foodBelow;
    eatingToHeal = !starving && healHunger(s);
    return {
      hazard_block: s.inLava ? 'in lava' : s.inFire ? 'in fire' : s.onFire ? 'burning' : undefined,
      drowning: s.eyesInWater && s.oxygen < config.oxygenBelow ? `oxygen ${s.oxygen} < ${config.oxygenBelow}` : undefined,
      low_health: low || dropping ? (dropping ? `health fell ${peak - s.health} within ${config.healthDropWindowMs} ms` : `health ${s.health} < ${config.healthBelow}`) : undefined,
      hunger: !s.hasFood ? undefined : starving ? `food ${s.food} < ${config.foodBelow}` : eatingToHeal ? `health ${s.health} < ${config.eatToHealBelow} with food ${s.food} < ${REGENERATION_FOOD}: no natural regeneration` : undefined,
    };
  }

  /**
   * Hurt, the body must run: the nearest hostile is in the flee band (within the danger radius), or would reach it
   * before a meal ends, however small the danger radius (brave's 6 let it eat with a zombie at 7.9 blocks).
   */
  function mustRun(): boolean {
    if (nearest === undefined) return false;
    const reachMs = (Math.max(0, nearest.distance - config.threatReachBlocks) / config.threatSpeedBlocksPerS) * 1000;
    return (nearest.distance <= config.dangerWithinBlocks && nearest.distance <= config.defense.fleeWithinBlocks) || reachMs <= MEAL_MS;
  }

  /** The fast path for a mode given the body and the nearest threat, or why there is none. */
  function fastPath(mode: BodyMode, s: BodySignals): PlanStep | string {
    if (mode === 'hazard_block') return fastStep(mode, 'escape_fluid', { fluid: s.inLava ? 'lava' : 'fire', radius: config.escapeRadius });
    if (mode === 'drowning') return fastStep(mode, 'escape_fluid', { fluid: 'water', radius: config.escapeRadius });
    if (mode === 'hunger') return fastStep(mode, 'consume_food', {});
    const danger = nearest && nearest.distance <= config.dangerWithinBlocks ? nearest : undefined;
    if (danger && config.pillarHeight > 0 && s.scaffoldBlocks >= config.pillarHeight) return fastStep(mode, 'pillar_up', { height: config.pillarHeight });
    // a hostile in the reflex's flee band, or one that would reach the body mid-meal: run; farther: eat first
    if (nearest && mustRun()) return fastStep(mode, 'flee', { from: { ...nearest.predicted }, distance: config.defense.fleeDistanceBlocks });
    if (s.hasFood && s.food < 20) return fastStep(mode, 'consume_food', {});
    if (danger) return fastStep(mode, 'flee', { from: { ...danger.predicted }, distance: config.defense.fleeDistanceBlocks });
    return 'no hostile near and nothing to eat';
  }

  /**
   * Low health with a hostile near that cannot reach the body, and none near that can: every plan step waits (the hold
   * is renewed while this lasts, `shelterMs` at most per engagement), so the plan does not walk the body back into reach.
   */
  function shelter(waiting: boolean, at: number): void {
    const why = !state.low_health.active ? 'health back' : !waiting ? 'no hostile waiting' : dangerNear ? 'a hostile can reach the body' : undefined;
    if (why !== undefined) {
      if (shelterSince !== undefined) emit({ type: 'shelter', mode: 'low_health', edge: 'fall', atMs: at, reason: why });
      shelterSince = undefined;
      return;
    }
    if (shelterSpent || config.shelterMs === 0) return;
    const health = lastBody?.health ?? 0;
    if (shelterSince === undefined) {
      [shelterSince, shelterAskedAt, shelterBest, shelterRoseAt] = [at, Number.NEGATIVE_INFINITY, health, at];
      emit({ type: 'shelter', mode: 'low_health', edge: 'rise', atMs: at, reason: `health ${health} with a hostile near that cannot reach the body` });
    } else if (health > shelterBest) [shelterBest, shelterRoseAt] = [health, at];
    const left = config.shelterMs - (at - shelterSince);
    const spent = left <= 0 ? `held ${config.shelterMs} ms (shelterMs)` : at - shelterRoseAt >= SHELTER_STALL_MS ? `health ${health} has not risen for ${at - shelterRoseAt} ms` : undefined;
    if (spent !== undefined) {
      shelterSpent = true;
      shelterSince = undefined;
      emit({ type: 'shelter', mode: 'low_health', edge: 'fall', atMs: at, reason: `${spent}: the plan goes on` });
      return;
    }
    if (at - shelterAskedAt < SHELTER_HOLD_MS / 2) return;
    shelterAskedAt = at;
    try {
      const asked = options.preemptor.preempt([], { reason: 'mode:low_health:shelter', holdMs: Math.min(SHELTER_HOLD_MS, left), holds: 'all', tier: PREEMPT_TIER.self_preservation });
      void Promise.resolve(asked).catch(() => undefined);
    } catch {
      // a preemptor that throws holds nothing; the plan goes on as it would without the shelter
    }
  }

  function defer(mode: BodyMode, reason: 'busy' | 'holding' | 'falling' | 'danger', at: number): void {
    if (state[mode].deferredFor === reason) return;
    state[mode].deferredFor = reason;
    emit({ type: 'deferred', mode, atMs: at, reason });
  }

  /** Hurt with a hostile near: low health flees, and neither gives up nor lets defense fight while that lasts. */
  const fleeing = (mode: BodyMode): boolean => mode === 'low_health' && mustRun();

  /** Whether `mode` may fire while a fast path is in flight: self-preservation over a defense fight, never otherwise. */
  const outranksFlight = (mode: BodyMode): boolean => inFlight !== undefined && controller !== undefined && PREEMPT_TIER[TIER[mode]] > PREEMPT_TIER[TIER[controller]];

  /** Fires the highest-priority engaged mode if the controller is free (or outranked); the reflex owns the defense tier. */
  function arbitrate(s: BodySignals, at: number, reasons: Record<BodyMode, string | undefined>): void {
    for (const mode of BODY_MODES) {
      const st = state[mode];
      if (!st.active || (st.gaveUp && !fleeing(mode))) continue;
      if (mode === 'hunger' && reflex.inControl()) return defer(mode, 'busy', at);
      // eating to heal (not starving) waits until no hostile could reach the body mid-meal: the meal holds defense back
      if (mode === 'hunger' && eatingToHeal && mealInDanger()) return defer(mode, 'danger', at);
      if (inFlight && !outranksFlight(mode)) return defer(mode, 'busy', at);
      if (s.falling) return defer(mode, 'falling', at);
      if (at < st.holdUntil) return defer(mode, 'holding', at);
      if (st.attempts >= config.maxAttempts && !fleeing(mode)) {
        st.gaveUp = true;
        emit({ type: 'gave_up', mode, atMs: at, attempts: st.attempts });
        continue;
      }
      const step = fastPath(mode, s);
      if (typeof step === 'string') {
        // Nothing to do now; a hostile coming near (flee) or room in the food bar (eat) gives one on a later tick.
        if (!st.stalled) emit({ type: 'no_fast_path', mode, atMs: at, reason: step });
        st.stalled = true;
        continue;
      }
      st.stalled = false;
      // a flight from a hostile is never used up: the swarm that keeps coming is what low health must keep away from
      if (!fleeing(mode)) st.attempts += 1;
      st.holdUntil = at + config.holdMs;
      st.deferredFor = undefined;
      void run(mode, [step], reasons[mode] ?? mode).catch(() => undefined);
      return;
    }
  }

  return {
    config,
    reflex,
    body(signals) {
      const at = now();
      lastBody = signals;
      emergencies.health(signals.health, at); // before this tick's onsets: a drop now predates them
      const reasons = levels(signals, at);
      for (const mode of BODY_MODES) {
        const st = state[mode];
        const engaged = reasons[mode] !== undefined;
        if (engaged === st.active) continue;
        Object.assign(st, { active: engaged, attempts: 0, gaveUp: false, stalled: false, holdUntil: 0, deferredFor: undefined });
        if (mode === 'low_health') shelterSpent = false;
        emit({ type: 'signal', mode, edge: engaged ? 'rise' : 'fall', atMs: at, reason: reasons[mode] ?? 'released' });
        if (isEmergency(mode)) (engaged ? emergencies.onset : emergencies.released)(mode, at);
      }
      arbitrate(signals, at, reasons);
    },
    threats(tickId, threats, cannotReach = []) {
      const ignored = new Set(config.ignoreClasses);
      const seen = threats.filter((t) => t.hostile && t.visibility !== 'lost' && !ignored.has(t.cls));
      nearest = seen.reduce<ReflexThreat | undefined>((a, t) => (!a || t.distance < a.distance ? t : a), undefined);
      const near = nearest !== undefined && nearest.distance <= config.dangerWithinBlocks;
      if (near !== dangerNear) (near ? emergencies.onset : emergencies.released)('defense', now());
      dangerNear = near;
      shelter(cannotReach.some((t) => t.hostile && t.visibility !== 'lost' && !ignored.has(t.cls) && t.distance <= config.dangerWithinBlocks), now());
      // self-preservation outranks defense: while a body mode is engaged (and not given up) the reflex waits; a stalled
      // low_health too, so a hurt bot never picks a fight: it flees (low_health's fast path) once the hostile is near
      const selfFirst = BODY_MODES.some((m) => TIER[m] === 'self_preservation' && state[m].active && (!state[m].gaveUp || fleeing(m)));
      if (selfFirst || (inFlight && controller !== 'defense') || lastBody?.falling) return;
      if (digFinishesFirst(lastBody?.digRemainingMs, seen)) return deferDefense();
      digDeferred = false;
      reflex.tick(tickId, seen);
    },
    // a stalled mode holds the reflex back but does not drive the body
    inControl: () => inFlight !== undefined || reflex.inControl() || BODY_MODES.some((m) => state[m].active && !state[m].gaveUp && !state[m].stalled),
    status: () => ({
      active: BODY_MODES.filter((m) => state[m].active),
      controller,
      preempts: { ...preempts },
      listenerErrors,
      sheltering: shelterSince !== undefined,
    }),
    idle: async () => {
      while (inFlight) await inFlight;
    },
  };
}
