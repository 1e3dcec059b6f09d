import { Counter, Gauge, type Registry } from 'prom-client';

/** The server's own metrics, on the executor's registry (reused when a second server shares it). */
export interface ServerMetrics {
  readonly dropped: Counter;
  readonly clients: Gauge;
}

/** Builds (or finds) `sinew_server_stream_dropped_events_total` and `sinew_server_stream_clients`. */
export function serverMetrics(registry: Registry): ServerMetrics {
  const dropped =
    (registry.getSingleMetric('sinew_server_stream_dropped_events_total') as Counter | undefined) ??
    new Counter({ name: 'sinew_server_stream_dropped_events_total', help: 'Events dropped from slow WebSocket clients’ queues', registers: [registry] });
  const clients =
    (registry.getSingleMetric('sinew_server_stream_clients') as Gauge | undefined) ??
    new Gauge({ name: 'sinew_server_stream_clients', help: 'Connected /api/events clients', registers: [registry] });
  return { dropped, clients };
}
