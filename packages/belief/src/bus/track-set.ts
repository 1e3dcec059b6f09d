import type { BeliefConfig } from '../config.js';
import type { CanonicalEvidence } from '../evidence.js';
import type { HazardSource } from './hazard.js';
import type { Track, TrackView } from './track.js';

/** Integer positions in config units (`unitsPerBlock`), the observer's included. */
interface UnitVec {
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

/**
 * The bounded set of tracks and the per-track arithmetic (integers only: units, permille, ticks): velocity
 * and class updates from matched evidence, decay while unseen, creation, the derived fields (visibility,
 * distance bucket with hysteresis, threat score and flag) and eviction. The bus decides what to emit.
 */
export interface TrackSet {
  /** Tracks by id, in insertion (creation) order. */
  readonly tracks: ReadonlyMap<number, Track>;
  readonly nextId: number;
  /** Ticks a track's last position is extrapolated by its velocity at `tick` (bounded): position + velocity × this. */
  predictTicks(track: Track, tick: number): number;
  /** Applies matched evidence to its track. */
  update(track: Track, evidence: CanonicalEvidence, tick: number): void;
  /** Ages every track not seen this tick; drops those unseen for `forgetAfterTicks`. */
  ageUnseen(tick: number, elapsed: number): void;
  /** A new track from unmatched evidence; returns its id. */
  create(evidence: CanonicalEvidence, tick: number): number;
  /** Recomputes the effective class and derived fields of every track against the observer. */
  refresh(tick: number, observer: UnitVec): void;
  /** Brings the set back under `trackCap`; the ids that went (empty when none). */
  evict(tick: number): readonly number[];
  /** A consumer's copy of a track, in blocks. */
  view(track: Track, tick: number): TrackView;
  /** The threat-scored tracks as hazard sources (grid cells of `cellUnits`). */
  hazardSources(tick: number, cellUnits: number): HazardSource[];
}

/** Builds an empty TrackSet for a validated belief config. */
export function createTrackSet(config: BeliefConfig): TrackSet {
  const U = config.unitsPerBlock;
  const speed = Math.round(config.maxSpeedBlocksPerTick * U);
  const bucketU = Math.max(1, Math.round(config.distanceBucketBlocks * U));
  const marginU = Math.round(config.distanceHysteresisBlocks * U);
  const radiusU = Math.max(1, Math.round(config.threatRadiusBlocks * U));
  const clamp = (v: number): number => Math.max(-speed, Math.min(speed, v));
  const tracks = new Map<number, Track>();
  let nextId = 1;

  const unseen = (t: Track, tick: number): number => tick - t.lastSeenTick;
  // Per track per tick (association, derived fields): a tick count, never an allocated vector.
  const predictTicks = (t: Track, tick: number): number => Math.min(unseen(t, tick), config.maxPredictTicks);

  function updateClass(t: Track, cls: string): void {
    if (cls === 'unknown') return;
    if (t.bestClass === cls) t.classConfidence = Math.min(1000, t.classConfidence + config.classGain);
    else if (t.bestClass === 'unknown') {
      t.bestClass = cls;
      t.classConfidence = config.classGain;
    } else {
      t.classConfidence -= config.classGain;
      if (t.classConfidence <= 0) {
        t.bestClass = cls;
        t.classConfidence = config.classGain;
      }
    }
  }

  function refreshEffectiveClass(t: Track): void {
    if (t.classConfidence >= config.classKnownAtOrAbove) t.effectiveClass = t.bestClass;
    else if (t.classConfidence < config.classUnknownBelow || t.effectiveClass !== t.bestClass) t.effectiveClass = 'unknown';
  }

  function refreshDerived(t: Track, tick: number, observer: UnitVec): void {
    const age = unseen(t, tick);
    t.visibility = age === 0 ? 'visible' : age < config.lostAfterTicks ? 'inferred' : 'lost';
    const k = predictTicks(t, tick);
    const dx = t.x + t.vx * k - observer.x, dy = t.y + t.vy * k - observer.y, dz = t.z + t.vz * k - observer.z;
    t.distanceUnits = Math.round(Math.sqrt(dx * dx + dy * dy + dz * dz));
    const plain = Math.floor(t.distanceUnits / bucketU);
    const warm = tick - t.createdTick < config.warmupTicks;
    // after warmup a bucket changes only once the distance passes the edge by the hysteresis margin
    if (warm || t.distanceUnits >= (t.distanceBucket + 1) * bucketU + marginU || t.distanceUnits < t.distanceBucket * bucketU - marginU) {
      t.distanceBucket = plain;
    }
    const proximity = Math.trunc((Math.max(0, radiusU - t.distanceUnits) * 1000) / radiusU);
    t.threatScore = t.hostile && t.visibility !== 'lost' ? Math.trunc((proximity * t.confidence) / 1000) : 0;
    if (!t.threat && t.threatScore >= config.threatOn) t.threat = true;
    else if (t.threat && t.threatScore <= config.threatOff) t.threat = false;
  }

  function evictionPriority(t: Track, tick: number): number {
    const recency = config.forgetAfterTicks - Math.min(unseen(t, tick), config.forgetAfterTicks) + 1;
    return (t.threatScore + 1) * recency;
  }

  return {
    tracks,
    get nextId() {
      return nextId;
    },
    predictTicks,
    update(t, e, tick) {
      const dt = Math.max(1, tick - t.prevSeenTick);
      t.vx = clamp(Math.trunc((t.vx + Math.trunc((e.x - t.x) / dt)) / 2));
      t.vy = clamp(Math.trunc((t.vy + Math.trunc((e.y - t.y) / dt)) / 2));
      t.vz = clamp(Math.trunc((t.vz + Math.trunc((e.z - t.z) / dt)) / 2));
      t.x = e.x;
      t.y = e.y;
      t.z = e.z;
      t.hostile = e.hostile;
      if (e.hint !== undefined) t.hint = e.hint;
      updateClass(t, e.cls);
      t.confidence = 1000;
    },
    ageUnseen(tick, elapsed) {
      for (const t of tracks.values()) {
        if (t.lastSeenTick === tick) continue;
        if (unseen(t, tick) >= config.forgetAfterTicks) {
          tracks.delete(t.id);
          continue;
        }
        t.confidence = Math.max(0, t.confidence - config.confidenceDecayPerTick * elapsed);
        t.classConfidence = Math.max(0, t.classConfidence - config.classDecayPerTick * elapsed);
      }
    },
    create(e, tick) {
      const known = e.cls !== 'unknown';
      const t: Track = {
        id: nextId,
        bestClass: e.cls,
        classConfidence: known ? config.classKnownAtOrAbove : 0,
        effectiveClass: e.cls,
        hostile: e.hostile,
        hint: e.hint,
        x: e.x,
        y: e.y,
        z: e.z,
        vx: 0,
        vy: 0,
        vz: 0,
        createdTick: tick,
        lastSeenTick: tick,
        prevSeenTick: tick,
        confidence: 1000,
        distanceUnits: 0,
        distanceBucket: 0,
        threatScore: 0,
        threat: false,
        visibility: 'visible',
      };
      nextId += 1;
      tracks.set(t.id, t);
      return t.id;
    },
    refresh(tick, observer) {
      for (const t of tracks.values()) {
        refreshEffectiveClass(t);
        refreshDerived(t, tick, observer);
      }
    },
    evict(tick) {
      if (tracks.size <= config.trackCap) return [];
      // lowest threat × recency first; among equals the newest track goes, so established tracks stay
      const order = [...tracks.values()].sort(
        (a, b) => evictionPriority(a, tick) - evictionPriority(b, tick) || b.createdTick - a.createdTick || b.id - a.id,
      );
      const gone: number[] = [];
      for (let i = 0; tracks.size > config.trackCap; i += 1) {
        const victim = order[i]!;
        tracks.delete(victim.id);
        gone.push(victim.id);
      }
      return gone;
    },
    view(t, tick) {
      const k = predictTicks(t, tick);
      return {
        trackId: t.id,
        cls: t.effectiveClass,
        bestClass: t.bestClass,
        classConfidence: t.classConfidence,
        hostile: t.hostile,
        hint: t.hint,
        position: { x: t.x / U, y: t.y / U, z: t.z / U },
        predicted: { x: (t.x + t.vx * k) / U, y: (t.y + t.vy * k) / U, z: (t.z + t.vz * k) / U },
        velocity: { x: t.vx / U, y: t.vy / U, z: t.vz / U },
        visibility: t.visibility,
        confidence: t.confidence,
        createdTick: t.createdTick,
        lastSeenTick: t.lastSeenTick,
        distance: t.distanceUnits / U,
        distanceBucket: t.distanceBucket,
        threatScore: t.threatScore,
        threat: t.threat,
      };
    },
    hazardSources(tick, cellUnits) {
      const sources: HazardSource[] = [];
      for (const t of tracks.values()) {
        if (t.threatScore <= 0) continue;
        const k = predictTicks(t, tick);
        sources.push({ cx: Math.floor((t.x + t.vx * k) / cellUnits), cy: Math.floor((t.y + t.vy * k) / cellUnits), cz: Math.floor((t.z + t.vz * k) / cellUnits), score: t.threatScore });
      }
      return sources;
    },
  };
}
