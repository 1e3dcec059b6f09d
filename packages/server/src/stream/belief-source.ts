import type { BeliefSource } from '../http/routes.js';
import type { EventHub } from './hub.js';

/** Tracks a `beliefEvent` carries at most (nearest first, as the inspector lists them). */
const MAX_TRACKS = 32;

/**
 * Samples the belief layer every `intervalMs` and publishes `beliefEvent` ({ tracks, hazards }, the shape of
 * `GET /api/belief`) when it changed: a recording then carries the belief tracks a replay shows.
 */
export function sampleBelief(belief: BeliefSource, hub: EventHub, intervalMs: number): () => void {
  let last = '';
  const timer = setInterval(() => {
    const tracks = [...belief.tracks()].sort((a, b) => distanceOf(a) - distanceOf(b)).slice(0, MAX_TRACKS);
    const snapshot = { tracks, hazards: belief.hazards() ?? null };
    const text = JSON.stringify(snapshot);
    if (text === last) return;
    last = text;
    hub.publish('beliefEvent', snapshot);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

function distanceOf(track: object): number {
  const distance = (track as { distance?: unknown }).distance;
  return typeof distance === 'number' ? distance : Number.POSITIVE_INFINITY;
}
