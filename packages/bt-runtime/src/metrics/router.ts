import { Counter, type Registry } from 'prom-client';
import { labelValue } from './metrics.js';

/** The router events these metrics read (structurally: `@sinew/planners`' RouteEvent, without importing planners). */
export type RouteEventLike =
  | { readonly type: 'route'; readonly chosen: string | undefined; readonly memoryOverride: boolean; readonly candidates: readonly { readonly planner: string }[] }
  | { readonly type: 'fallback'; readonly from: string }
  | { readonly type: 'planned' | 'outcome' };

/** Router decisions as metrics; pass `record` as (or call it from) the router's `onEvent`. */
export interface RouterMetrics {
  /** Routing decisions. Labels: chosen (planner name, `none` when no rule matched). */
  readonly routes: Counter<'chosen'>;
  /** Decisions where the recorded success (memory) overrode the order the rules alone gave. Labels: chosen. */
  readonly disagreements: Counter<'chosen'>;
  /** Planners that failed to plan and handed over to the next. Labels: from. */
  readonly fallbacks: Counter<'from'>;
  /** Counts one router event in the metrics. */
  record(event: RouteEventLike): void;
}

/**
 * Registers (or reuses) `sinew_router_routes_total`, `sinew_router_disagreements_total` and
 * `sinew_router_fallbacks_total` in `registry` (the executor's, so they reach `/metrics`).
 *
 * @example
 * const routing = createRouterMetrics(executor.metrics.registry, { planners: ['htn', 'needs'] });
 * const router = createRouter({ planners, rules, onEvent: routing.record });
 */
export function createRouterMetrics(registry: Registry, options: { readonly planners?: readonly string[] } = {}): RouterMetrics {
  const counter = <L extends string>(name: string, help: string, label: L) =>
    (registry.getSingleMetric(name) as Counter<L> | undefined) ?? new Counter({ name, help, labelNames: [label], registers: [registry] });
  const routes = counter('sinew_router_routes_total', 'Routing decisions, by chosen planner', 'chosen');
  const disagreements = counter('sinew_router_disagreements_total', 'Routing decisions where memory overrode the rules, by chosen planner', 'chosen');
  const fallbacks = counter('sinew_router_fallbacks_total', 'Planners that failed to plan and fell back to the next', 'from');
  const names = new Set<string>();
  const planner = (name: string | undefined) => (name === undefined ? 'none' : labelValue(name, names, 16));
  // Every series at 0 before the first decision (a planner first seen in a decision is primed then).
  const prime = (label: string) => {
    for (const c of [routes, disagreements]) c.inc({ chosen: label }, 0);
    fallbacks.inc({ from: label }, 0);
  };
  for (const name of ['none', ...(options.planners ?? [])]) prime(planner(name === 'none' ? undefined : name));
  return {
    routes,
    disagreements,
    fallbacks,
    record(event) {
      if (event.type === 'route') {
        for (const { planner: name } of event.candidates) prime(planner(name));
        routes.inc({ chosen: planner(event.chosen) });
        if (event.memoryOverride) disagreements.inc({ chosen: planner(event.chosen) });
      } else if (event.type === 'fallback') fallbacks.inc({ from: planner(event.from) });
    },
  };
}
