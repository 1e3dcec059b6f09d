import { readFile } from 'node:fs/promises';
import { createBeliefMetrics } from '@sinew/belief/mineflayer';
import { createExecutor, createHtnMetrics, createRouterMetrics, instrumentMethods } from '@sinew/bt-runtime';
import { CapabilityRegistry } from '@sinew/executor-contracts';
import { OutcomeMemory } from '@sinew/planners';
import { serveSinew } from '@sinew/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { FlagsSchema } from '../src/flags.js';

// The dashboards live beside the demo they scrape: examples/dashboards.
const dashboardUrl = new URL('../../dashboards/grafana-dashboard.json', import.meta.url);
const prometheusUrl = new URL('../../dashboards/prometheus.yml', import.meta.url);

interface Panel {
  readonly title: string;
  readonly targets?: readonly { readonly expr: string }[];
}

async function expressions(): Promise<{ panel: string; expr: string }[]> {
  const dashboard = JSON.parse(await readFile(dashboardUrl, 'utf8')) as { panels: Panel[] };
  return dashboard.panels.flatMap((panel) => (panel.targets ?? []).map(({ expr }) => ({ panel: panel.title, expr })));
}

const HISTOGRAM_SUFFIX = /_(bucket|sum|count)$/;

describe('examples/dashboards', () => {
  // Everything /metrics serves: the executor's metrics, the belief adapter's, the router's and the server's own.
  const executor = createExecutor({ registry: new CapabilityRegistry(), body: instrumentMethods({ chat() {} }, ['chat']) });
  const metrics = executor.metrics;
  createBeliefMetrics(metrics.registry);
  createRouterMetrics(metrics.registry);
  createHtnMetrics(metrics.registry, { memory: new OutcomeMemory() });
  beforeAll(async () => {
    await (await serveSinew({ executor, port: 0, host: '127.0.0.1' })).close();
  });
  const registered = (name: string) =>
    metrics.registry.getSingleMetric(name) ?? metrics.registry.getSingleMetric(name.replace(HISTOGRAM_SUFFIX, ''));

  it('queries only metrics that exist in the bt-runtime metrics registry', async () => {
    const queried = new Set((await expressions()).flatMap(({ expr }) => expr.match(/\bsinew_[a-z_]+/g) ?? []));
    expect(queried.size).toBeGreaterThan(8);
    const missing = [...queried].filter((name) => !registered(name));
    expect(missing).toEqual([]);
  });

  it('groups and filters only by labels those metrics have', async () => {
    const problems: string[] = [];
    for (const { panel, expr } of await expressions()) {
      const names = expr.match(/\bsinew_[a-z_]+/g) ?? [];
      // Target labels Prometheus adds (job, instance) and the scrape config's `body`: the template variables.
      const labels = new Set<string>(['job', 'instance', 'body']);
      for (const name of names) {
        const metric = registered(name) as unknown as { labelNames?: string[] } | undefined;
        for (const label of metric?.labelNames ?? []) labels.add(label);
        if (HISTOGRAM_SUFFIX.test(name)) labels.add('le');
      }
      const used = [
        ...[...expr.matchAll(/by \(([^)]*)\)/g)].flatMap((m) => m[1]!.split(',').map((s) => s.trim())),
        ...[...expr.matchAll(/\{([^}]*)\}/g)].flatMap((m) => [...m[1]!.matchAll(/([a-z_]+)\s*(=|!=|=~|!~)/g)].map((l) => l[1]!)),
      ];
      for (const label of used) if (!labels.has(label)) problems.push(`${panel}: label "${label}" not on ${names.join(', ')}`);
    }
    expect(problems).toEqual([]);
  });

  it('covers TTFA p50/p95, outcomes by capability, stuck, retries and preemptions', async () => {
    const all = (await expressions()).map(({ expr }) => expr).join('\n');
    expect(all).toContain('histogram_quantile(0.5, sum by (le, capability) (rate(sinew_step_ttfa_seconds_bucket');
    expect(all).toContain('histogram_quantile(0.95, sum by (le, capability) (rate(sinew_step_ttfa_seconds_bucket');
    expect(all).toContain('sum by (capability, outcome) (increase(sinew_steps_total');
    for (const name of ['sinew_step_stuck_total', 'sinew_step_retries_total', 'sinew_preemptions_total']) expect(all).toContain(name);
  });

  it('filters every sinew_* query by the job / instance / body template variables', async () => {
    const dashboard = JSON.parse(await readFile(dashboardUrl, 'utf8')) as { templating: { list: { name: string }[] } };
    expect(dashboard.templating.list.map((v) => v.name)).toEqual(['job', 'instance', 'body']);
    const unfiltered = (await expressions()).filter(({ expr }) => [...expr.matchAll(/\bsinew_[a-z_]+(\{[^}]*\})?/g)].some((m) => !m[1]?.includes('job=~"$job", instance=~"$instance", body=~"$body"')));
    expect(unfiltered).toEqual([]);
  });

  it('scrapes the port the demo serves on by default', async () => {
    const config = await readFile(prometheusUrl, 'utf8');
    expect(config).toContain('metrics_path: /metrics');
    expect(config).toContain(`127.0.0.1:${FlagsSchema.parse({}).port}`);
  });
});
