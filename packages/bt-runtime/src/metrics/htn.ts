import { Gauge, type Registry } from 'prom-client';
import { labelValue } from './metrics.js';

/** What these metrics read (structurally: `@sinew/planners`' OutcomeMemory, without importing planners). */
export interface UpliftSource {
  /** Each task's method-effectiveness uplift (first and last success rate). */
  uplift(): readonly { readonly task: string; readonly first: number; readonly last: number; readonly uplift: number }[];
}

/** HTN method-effectiveness memory as metrics, read from the memory at each scrape. */
export interface HtnMetrics {
  /** Success rate over a task's last N method outcomes minus over its first N. Labels: task. */
  readonly uplift: Gauge<'task'>;
  /** Success rate over a task's first or last N method outcomes. Labels: task, window (`first` | `last`). */
  readonly successRatio: Gauge<'task' | 'window'>;
}

/**
 * Registers (or reuses) `sinew_htn_method_uplift` and `sinew_htn_method_success_ratio` in `registry`;
 * the listed `tasks` (and each task the memory reports, up to 16, then `other`) are at 0 from the start.
 *
 * @example
 * createHtnMetrics(executor.metrics.registry, { memory, tasks: ['obtain', 'need_wood'] });
 */
export function createHtnMetrics(registry: Registry, options: { readonly memory: UpliftSource; readonly tasks?: readonly string[] }): HtnMetrics {
  const names = new Set<string>();
  const gauge = <L extends string>(name: string, help: string, labelNames: L[], collect: () => void) =>
    (registry.getSingleMetric(name) as Gauge<L> | undefined) ?? new Gauge({ name, help, labelNames, registers: [registry], collect });
  // Read at scrape time (by either gauge) so the figures are never staler than the memory.
  const collect = () => {
    for (const entry of options.memory.uplift()) set(entry.task, entry.first, entry.last);
  };
  const uplift = gauge('sinew_htn_method_uplift', 'HTN method success rate over the last N outcomes of a task minus over the first N', ['task'], collect);
  const successRatio = gauge('sinew_htn_method_success_ratio', 'HTN method success rate over the first/last N outcomes of a task', ['task', 'window'], collect);
  const set = (name: string, first: number, last: number) => {
    // The memory's own overflow bucket does not take one of the 16 task labels.
    const task = name === 'other' ? name : labelValue(name, names, 16);
    successRatio.set({ task, window: 'first' }, first);
    successRatio.set({ task, window: 'last' }, last);
    uplift.set({ task }, last - first);
  };
  for (const task of options.tasks ?? []) set(task, 0, 0);
  return { uplift, successRatio };
}
