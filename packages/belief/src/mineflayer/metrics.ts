import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { EMERGENCY_MODES, EMERGENCY_RESULTS } from '../modes/recall.js';
import { DeltaTypeSchema } from '../stream/schemas.js';

/** The belief layer's Prometheus metrics. */
export interface BeliefMetrics {
  readonly tracks: Gauge<'visibility'>;
  readonly deltas: Counter<'type'>;
  readonly ingestSeconds: Histogram<string>;
  /** Emergencies by mode and how they ended (hazard recall; see `createEmergencyTracker`). */
  readonly hazardEmergencies: Counter<'mode' | 'result'>;
}

function reuse<T>(registry: Registry, name: string, make: () => T): T {
  // a second adapter on the same registry shares the metric instead of failing on re-registration
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

/** Registers (or reuses) the belief metrics in the given registry, every series at 0 so a first delta is visible to rate(). */
export function createBeliefMetrics(registry: Registry): BeliefMetrics {
  const metrics = build(registry);
  for (const visibility of ['visible', 'inferred', 'lost']) metrics.tracks.inc({ visibility }, 0); // +0: a second adapter keeps the first one's value
  for (const type of DeltaTypeSchema.options) metrics.deltas.inc({ type }, 0);
  for (const mode of EMERGENCY_MODES) for (const result of EMERGENCY_RESULTS) metrics.hazardEmergencies.inc({ mode, result }, 0);
  return metrics;
}

function build(registry: Registry): BeliefMetrics {
  return {
    tracks: reuse(
      registry,
      'sinew_belief_tracks',
      () => new Gauge({ name: 'sinew_belief_tracks', help: 'Tracks in the TrackSet by visibility', labelNames: ['visibility'], registers: [registry] }),
    ),
    deltas: reuse(
      registry,
      'sinew_belief_deltas_total',
      () => new Counter({ name: 'sinew_belief_deltas_total', help: 'Saliency deltas emitted, by type', labelNames: ['type'], registers: [registry] }),
    ),
    ingestSeconds: reuse(
      registry,
      'sinew_belief_ingest_seconds',
      () =>
        new Histogram({
          name: 'sinew_belief_ingest_seconds',
          help: 'Time to build evidence and ingest one tick',
          buckets: [0.00005, 0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.05],
          registers: [registry],
        }),
    ),
    hazardEmergencies: reuse(
      registry,
      'sinew_hazard_emergencies_total',
      () =>
        new Counter({
          name: 'sinew_hazard_emergencies_total',
          help: 'Emergencies (a self-preservation or defense onset) by mode and result: preempted_before_damage, damaged_first, no_damage',
          labelNames: ['mode', 'result'],
          registers: [registry],
        }),
    ),
  };
}
