import type { Registry } from 'prom-client';

/** Sum of a metric's samples whose labels include `labels` (histograms: pass `name_count` / `name_sum`). */
export async function metric(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number> {
  const base = name.replace(/_(count|sum|bucket)$/, '');
  const found = registry.getSingleMetric(base) ?? registry.getSingleMetric(name);
  if (!found) throw new Error(`metric ${name} is not registered`);
  const { values } = await found.get();
  return (values as { value: number; labels: object; metricName?: string }[])
    .filter((v) => (base === name ? v.metricName === undefined || v.metricName === name : v.metricName === name))
    .filter((v) => Object.entries(labels).every(([k, want]) => String((v.labels as Record<string, unknown>)[k]) === want))
    .reduce((sum, v) => sum + v.value, 0);
}
