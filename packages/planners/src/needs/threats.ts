import type { Vec3 } from '@sinew/executor-contracts';
import type { Threat, PlannerWorld } from '../contract.js';

/** What the belief layer says about one tracked entity (a `@sinew/belief` TrackView fits). */
export interface BeliefThreatView {
  readonly cls: string;
  readonly hostile: boolean;
  readonly visibility: 'visible' | 'inferred' | 'lost';
  readonly predicted: Vec3;
  readonly distance: number;
}

/** The planners' threats from the belief layer's tracks: hostile and not lost, within `maxDistance`, nearest first. */
export function threatsFromBelief(tracks: readonly BeliefThreatView[], maxDistance = 32): Threat[] {
  return tracks
    .filter((t) => t.hostile && t.visibility !== 'lost' && t.distance <= maxDistance)
    .map((t) => ({ entity: t.cls, position: { ...t.predicted }, distance: t.distance }))
    .sort((a, b) => a.distance - b.distance || a.entity.localeCompare(b.entity));
}

/** The snapshot with `threats` filled from the belief layer (replacing any it had). */
export function withBeliefThreats<W extends PlannerWorld>(world: W, tracks: readonly BeliefThreatView[], maxDistance?: number): W {
  return { ...world, threats: threatsFromBelief(tracks, maxDistance) };
}
