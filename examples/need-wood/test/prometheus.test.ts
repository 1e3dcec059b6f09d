import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { attachBelief, type BeliefAdapter } from '@sinew/belief/mineflayer';
import { createExecutor, createHtnMetrics, createMemoryProvenance, createRouterMetrics, type Executor, type PlanOutcome } from '@sinew/bt-runtime';
import { chat as chatCapability, createStandardRegistry, instrumentBot, type SinewBot } from '@sinew/capabilities';
import { type RepairHook, type StepOutcome } from '@sinew/executor-contracts';
import { OutcomeMemory } from '@sinew/planners';
import { serveSinew, type SinewServer } from '@sinew/server';
import { connectBot, give, startServer, type TestServer } from '@sinew/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A real Prometheus (Debian's package) scrapes a run of a compact need-wood story; every dashboard panel's
// PromQL is evaluated through its HTTP API and compared with what the run itself reports (its PlanOutcome).
const PROMETHEUS = '/usr/bin/prometheus';
const PROMTOOL = '/usr/bin/promtool';
const present = existsSync(PROMETHEUS) && existsSync(PROMTOOL);
if (!present && process.env.CI) throw new Error(`${PROMETHEUS} is missing in CI: .ci/run installs Debian's prometheus package`);
if (!present) console.warn(`skipping the real-Prometheus dashboard test: ${PROMETHEUS} not installed (apt-get install -y prometheus)`);

// The dashboards as @sinew/server ships them (`@sinew/server/dashboards/*`).
const dashboards = dirname(createRequire(import.meta.url).resolve('@sinew/server/dashboards/grafana-dashboard.json'));
const TTFA_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 3, 5];
const STEP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120];

