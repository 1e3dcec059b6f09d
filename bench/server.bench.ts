// @sinew/server: (1) a step event reaching a WebSocket client on loopback, p95 (target ≤ 20 ms), beside a
// raw `ws` send of the same payload as the same-run baseline; (2) executor cost per step with the server
// and 10 connected clients vs no server, each run timed until every client has the plan's outcome
// (serialization and sends included; the clients run in a child process). Target: ≤ +5 %.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { accepted, CapabilityRegistry, defineCapability } from '@sinew/executor-contracts';
import { createExecutor, createMetrics, instrumentMethods, memoryProvenance, type ActuatorSource, type Executor } from '@sinew/bt-runtime';
import { serveSinew, type EventEnvelope, type SinewServer } from '@sinew/server';
import { WebSocket, WebSocketServer } from 'ws';
import { z } from 'zod';

const TOKEN = 'bench-token-0123456789abcdef';
const LATENCY_STEPS = 400;
const OVERHEAD_STEPS = 5_000;
const ROUNDS = 7;
const CLIENTS = 10;

class Body {
  pokes = 0;
  poke(): void {
    this.pokes += 1;
  }
}
type Instrumented = Body & ActuatorSource;
const body: Instrumented = instrumentMethods(new Body(), ['poke']);
const noop = defineCapability<z.ZodObject<{ n: z.ZodNumber }>, Instrumented>({
  name: 'noop',
  version: '1.0.0',
  description: 'pokes the body once',
  inputSchema: z.object({ n: z.number() }),
  run: async (ctx) => ctx.body.poke(),
  acceptance: () => accepted,
});
const registry = new CapabilityRegistry<Instrumented>().register(noop);
const newExecutor = () => createExecutor({ registry, body, metrics: createMetrics(), provenance: memoryProvenance({ capacity: 1000 }) });
const plan = (id: string, steps: number) => ({ planId: id, intentId: 'bench', steps: Array.from({ length: steps }, (_, i) => ({ stepId: `s${i}`, type: 'noop', args: { n: i } })) });

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

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const median = (values: number[]) => percentile(values, 0.5);

