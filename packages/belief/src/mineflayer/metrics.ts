import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { DeltaTypeSchema } from '../stream/schemas.js';

export interface BeliefMetrics {
  readonly tracks: Gauge<'visibility'>;
  readonly deltas: Counter<'type'>;
  readonly ingestSeconds: Histogram<string>;
}

function reuse<T>(registry: Registry, name: string, make: () => T): T {
  // a second adapter on the same registry shares the metric instead of failing on re-registration
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

/** Registers (or reuses) the belief metrics in the given registry, every series at 0 so a first delta is visible to rate(). */
export function beliefMetrics(registry: Registry): BeliefMetrics {
  const metrics = build(registry);
  for (const visibility of ['visible', 'inferred', 'lost']) metrics.tracks.inc({ visibility }, 0); // +0: a second adapter keeps the first one's value
  for (const type of DeltaTypeSchema.options) metrics.deltas.inc({ type }, 0);
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
  };
}