interface Sample {
  readonly metric: Record<string, string>;
  readonly value: number;
}
interface Row {
  readonly panel: string;
  readonly expr: string;
  readonly got: string;
  readonly want: string;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Prometheus's histogram_quantile over the run's own observations (le-inclusive buckets, linear inside one). */
function quantile(q: number, bounds: readonly number[], values: readonly number[]): number {
  const counts = [...bounds, Number.POSITIVE_INFINITY].map((le) => values.filter((v) => v <= le).length);
  const rank = q * counts.at(-1)!;
  const b = counts.findIndex((c) => c >= rank);
  if (b === bounds.length) return bounds.at(-1)!;
  const start = b === 0 ? 0 : bounds[b - 1]!;
  const below = b === 0 ? 0 : counts[b - 1]!;
  return start + (bounds[b]! - start) * ((rank - below) / (counts[b]! - below));
}

/** The story: one failed step (precond_missing), one repair, one idempotent duplicate, one completed plan. */
async function story(bot: SinewBot, executor: Executor<SinewBot>): Promise<PlanOutcome> {
  await give(bot, 'oak_log', 1);
  return executor.run({
    planId: 'need-sticks',
    intentId: 'need-wood',
    steps: [
      { stepId: 's1', type: 'craft_item', args: { item: 'stick', count: 4 } },
      { stepId: 's2', type: 'chat', args: { message: 'sticks ready' }, idempotencyKey: 'announce' },
      { stepId: 's3', type: 'chat', args: { message: 'sticks ready' }, idempotencyKey: 'announce' },
    ],
  });
}

/** The repair a planner would give: planks from the log when the sticks' planks are missing. */
const plankRepair: RepairHook = {
  repair: ({ failure }) =>
    failure.missing?.some((m) => m.startsWith('has_item:oak_planks')) ? { reason: 'planks from the log', steps: [{ stepId: 'r1', type: 'craft_item', args: { item: 'oak_planks', count: 4 } }] } : undefined,
};

describe.skipIf(!present)('the dashboard on a real Prometheus', () => {
  let scratch: string;
  let server: TestServer;
  let bot: SinewBot;
  let executor: Executor<SinewBot>;
  let belief: BeliefAdapter;
  let telemetry: SinewServer;
  let prometheus: ChildProcess | undefined;
  let promUrl: string;
  let prometheusLog = '';
  const provenance = createMemoryProvenance();

  const query = async (expr: string, time?: number): Promise<Sample[]> => {
    const params = new URLSearchParams({ query: expr, ...(time === undefined ? {} : { time: String(time) }) });
    const body = (await (await fetch(`${promUrl}/api/v1/query?${params}`)).json()) as { status: string; error?: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
    if (body.status !== 'success') throw new Error(`${expr}: ${body.error}`);
    return body.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
  };
  const until = async (expr: string, what: string): Promise<Sample[]> => {
    for (let i = 0; i < 160; i += 1) {
      // Refused until Prometheus listens (it starts in a second or two).
      const result = await query(expr).catch((error: Error) => (error.message.includes(expr) ? Promise.reject(error) : []));
      if (result.length > 0) return result;
      await sleep(250);
    }
    throw new Error(`Prometheus never saw ${what}\n${prometheusLog.slice(-2000)}`);
  };

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'sinew-prometheus-'));
    server = await startServer();
    bot = instrumentBot(await connectBot(server, { username: 'sinew' }));
    executor = createExecutor({ registry: createStandardRegistry(), body: bot, repair: plankRepair, provenance, policy: { maxLocalRetries: 0 } });
    belief = attachBelief(bot, { executor });
    // A canary of chat under trial: its decision series exist at 0 (the story's one chat runs on the stable version).
    executor.registry.registerCanary({ ...chatCapability, version: '1.1.0' }, { share: 0.01 });
    // The story plans by hand (no router, no HTN): their metrics are registered and stay at 0.
    createRouterMetrics(executor.metrics.registry, { planners: ['htn'] });
    createHtnMetrics(executor.metrics.registry, { memory: new OutcomeMemory(), tasks: ['obtain'] });
    belief.start();
    telemetry = await serveSinew({ executor, bot, port: 0, host: '127.0.0.1' });
    const port = await freePort();
    promUrl = `http://127.0.0.1:${port}`;
    const config = [
      'global: { scrape_interval: 1s, evaluation_interval: 1s }',
      `rule_files: ['${join(dashboards, 'sinew.rules.yml')}']`,
      'scrape_configs:',
      '  - job_name: sinew',
      `    static_configs: [{ targets: ['127.0.0.1:${telemetry.port}'], labels: { body: minecraft } }]`,
    ].join('\n');
    await writeFile(join(scratch, 'prometheus.yml'), config);
    prometheus = spawn(PROMETHEUS, [`--config.file=${join(scratch, 'prometheus.yml')}`, `--storage.tsdb.path=${join(scratch, 'data')}`, `--web.listen-address=127.0.0.1:${port}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    prometheus.stderr!.on('data', (chunk: Buffer) => (prometheusLog += chunk.toString()));
    prometheus.on('error', (error) => (prometheusLog += `\nspawn failed: ${error.message}`));
    // Two scrapes before the story: every series is already there at 0 when the first event happens.
    await until('count_over_time(up{job="sinew"}[1m]) >= 2 and up{job="sinew"} == 1', 'the bot being scraped');
  }, 60_000);

  afterAll(async () => {
    // Prometheus is stopped (and has let go of its data dir) before the scratch dir goes.
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
      prometheus.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
    }
    belief?.stop();
    await telemetry?.close();
    await executor?.close();
    bot?.quit();
    await server?.stop();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('promtool accepts the recording and alert rules', async () => {
    const out = await new Promise<string>((resolve, reject) =>
      execFile(PROMTOOL, ['check', 'rules', join(dashboards, 'sinew.rules.yml')], (error, stdout, stderr) => (error ? reject(new Error(`${stdout}${stderr}`)) : resolve(stdout))),
    );
    expect(out).toMatch(/SUCCESS: \d+ rules found/);
  });

  it('every panel returns what the run produced: success ratio, the repair, the plan, the failure by code', async () => {
    const outcome = await story(bot, executor);
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('completed');
    // The plan counter is bumped after every step is recorded: once Prometheus has it, it has the run.
    await until('sinew_plans_total{status="completed"} == 1', 'the completed plan');
    // Evaluated at that scrape's own timestamp: increase() then needs no extrapolation at either end.
    const at = (await query('timestamp(sinew_plans_total{status="completed"})'))[0]!.value;
    const windowSeconds = Math.ceil(at - (await query('min_over_time(timestamp(up{job="sinew"})[10m:1s])', at))[0]!.value) + 30;
    const window = `${windowSeconds}s`;
    // `bot` is the fleet's variable: at its default (All, `.*`) it also matches a single bot's series, which carry no bot label.
    const vars: Record<string, string> = { job: 'sinew', instance: `127.0.0.1:${telemetry.port}`, body: 'minecraft', bot: '.*', __range: window, __rate_interval: window };
    // Panels of collapsed rows sit inside the row (`panels`); the row itself has no targets.
    type Panel = { title: string; type: string; targets?: { refId: string; expr: string }[]; panels?: Panel[] };
    const dashboard = JSON.parse(await readFile(join(dashboards, 'grafana-dashboard.json'), 'utf8')) as { panels: Panel[] };
    const panels = dashboard.panels.flatMap((panel) => (panel.type === 'row' ? (panel.panels ?? []) : [panel]));
    const commands = provenance.records().flatMap((r) => r.trace.filter((t) => t.kind === 'command').map((t) => t.name));
    const want = expectations(outcome.steps, commands, windowSeconds);
    const rows: Row[] = [];
    for (const panel of panels) {
      for (const target of panel.targets ?? []) {
        const expr = target.expr.replace(/\$(\w+)/g, (_, name: string) => vars[name] ?? `$${name}`);
        const result = await query(expr, at);
        const expected = want.get(`${panel.title}#${target.refId}`);
        rows.push({ panel: panel.title, expr: target.expr, got: show(result), want: expected === undefined ? '(not derived)' : expected.length === 0 ? 'all 0' : show(expected) });
        if (expected !== undefined) expect({ panel: panel.title, got: canonical(result) }).toEqual({ panel: panel.title, got: canonical(expected) });
      }
    }
    console.log(rows.map((r) => `| ${r.panel} | \`${r.expr.replace(/\{job=~"\$job", instance=~"\$instance", body=~"\$body",? ?(bot=~"\$bot",? ?)?/g, '{')}\` | ${r.got} | ${r.want} |`).join('\n'));
    const empty = rows.filter((r) => r.got === '(empty)').map((r) => r.panel);
    // Only the by-reason preemption breakdown may be empty: a reason is free text, unknown until it happens.
    expect(empty).toEqual(['Preemptions and repairs']);
    // The recording rule agrees with the panel (Prometheus evaluated it on its own, 1 s cadence).
    // Evaluated two scrape intervals after the run's last scrape: an evaluation just after `at` can run before that
    // scrape's samples are committed (they carry the scrape's start time), and then reads the run without its end.
    await until(`timestamp(sinew:step_success_ratio:rate5m) > ${at + 2}`, 'the recording rule evaluated after the run');
    const [ratio] = await query('sinew:step_success_ratio:rate5m');
    expect(ratio!.value).toBeCloseTo(3 / 4, 9);
  }, 90_000);

  it('a misspelled argument is counted under the capability it was meant for, not under `unknown`', async () => {
    const outcome = await executor.run({ planId: 'typo', intentId: 'need-wood', steps: [{ stepId: 't1', type: 'craft_item', args: { item: 'stick', cuont: 4 } }] });
    expect(outcome.failure).toMatchObject({ code: 'invalid_args', reason: expect.stringContaining('cuont') });
    const [typo] = await until('sinew_steps_total{capability="craft_item",outcome="failed",code="invalid_args"} == 1', 'the refused craft_item step');
    expect(typo!.metric).toMatchObject({ capability: 'craft_item', version: outcome.steps[0]!.capability!.version });
    // The same scrape: nothing was ever counted under `unknown` (the series are primed at 0).
    const at = (await query('timestamp(sinew_steps_total{capability="craft_item",outcome="failed",code="invalid_args"})'))[0]!.value;
    const unknown = await query('sum(sinew_steps_total{capability="unknown"})', at);
    expect(unknown.map((s) => s.value)).toEqual([0]);
  }, 30_000);
});

