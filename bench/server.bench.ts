// @sinew/server: (1) a step event reaching a WebSocket client on loopback, p50/p95 (target p95 ≤ 20 ms),
// with `flushIntervalMs: 0` (next event-loop turn) and with the default 10 ms, beside a raw `ws` send of
// the same payload as the same-run baseline; (2) executor cost per step with no server, with the server
// and 0 clients, and with 10 clients (in a child process: their parsing is not billed here) — once subscribed to
// `executionComplete`, the only type they read, and once with the default subscription (every event) — per round
// both CPU time of this process (user + system, until every client has the plan's outcome: envelopes,
// serialization and socket writes included) and wall time of `executor.run`. After warm-up, a round runs CHUNKS
// plans of every kind, interleaved in a rotating order, and sums each kind's: with one plan of each a round was ~20 ms
// a kind, shorter than a collection's cycle (its marking runs on helper threads, billed to whoever runs meanwhile), and
// single rounds' ratios moved 0.05–11× (session 32). Each figure is the median of ROUNDS with min–max, and the ratio is
// to the same round's no-server run (median of the per-round ratios). `control` is a second executor with no server,
// run like the first: its ratio is the bench's noise floor on the machine at hand (an A/A run; ideally 1). `listened` is the executor with no-op listeners on the events the
// server subscribes to, no server: the cost of being observed at all. Targets (issue 24), on the median of per-round
// CPU ratios: 0 clients ≤ 1.1×; 10 clients ≤ 1.5× on the no-op step, ≤ 2× on the one-turn step at either flush setting
// (on the subscribed clients: events are serialized only for what someone subscribed to, and `executionComplete` says
// how the plan ended — its step outcomes, ~1 MB for 5,000 steps, are fetched from `outcomePath`, not pushed; every
// event to every client is printed and recorded beside them without a target).
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { accepted, CapabilityRegistry, defineCapability } from '@sinew/executor-contracts';
import { createExecutor, createExecutorMetrics, createMemoryProvenance, type Executor } from '@sinew/bt-runtime';
import { serveSinew, type EventEnvelope, type ServerLimitsInput, type SinewServer } from '@sinew/server';
import { WebSocket, WebSocketServer } from 'ws';
import { formatSpread, quantile, record, spread } from './harness.js';
import { createNoopBody, noop, NoopArgs, type NoopBody } from './noop.js';

const TOKEN = 'bench-token-0123456789abcdef';
const LATENCY_STEPS = 400;
const WARMUP = 2;
const ROUNDS = 9;
/** Plans of each kind per round, interleaved. */
const CHUNKS = 8;
const CLIENTS = 10;
// Big enough that no bench client drops: a client of every event gets ~15,000 envelopes (~2.5 MB) per 5,000-step plan.
const ROOMY = { clientQueue: 100_000, clientHighWaterBytes: 64 * 1024 * 1024 } satisfies ServerLimitsInput;

const body = createNoopBody();
// A real capability waits for the world: each step crosses an event-loop turn, so the server flushes between steps.
const tick = defineCapability<typeof NoopArgs, NoopBody>({
  name: 'tick',
  version: '1.0.0',
  description: 'pokes the body, then waits one event-loop turn',
  inputSchema: NoopArgs,
  run: async (ctx) => {
    ctx.body.poke();
    await new Promise((resolve) => setImmediate(resolve));
  },
  acceptance: () => accepted,
});
const registry = new CapabilityRegistry<NoopBody>().register(noop).register(tick);
const newExecutor = () => createExecutor({ registry, body, metrics: createExecutorMetrics(), provenance: createMemoryProvenance({ capacity: 1000 }) });
const plan = (id: string, steps: number, type = 'noop') => ({ planId: id, intentId: 'bench', steps: Array.from({ length: steps }, (_, i) => ({ stepId: `s${i}`, type, args: { n: i } })) });

