import type { Vec3 } from '@sinew/executor-contracts';
import type { TrackSummary } from '../stream/schemas.js';

/** Whether a track is seen now, inferred from its last sighting, or lost. */
export type Visibility = 'visible' | 'inferred' | 'lost';

/** Internal mutable track state; every field is an integer (units, permille, ticks) or a string. */
export interface Track {
  readonly id: number;
  /** Best class hypothesis (what the evidence mostly said). */
  bestClass: string;
  /** Confidence in `bestClass`, permille. */
  classConfidence: number;
  /** What consumers are told: `bestClass` once confident enough, else `unknown` (with hysteresis). */
  effectiveClass: string;
  hostile: boolean;
  hint: string | undefined;
  x: number;
  y: number;
  z: number;
  vx: number;
  vy: number;
  vz: number;
  readonly createdTick: number;
  lastSeenTick: number;
  /** lastSeenTick before the current tick's association (velocity needs the gap). */
  prevSeenTick: number;
  /** Existence confidence, permille. */
  confidence: number;
  /** Distance to the observer in config units. */
  distanceUnits: number;
  distanceBucket: number;
  threatScore: number;
  threat: boolean;
  visibility: Visibility;
}

/** What consumers (the reflex, tools) may read of a track: a copy, positions in blocks. */
export interface TrackView {
  readonly trackId: number;
  /** Effective class: `unknown` while class confidence is low. */
  readonly cls: string;
  /** Best class hypothesis, even when its confidence is too low to report. */
  readonly bestClass: string;
  /** Class confidence, permille. */
  readonly classConfidence: number;
  readonly hostile: boolean;
  /** The engine's id of the entity last associated (evidence `hint`): what a fight aims at; never the track's key. */
  readonly hint: string | undefined;
  /** Last measured position (blocks). */
  readonly position: Vec3;
  /** Position extrapolated to the current tick (blocks). */
  readonly predicted: Vec3;
  /** Blocks per tick. */
  readonly velocity: Vec3;
  readonly visibility: Visibility;
  /** Existence confidence, permille; falls while unseen. */
  readonly confidence: number;
  readonly createdTick: number;
  readonly lastSeenTick: number;
  /** Distance to the observer (blocks, from integer units). */
  readonly distance: number;
  readonly distanceBucket: number;
  /** 0..1000: hostility × proximity × confidence. */
  readonly threatScore: number;
  /** Hysteretic threat flag (threatOn / threatOff). */
  readonly threat: boolean;
}

export function summarize(track: Track): TrackSummary {
  return {
    trackId: track.id,
    cls: track.effectiveClass,
    hostile: track.hostile,
    threat: track.threat,
    distanceBucket: track.distanceBucket,
  };
}