/** What each panel must answer (its non-zero series), derived from the run's own outcomes and provenance, keyed by the dashboard expression. */
function expectations(steps: readonly StepOutcome[], commands: readonly string[], windowSeconds: number): Map<string, Sample[]> {
  const isDuplicate = (s: StepOutcome) => s.status === 'succeeded' && s.failure?.code === 'duplicate';
  const ran = steps.filter((s) => !isDuplicate(s));
  const outcomeOf = (s: StepOutcome) => (isDuplicate(s) ? 'duplicate' : s.status);
  const seconds = (s: StepOutcome) => Math.max(0, s.endedAt - s.startedAt) / 1000;
  const ttfa = (list: readonly StepOutcome[]) => list.flatMap((s) => (s.ttfaMs === undefined ? [] : [s.ttfaMs / 1000]));
  const name = (s: StepOutcome) => s.capability?.name ?? 'unknown';
  const m = new Map<string, Sample[]>();
  const set = (panel: string, samples: Sample[]) => m.set(panel, samples);
  set('Step success rate#A', [{ metric: {}, value: ran.filter((s) => s.status === 'succeeded').length / ran.length }]);
  set('Plans by status#A', [{ metric: { status: 'completed' }, value: 1 }]);
  set('Plan repairs#A', [{ metric: { reason: 'precond_missing', result: 'steps' }, value: 1 }]);
  set('Bot reporting#A', [{ metric: { __name__: 'up' }, value: 1 }]);
  set('Failures by code#A', count(ran.filter((s) => s.status !== 'succeeded'), (s) => ({ code: s.failure!.code })));
  set('TTFA p95#A', [{ metric: {}, value: quantile(0.95, TTFA_BUCKETS, ttfa(ran)) }]);
  set('Active steps#A', []);
  set('Step outcomes by capability#A', count(steps, (s) => ({ capability: name(s), outcome: outcomeOf(s) })));
  set('Steps by capability version#A', count(steps, (s) => ({ capability: name(s), version: s.capability?.version ?? 'none', outcome: outcomeOf(s) })));
  const byCapability = group(ran, (s) => ({ capability: name(s) }));
  set('TTFA p50 / p95 by capability#A', byCapability.map(([metric, list]) => ({ metric, value: quantile(0.5, TTFA_BUCKETS, ttfa(list)) })));
  set('TTFA p50 / p95 by capability#B', byCapability.map(([metric, list]) => ({ metric, value: quantile(0.95, TTFA_BUCKETS, ttfa(list)) })));
  const byOutcome = group(ran, (s) => ({ capability: name(s), outcome: s.status }));
  set('Step duration p95 by capability and outcome#A', byOutcome.map(([metric, list]) => ({ metric, value: quantile(0.95, STEP_BUCKETS, list.map(seconds)) })));
  for (const ref of ['A', 'B', 'C']) set(`Stuck, watchdog trips and retries#${ref}`, []);
  set('Preemptions and repairs#A', []);
  set('Preemptions and repairs#C', [{ metric: { reason: 'precond_missing', result: 'steps' }, value: 1 }]);
  set('Duplicates, abandoned runners, late and stale results#A', count(steps.filter(isDuplicate), (s) => ({ capability: name(s), kind: 'completed' })));
  for (const ref of ['B', 'C', 'D']) set(`Duplicates, abandoned runners, late and stale results#${ref}`, []);
  set('Actuator commands / s#A', count(commands, (command) => ({ command })).map((s) => ({ ...s, value: s.value / windowSeconds })));
  set('Body disconnects#A', []);
  set('Plan repair rate#A', [{ metric: {}, value: 1 }]);
  // No step needed a local retry: 0 / 0.
  set('Retry success rate#A', []);
  set('Mean steps to success by goal#A', [{ metric: { goal: 'unspecified' }, value: steps.length }]);
  const byVersion = group(ran, (s) => ({ capability: name(s), version: s.capability!.version }));
  set('Success rate by capability version#A', byVersion.map(([metric, list]) => ({ metric, value: list.filter((s) => s.status === 'succeeded').length / list.length })));
  set('TTFA and duration p95 by capability version#A', byVersion.map(([metric, list]) => ({ metric, value: quantile(0.95, TTFA_BUCKETS, ttfa(list)) })));
  set('TTFA and duration p95 by capability version#B', byVersion.map(([metric, list]) => ({ metric, value: quantile(0.95, STEP_BUCKETS, list.map(seconds)) })));
  // craft_item and chat are plain runners: no tree, no transitions.
  set('BT node transitions / s#A', []);
  for (const ref of ['A', 'B', 'C']) set(`Router decisions and disagreements#${ref}`, []);
  for (const ref of ['A', 'B']) set(`Canary decisions#${ref}`, []);
  // The bot is alone in its world: no tracks, no deltas.
  set('Belief tracks by visibility#A', []);
  set('Belief deltas by type#A', []);
  for (const ref of ['A', 'B']) set(`Telemetry stream#${ref}`, []);
  for (const ref of ['A', 'B']) set(`HTN method uplift#${ref}`, []);
  // No emergency in a calm world: 0 / 0, and every mode × result at 0.
  set('Hazard recall#A', []);
  set('Hazard emergencies by mode and result#A', []);
  return m;
}