function connect(url: string, onEvent: (event: EventEnvelope) => void): Promise<WebSocket> {
  const socket = new WebSocket(`${url.replace('http', 'ws')}/api/events`, ['sinew.v1'], { headers: { authorization: `Bearer ${TOKEN}` } });
  socket.on('message', (data) => {
    for (const line of String(data).split('\n')) onEvent(JSON.parse(line) as EventEnvelope);
  });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

const percentile = quantile;
const median = (values: readonly number[]) => quantile(values, 0.5);
const spreadOf = (values: readonly number[], digits = 2) => formatSpread(spread(values), digits);

/** Step event → client latency: one step per plan, paced like a bot (a step every 5 ms). */
async function stepLatency(limits: ServerLimitsInput): Promise<number[]> {
  const executor = newExecutor();
  const server = await serveSinew({ executor, port: 0, token: TOKEN, limits });
  const emitted = new Map<string, number>();
  executor.on('step.succeeded', (o) => emitted.set(o.planId, performance.now()));
  const latencies: number[] = [];
  const client = await connect(server.url, (e) => {
    if (e.type === 'step.succeeded') latencies.push(performance.now() - emitted.get((e.data as { planId: string }).planId)!);
  });
  for (let i = 0; i < LATENCY_STEPS; i += 1) {
    await executor.run(plan(`lat-${i}`, 1));
    await sleep(5);
  }
  await sleep(100);
  if (latencies.length !== LATENCY_STEPS) throw new Error(`latency: ${latencies.length} of ${LATENCY_STEPS} step events arrived`);
  client.close();
  await server.close();
  await executor.close();
  return latencies;
}

/** Baseline: the same payload sent with a bare `ws` server on loopback, same pacing. */
async function rawLatency(payload: string): Promise<number[]> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => wss.once('listening', resolve));
  const latencies: number[] = [];
  let sentAt = 0;
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as { port: number }).port}`);
  client.on('message', () => latencies.push(performance.now() - sentAt));
  const [peer] = await Promise.all([new Promise<WebSocket>((resolve) => wss.once('connection', resolve)), new Promise((resolve) => client.once('open', resolve))]);
  for (let i = 0; i < LATENCY_STEPS; i += 1) {
    sentAt = performance.now();
    peer.send(payload);
    await sleep(5);
  }
  client.close();
  wss.close();
  return latencies;
}

/**
 * CLIENTS stream clients in a child process (their parsing must not be billed to the executor): each sends
 * `subscription` (if any) and waits for `stream.subscribed`; prints `ready`, then `done <planId>` once all have it.
 */
const CLIENT_SCRIPT = `
const { WebSocket } = require('ws');
const [url, token, n, subscription] = process.argv.slice(1);
const counts = new Map();
let ready = 0;
const isReady = () => { if (++ready === Number(n)) console.log('ready'); };
for (let i = 0; i < Number(n); i += 1) {
  const ws = new WebSocket(url, ['sinew.v1'], { headers: { authorization: 'Bearer ' + token } });
  let subscribed = !subscription;
  ws.on('open', () => (subscription ? ws.send(subscription) : isReady()));
  ws.on('message', (data) => {
    const text = String(data);
    if (!subscribed && text.includes('"type":"stream.subscribed"')) (subscribed = true), isReady();
    if (text.includes('"type":"stream.error"')) throw new Error(text);
    if (!text.includes('"type":"executionComplete"')) return; // only outcomes are parsed: the clients stay cheap
    for (const line of text.split('\\n')) {
      if (!line.includes('"type":"executionComplete"')) continue;
      const e = JSON.parse(line);
      const c = (counts.get(e.data.planId) || 0) + 1;
      counts.set(e.data.planId, c);
      if (c === Number(n)) console.log('done ' + e.data.planId);
    }
  });
}`;

interface Clients {
  readonly ready: Promise<void>;
  received(id: string): Promise<void>;
  stop(): void;
}

/** What the bench's subscribed clients send: they read only the plans' outcomes. */
const OUTCOMES_ONLY = JSON.stringify({ type: 'subscribe', types: ['executionComplete'] });

function clientProcess(url: string, subscription: string): Clients {
  const child = spawn(process.execPath, ['-e', CLIENT_SCRIPT, `${url.replace('http', 'ws')}/api/events`, TOKEN, String(CLIENTS), subscription], { stdio: ['ignore', 'pipe', 'inherit'] });
  const seen = new Set<string>();
  const waiters = new Map<string, () => void>();
  let onReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line === 'ready') return onReady();
    const id = line.slice('done '.length);
    seen.add(id);
    waiters.get(id)?.();
  });
  return {
    ready,
    received: (id) => (seen.has(id) ? Promise.resolve() : new Promise<void>((resolve) => waiters.set(id, resolve))),
    stop: () => child.kill(),
  };
}

interface Sample {
  readonly cpuUs: number;
  readonly wallUs: number;
}

interface Scenario {
  readonly name: string;
  readonly short: string;
  readonly type: string;
  readonly steps: number;
  readonly limits: ServerLimitsInput;
  /** Upper bound on the median per-round CPU ratio with CLIENTS clients (issue 24). */
  readonly clientsTarget: number;
}

/**
 * One plan: CPU µs/step of this process from the run's start until the server's last batch is written
 * (and, with clients, until every client has the outcome), and wall µs/step of `executor.run` itself.
 */
async function timedPlan(executor: Executor<NoopBody>, scenario: Scenario, id: string, server?: SinewServer, clients?: Clients): Promise<Sample> {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const outcome = await executor.run(plan(id, scenario.steps, scenario.type));
  const wallMs = performance.now() - wall;
  server?.lastSeq(); // flushes the pending batch synchronously
  await clients?.received(id);
  const used = process.cpuUsage(cpu);
  if (outcome.status !== 'completed') throw new Error(`bench plan ${id} ${outcome.status}`);
  return { cpuUs: (used.user + used.system) / scenario.steps, wallUs: (wallMs * 1000) / scenario.steps };
}

// The executor events the server subscribes to: an executor with no-op listeners on them shows what being observed costs the executor itself.
const OBSERVED = ['plan.started', 'step.dispatched', 'step.first_action', 'step.retry', 'step.succeeded', 'step.failed', 'step.preempted', 'step.resumed', 'plan.completed', 'plan.failed', 'bt.transition'] as const;

interface Runs {
  readonly bare: Sample[];
  readonly observed: Sample[];
  readonly idle: Sample[];
  /** CLIENTS clients subscribed to `executionComplete`, the only type they read. */
  readonly subscribed: Sample[];
  /** CLIENTS clients with the default subscription (every type), as the inspector. */
  readonly everything: Sample[];
  /** A second executor with no server, run like the first: the ratio it gets is the bench's noise floor (ideally 1). */
  readonly control: Sample[];
}

/** An executor served with CLIENTS clients in a child process, each sending `subscription` first ('' = the default, every type). */
async function servedWith(limits: ServerLimitsInput, subscription: string): Promise<{ executor: Executor<NoopBody>; server: SinewServer; clients: Clients }> {
  const executor = newExecutor();
  const server = await serveSinew({ executor, port: 0, token: TOKEN, limits });
  const clients = clientProcess(server.url, subscription);
  await clients.ready;
  return { executor, server, clients };
}

async function overhead(scenario: Scenario): Promise<Runs> {
  const [bareExecutor, observedExecutor, idleExecutor, controlExecutor] = [newExecutor(), newExecutor(), newExecutor(), newExecutor()];
  for (const name of OBSERVED) observedExecutor.on(name, () => {});
  const limits = { ...ROOMY, ...scenario.limits };
  const idleServer = await serveSinew({ executor: idleExecutor, port: 0, token: TOKEN, limits });
  const subscribed = await servedWith(limits, OUTCOMES_ONLY);
  const everything = await servedWith(limits, '');
  const runs: Runs = { bare: [], observed: [], idle: [], subscribed: [], everything: [], control: [] };
  const kinds = [
    { runs: runs.bare, plan: (round: string) => timedPlan(bareExecutor, scenario, `bare-${round}`) },
    { runs: runs.control, plan: (round: string) => timedPlan(controlExecutor, scenario, `control-${round}`) },
    { runs: runs.observed, plan: (round: string) => timedPlan(observedExecutor, scenario, `observed-${round}`) },
    { runs: runs.idle, plan: (round: string) => timedPlan(idleExecutor, scenario, `idle-${round}`, idleServer) },
    { runs: runs.subscribed, plan: (round: string) => timedPlan(subscribed.executor, scenario, `subscribed-${round}`, subscribed.server, subscribed.clients) },
    { runs: runs.everything, plan: (round: string) => timedPlan(everything.executor, scenario, `everything-${round}`, everything.server, everything.clients) },
  ];
  for (let round = 0; round < WARMUP + ROUNDS; round += 1) {
    // A round is CHUNKS turns, each running one plan of every kind, the order rotating each turn: a collection's marking
    // (helper threads, counted in the process's CPU) and pause fall on every kind alike, not on the one whose 20 ms they hit.
    const cpu = kinds.map(() => 0);
    const wall = kinds.map(() => 0);
    for (let chunk = 0; chunk < CHUNKS; chunk += 1) {
      for (let i = 0; i < kinds.length; i += 1) {
        const k = (round * CHUNKS + chunk + i) % kinds.length;
        const sample = await kinds[k]!.plan(`${round}-${chunk}`);
        cpu[k] = cpu[k]! + sample.cpuUs / CHUNKS;
        wall[k] = wall[k]! + sample.wallUs / CHUNKS;
      }
    }
    if (round >= WARMUP) kinds.forEach((kind, k) => kind.runs.push({ cpuUs: cpu[k]!, wallUs: wall[k]! }));
  }
  for (const served of [subscribed, everything]) {
    if (served.server.clients().some((c) => c.dropped > 0)) throw new Error('a bench client dropped events');
    served.clients.stop();
    await served.server.close();
    await served.executor.close();
  }
  await idleServer.close();
  await Promise.all([idleExecutor, observedExecutor, bareExecutor].map((e) => e.close()));
  return runs;
}

/** Prints one scenario and records its CPU cost with CLIENTS clients. */
function report(scenario: Scenario, runs: Runs): void {
  const ratio = (runs2: Sample[], key: keyof Sample) => runs2.map((s, i) => s[key] / runs.bare[i]![key]);
  console.log(`\n${scenario.name}: ${ROUNDS} rounds of ${CHUNKS} interleaved plans × ${scenario.steps} steps after ${WARMUP} warm-up; µs/step median (min–max); ratio = median of per-round ratios to no server`);
  const line = (label: string, samples: Sample[]) =>
    console.log(
      `  ${label.padEnd(12)} CPU ${spreadOf(samples.map((s) => s.cpuUs))}` +
        (samples === runs.bare ? ' (baseline)'.padEnd(24) : `, ratio ${spreadOf(ratio(samples, 'cpuUs'), 3)}`) +
        ` | wall ${spreadOf(samples.map((s) => s.wallUs))}` +
        (samples === runs.bare ? ' (baseline)' : `, ratio ${spreadOf(ratio(samples, 'wallUs'), 3)}`),
    );
  line('no server', runs.bare);
  line('control', runs.control);
  line('listened', runs.observed);
  line('0 clients', runs.idle);
  line(`${CLIENTS} outcomes`, runs.subscribed);
  line(`${CLIENTS} everything`, runs.everything);
  const growth = (median(ratio(runs.subscribed, 'cpuUs')) - 1) * 100;
  console.log(`  ${CLIENTS} clients subscribed to executionComplete: CPU ${growth >= 0 ? '+' : ''}${growth.toFixed(1)} % per step, median of per-round ratios (target ≤ ${scenario.clientsTarget}×)`);
  // Issue 24's targets, on the median of per-round CPU ratios to the same round's unobserved executor.
  record({ figure: `server, ${scenario.short}: CPU/step ratio with 0 clients (vs no server)`, unit: '×', values: ratio(runs.idle, 'cpuUs'), target: { value: 1.1 }, digits: 3 });
  record({ figure: `server, ${scenario.short}: CPU/step ratio with ${CLIENTS} clients of executionComplete (vs no server)`, unit: '×', values: ratio(runs.subscribed, 'cpuUs'), target: { value: scenario.clientsTarget }, digits: 3 });
  // The same unobserved executor twice (an A/A run): how far a ratio moves with nothing changed, on this machine today.
  record({ figure: `server, ${scenario.short}: CPU/step ratio of a second unobserved executor (vs no server: the noise floor)`, unit: '×', values: ratio(runs.control, 'cpuUs'), digits: 3 });
  // Every event to every client: the bytes written grow with the clients (no target; what an inspector-like client costs).
  record({ figure: `server, ${scenario.short}: CPU/step ratio with ${CLIENTS} clients of every event (vs no server)`, unit: '×', values: ratio(runs.everything, 'cpuUs'), digits: 3 });
}

const payload = JSON.stringify({ v: 1, seq: 1, ts: Date.now(), type: 'step.succeeded', data: { planId: 'lat-1', stepId: 's0', verb: 'noop', status: 'succeeded', attempts: 1 } });
const raw = await rawLatency(payload);
console.log(`raw ws send (base)        : p50 ${median(raw).toFixed(2)} ms, p95 ${percentile(raw, 0.95).toFixed(2)} ms`);
for (const flushIntervalMs of [0, 10]) {
  const latencies = await stepLatency({ flushIntervalMs });
  const p95 = percentile(latencies, 0.95);
  console.log(
    `step event → client, flushIntervalMs ${String(flushIntervalMs).padEnd(2)}: p50 ${median(latencies).toFixed(2)} ms, p95 ${p95.toFixed(2)} ms, p99 ${percentile(latencies, 0.99).toFixed(2)} ms` +
      ` (${latencies.length} events)`,
  );
  record({ figure: `server step event → client p95, flushIntervalMs ${flushIntervalMs} (vs raw ws send)`, unit: 'ms', values: [p95], baselines: [percentile(raw, 0.95)], target: { value: 20 } });
}
const scenarios: Scenario[] = [
  { name: 'no-op step (the executor never yields: one batch per plan)', short: 'no-op step', type: 'noop', steps: 5_000, limits: {}, clientsTarget: 1.5 },
  { name: 'step that waits one turn, flushIntervalMs 0 (a batch per step)', short: 'one-turn step, flush 0', type: 'tick', steps: 2_000, limits: { flushIntervalMs: 0 }, clientsTarget: 2 },
  { name: 'step that waits one turn, flushIntervalMs 10', short: 'one-turn step, flush 10 ms', type: 'tick', steps: 2_000, limits: { flushIntervalMs: 10 }, clientsTarget: 2 },
];
for (const scenario of scenarios) report(scenario, await overhead(scenario));
