import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createBeliefMetrics } from '@sinew/belief/mineflayer';
import { createExecutor, createHtnMetrics, createRouterMetrics, instrumentMethods } from '@sinew/bt-runtime';
import { CapabilityRegistry } from '@sinew/executor-contracts';
import { OutcomeMemory } from '@sinew/planners';
import { beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import { serveSinew } from '../src/index.js';

// The dashboards ship in this package (`files`: dashboards, `exports`: ./dashboards/*): resolved the way a user's
// require.resolve('@sinew/server/dashboards/…') finds them.
const resolveShipped = (file: string) => createRequire(import.meta.url).resolve(`@sinew/server/dashboards/${file}`);

interface Panel {
  readonly title: string;
  readonly type: string;
  readonly collapsed?: boolean;
  readonly panels?: readonly Panel[];
  readonly targets?: readonly { readonly expr: string }[];
}

/** Every panel with the row it sits in: a collapsed row holds its panels, an open row is followed by them. */
async function panelsByRow(): Promise<{ row: Panel | undefined; panel: Panel }[]> {
  const dashboard = JSON.parse(await readFile(resolveShipped('grafana-dashboard.json'), 'utf8')) as { panels: Panel[] };
  let open: Panel | undefined;
  return dashboard.panels.flatMap((panel) => {
    if (panel.type !== 'row') return [{ row: open, panel }];
    open = panel.collapsed ? open : panel;
    return (panel.panels ?? []).map((child) => ({ row: panel, panel: child }));
  });
}

async function expressions(): Promise<{ panel: string; expr: string }[]> {
  return (await panelsByRow()).flatMap(({ panel }) => (panel.targets ?? []).map(({ expr }) => ({ panel: panel.title, expr })));
}

const HISTOGRAM_SUFFIX = /_(bucket|sum|count)$/;

const newExecutor = () => createExecutor({ registry: new CapabilityRegistry(), body: instrumentMethods({ chat() {} }, ['chat']) });

describe('the dashboards @sinew/server ships', () => {
  // Everything /metrics serves: the executor's metrics, the belief adapter's, the router's and the server's own.
  const executor = newExecutor();
  const metrics = executor.metrics;
  createBeliefMetrics(metrics.registry);
  createRouterMetrics(metrics.registry);
  createHtnMetrics(metrics.registry, { memory: new OutcomeMemory() });
  // What a bot with nothing but an executor and serveSinew reports.
  const bare = newExecutor();
  beforeAll(async () => {
    await (await serveSinew({ executor, port: 0, host: '127.0.0.1' })).close();
    await (await serveSinew({ executor: bare, port: 0, host: '127.0.0.1' })).close();
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
      // Target labels Prometheus adds (job, instance) and the scrape config's `body` and `bot`: the template variables.
      const labels = new Set<string>(['job', 'instance', 'body', 'bot']);
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

  it('filters every sinew_* query by the job / instance / body / bot template variables (a fleet: one bot or all)', async () => {
    const dashboard = JSON.parse(await readFile(resolveShipped('grafana-dashboard.json'), 'utf8')) as { templating: { list: { name: string }[] } };
    expect(dashboard.templating.list.map((v) => v.name)).toEqual(['job', 'instance', 'body', 'bot']);
    const unfiltered = (await expressions()).filter(({ expr }) => [...expr.matchAll(/\bsinew_[a-z_]+(\{[^}]*\})?/g)].some((m) => !m[1]?.includes('job=~"$job", instance=~"$instance", body=~"$body", bot=~"$bot"')));
    expect(unfiltered).toEqual([]);
  });

  it('shows a bare executor in open rows, and puts planner and belief panels in collapsed rows named after their package', async () => {
    const core = (name: string) => name === 'up' || bare.metrics.registry.getSingleMetric(name.replace(HISTOGRAM_SUFFIX, '')) !== undefined;
    const misplaced: string[] = [];
    const rows = new Map<string, string[]>();
    for (const { row, panel } of await panelsByRow()) {
      const names = (panel.targets ?? []).flatMap(({ expr }) => expr.match(/\b(sinew_[a-z_]+|up)\b/g) ?? []);
      const optional = names.filter((name) => !core(name));
      rows.set(row?.title ?? '(none)', [...(rows.get(row?.title ?? '(none)') ?? []), panel.title]);
      if (!row?.collapsed && optional.length) misplaced.push(`${panel.title}: ${optional.join(', ')} outside a collapsed row`);
      if (row?.collapsed && !optional.length) misplaced.push(`${panel.title}: only executor metrics, in collapsed row ${row.title}`);
    }
    expect(misplaced).toEqual([]);
    const collapsed = [...rows.keys()].filter((title) => /only with/.test(title));
    expect(collapsed.map((title) => title.match(/@sinew\/[a-z]+/)?.[0])).toEqual(['@sinew/planners', '@sinew/belief']);
    expect(rows.get('(none)')).toBeUndefined();
  });

  it('ships in the package: `files` has dashboards/, `exports` maps ./dashboards/*', () => {
    expect(packageJson.files).toContain('dashboards');
    expect(packageJson.exports['./dashboards/*']).toBe('./dashboards/*');
    for (const file of ['prometheus.yml', 'sinew.rules.yml', 'README.md']) expect(resolveShipped(file)).toMatch(/packages\/server\/dashboards\//);
  });

  it('ships fleet configs promtool accepts: one machine scraping its bots by `bot` label, a global Prometheus federating the machines', () => {
    for (const file of ['prometheus.yml', 'prometheus-fleet.yml', 'prometheus-federation.yml']) {
      const checked = spawnSync('promtool', ['check', 'config', resolveShipped(file)], { encoding: 'utf8' });
      expect({ file, status: checked.status, out: checked.stdout + checked.stderr }).toMatchObject({ file, status: 0, out: expect.stringContaining('SUCCESS') });
    }
    const machine = readFileSync(resolveShipped('prometheus-fleet.yml'), 'utf8');
    expect(machine.match(/bot: [a-z]+/g)).toEqual(['bot: ash', 'bot: birch', 'bot: cedar']);
    const global = readFileSync(resolveShipped('prometheus-federation.yml'), 'utf8');
    expect(global).toContain('metrics_path: /federate');
    expect(global).toContain('honor_labels: true');
    expect(global).toContain(`'{job="sinew", __name__=~"sinew_.+"}'`);
  });

  it('scrapes the port of the serveSinew recipe in its README', async () => {
    const config = await readFile(resolveShipped('prometheus.yml'), 'utf8');
    const readme = await readFile(resolveShipped('README.md'), 'utf8');
    expect(config).toContain('metrics_path: /metrics');
    expect(readme).toContain('serveSinew({ executor, port: 9464 })');
    expect(config).toContain(`targets: ['127.0.0.1:9464']`);
  });
});