/** Groups items by their labels (JSON-keyed). */
function group<T>(items: readonly T[], labels: (item: T) => Record<string, string>): [Record<string, string>, T[]][] {
  const groups = new Map<string, [Record<string, string>, T[]]>();
  for (const item of items) {
    const metric = labels(item);
    const key = JSON.stringify(metric);
    if (!groups.has(key)) groups.set(key, [metric, []]);
    groups.get(key)![1].push(item);
  }
  return [...groups.values()];
}

function count<T>(items: readonly T[], labels: (item: T) => Record<string, string>): Sample[] {
  return group(items, labels).map(([metric, list]) => ({ metric, value: list.length }));
}

/** Order- and float-noise-free form of a result's non-zero, non-NaN series (NaN: a quantile with no observations). */
function canonical(samples: readonly Sample[]): string[] {
  return samples.filter((s) => s.value !== 0 && !Number.isNaN(s.value)).map((s) => `${JSON.stringify(Object.fromEntries(Object.entries(s.metric).filter(([k]) => !['job', 'instance', 'body'].includes(k)).sort()))}=${Number.isNaN(s.value) ? 'NaN' : s.value.toFixed(9)}`).sort();
}

/** A result as a table cell: its non-zero series, then how many are at 0 and how many are NaN (a quantile or ratio with nothing observed). */
function show(samples: readonly Sample[]): string {
  if (samples.length === 0) return '(empty)';
  const labelled = (s: Sample) => {
    const labels = Object.entries(s.metric).filter(([k]) => !['job', 'instance', 'body', '__name__'].includes(k));
    const value = Number.isInteger(s.value) ? String(s.value) : s.value.toFixed(4);
    return labels.length ? `${labels.map(([, v]) => v).join('/')}=${value}` : value;
  };
  const shown = samples.filter((s) => s.value !== 0 && !Number.isNaN(s.value)).map(labelled).sort();
  const zeros = samples.filter((s) => s.value === 0).length;
  const nans = samples.filter((s) => Number.isNaN(s.value)).length;
  return [...shown, ...(zeros ? [`${zeros}× 0`] : []), ...(nans ? [`${nans}× NaN`] : [])].join(', ');
}