/** Step event → client latency: one step per plan, paced like a bot (a step every 5 ms). */
async function stepLatency(): Promise<number[]> {
  const executor = newExecutor();
  const server = await serveSinew({ executor, port: 0, token: TOKEN });
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
  await sleep(50);
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
 * CPU ms (user + system, this process) for one plan of OVERHEAD_STEPS steps plus the server's pending
 * batch (serialized and written to every socket). CPU time, not wall time: the machine is shared.
 */
async function timedPlan(executor: Executor<Instrumented>, id: string, server?: SinewServer): Promise<number> {
  const start = process.cpuUsage();
  const outcome = await executor.run(plan(id, OVERHEAD_STEPS));
  server?.lastSeq(); // flushes the batch synchronously
  const used = process.cpuUsage(start);
  const elapsed = (used.user + used.system) / 1000;
  if (outcome.status !== 'completed') throw new Error(`bench plan ${id} ${outcome.status}`);
  return elapsed;
}

/** CLIENTS stream clients in a child process (their parsing must not be billed to the executor): prints `done <planId>` once all have it. */
const CLIENT_SCRIPT = `
const { WebSocket } = require('ws');
const [url, token, n] = process.argv.slice(1);
const counts = new Map();
let open = 0;
for (let i = 0; i < Number(n); i += 1) {
  const ws = new WebSocket(url, ['sinew.v1'], { headers: { authorization: 'Bearer ' + token } });
  ws.on('open', () => { if (++open === Number(n)) console.log('ready'); });
  ws.on('message', (data) => {
    const text = String(data);
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

function clientProcess(url: string): { ready: Promise<void>; received(id: string): Promise<void>; stop(): void } {
  const child = spawn(process.execPath, ['-e', CLIENT_SCRIPT, `${url.replace('http', 'ws')}/api/events`, TOKEN, String(CLIENTS)], { stdio: ['ignore', 'pipe', 'inherit'] });
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

async function overhead(): Promise<{ bare: number[]; served: number[]; idle: number[] }> {
  const bareExecutor = newExecutor();
  const idleExecutor = newExecutor();
  const executor = newExecutor();
  const limits = { clientQueue: 100_000, clientHighWaterBytes: 64 * 1024 * 1024 };
  const idleServer = await serveSinew({ executor: idleExecutor, port: 0, token: TOKEN, limits });
  const server = await serveSinew({ executor, port: 0, token: TOKEN, limits });
  const clients = clientProcess(server.url);
  await clients.ready;
  const bare: number[] = [];
  const idle: number[] = [];
  const served: number[] = [];
  await timedPlan(bareExecutor, 'warm-bare');
  await timedPlan(executor, 'warm', server);
  await clients.received('warm');
  for (let round = 0; round < ROUNDS; round += 1) {
    bare.push(await timedPlan(bareExecutor, `bare-${round}`));
    idle.push(await timedPlan(idleExecutor, `idle-${round}`, idleServer));
    served.push(await timedPlan(executor, `served-${round}`, server));
    await clients.received(`served-${round}`); // every client got the whole plan (outside the timing)
  }
  if (server.clients().some((c) => c.dropped > 0)) throw new Error('a bench client dropped events');
  clients.stop();
  await Promise.all([server.close(), idleServer.close()]);
  await Promise.all([executor.close(), idleExecutor.close(), bareExecutor.close()]);
  return { bare, served, idle };
}

const latencies = await stepLatency();
const raw = await rawLatency(JSON.stringify({ v: 1, seq: 1, ts: Date.now(), type: 'step.succeeded', data: { planId: 'lat-1', stepId: 's0', verb: 'noop', status: 'succeeded', attempts: 1 } }));
const p95 = percentile(latencies, 0.95);
console.log(`step event → client : p50 ${median(latencies).toFixed(2)} ms, p95 ${p95.toFixed(2)} ms, p99 ${percentile(latencies, 0.99).toFixed(2)} ms (${latencies.length} events; target p95 ≤ 20 ms)`);
console.log(`raw ws send (base)  : p50 ${median(raw).toFixed(2)} ms, p95 ${percentile(raw, 0.95).toFixed(2)} ms; ratio p95 ${(p95 / percentile(raw, 0.95)).toFixed(1)}×`);
const { bare, served, idle } = await overhead();
const bareUs = (median(bare) * 1000) / OVERHEAD_STEPS;
const idleUs = (median(idle) * 1000) / OVERHEAD_STEPS;
const servedUs = (median(served) * 1000) / OVERHEAD_STEPS;
const growth = (servedUs / bareUs - 1) * 100;
console.log(`executor, no server : ${bareUs.toFixed(2)} µs CPU/step (median of ${ROUNDS} × ${OVERHEAD_STEPS} steps, baseline)`);
const best = (values: number[]) => (Math.min(...values) * 1000) / OVERHEAD_STEPS;
console.log(`executor, 0 clients : ${idleUs.toFixed(2)} µs/step, ratio ${(idleUs / bareUs).toFixed(3)} (server attached, nobody connected)`);
console.log(`best rounds         : no server ${best(bare).toFixed(2)}, 0 clients ${best(idle).toFixed(2)}, ${CLIENTS} clients ${best(served).toFixed(2)} µs/step (ratio ${(best(served) / best(bare)).toFixed(3)})`);
console.log(`executor, ${CLIENTS} clients: ${servedUs.toFixed(2)} µs/step, ratio ${(servedUs / bareUs).toFixed(3)} (${growth >= 0 ? '+' : ''}${growth.toFixed(1)} %; target ≤ +5 %)`);
if (p95 > 20 || growth > 5) {
  console.log('over target');
  process.exitCode = 1;
}
