// npm run fuzz -- http [--time-limit-ms N]: the control-plane attacks of issue 28 against a real serveSinew
// on 127.0.0.1 with its default limits and a token. Prints per attack what the server should answer and
// what it answered; exit 1 if any differs or an attack overruns its share of the time limit.
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { parseArgs } from 'node:util';
import { createExecutor, instrumentMethods, type ActuatorSource } from '@sinew/bt-runtime';
import { accepted, CapabilityRegistry, defineCapability } from '@sinew/executor-contracts';
import { createToken, serveSinew, type SinewServer } from '@sinew/server';
import { WebSocket } from 'ws';
import { z } from 'zod';

const { values } = parseArgs({ options: { 'time-limit-ms': { type: 'string', default: '60000' } } });
const timeLimitMs = Number(values['time-limit-ms']);
if (!(timeLimitMs >= 5_000)) {
  console.error('usage: npm run fuzz -- http [--time-limit-ms <ms ≥ 5000>]');
  process.exit(2);
}

/** A body that only moves; `hold` moves once and waits to be cancelled. */
class Body {
  x = 0;
  move(dx: number): void {
    this.x += dx;
  }
}
const hold = defineCapability<z.ZodObject<{ ms: z.ZodNumber }>, Body & ActuatorSource>({
  name: 'hold',
  version: '1.0.0',
  description: 'move once, then hold until aborted',
  inputSchema: z.object({ ms: z.number().int().positive() }),
  run: async (ctx, { ms }) => {
    ctx.body.move(1);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      ctx.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()));
    });
  },
  acceptance: () => accepted,
});
const body = instrumentMethods(new Body(), ['move']) as Body & ActuatorSource;
const executor = createExecutor({ registry: new CapabilityRegistry<Body & ActuatorSource>().register(hold), body });
let dispatched = 0;
executor.on('step.dispatched', () => (dispatched += 1));
const token = createToken();
const server = await serveSinew({ executor, port: 0, token });
const self = `127.0.0.1:${server.port}`;

interface Answer {
  readonly status: number;
  readonly text: string;
}
/** One HTTP request on its own connection (no keep-alive pool: every attack socket is fresh). */
function http(path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: options.method ?? 'GET', headers: { host: self, ...options.headers }, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ status: 0, text: error.code ?? error.message }));
    req.end(options.body);
  });
}
const bearer = { authorization: `Bearer ${token}` };
const json = { 'content-type': 'application/json' };

/** A raw connection; resolves once connected or refused (then already destroyed). */
function open(): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(server.port, '127.0.0.1', () => resolve(socket));
    socket.on('error', () => resolve(socket));
  });
}
const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

/** A WebSocket upgrade: the status it was refused with, or 101. */
function upgrade(headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://${self}/api/events`, ['sinew.v1'], { headers: { ...bearer, ...headers } });
    ws.once('open', () => (ws.close(), resolve(101)));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => resolve(0));
  });
}

const count = (statuses: readonly number[]) => Object.entries(statuses.reduce<Record<number, number>>((acc, s) => ((acc[s] = (acc[s] ?? 0) + 1), acc), {})).map(([s, n]) => `${s}×${n}`).join(' ');

/** An attack: what the server must answer, and a run that reports what it did answer. */
interface Attack {
  readonly name: string;
  readonly expected: string;
  run(): Promise<string>;
}

const READ_ROUTES = ['/', '/metrics', '/api/cognitive/health', '/api/bot/status', '/api/capabilities', '/api/belief', '/api/provenance'];
const MUTATING = ['/api/cognitive/execute', '/api/cognitive/signals', '/api/executor/preempt', '/api/plans/p/cancel'];
const TOKEN_VARIANTS = ['', 'Bearer', `Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, `bearer ${token}`, `Bearer  ${token}`, `Basic ${Buffer.from(`u:${token}`).toString('base64')}`, `Bearer ${token.toUpperCase()}`, `Bearer ${token}, Bearer x`, token];

const ATTACKS: readonly Attack[] = [
  {
    name: 'DNS rebinding: read routes with Host evil.example:<port>',
    expected: `421×${READ_ROUTES.length}`,
    run: async () => count(await Promise.all(READ_ROUTES.map(async (path) => (await http(path, { headers: { host: `evil.example:${server.port}` } })).status))),
  },
  {
    name: 'DNS rebinding: Host evil.example, localhost:<other port>, 127.0.0.2:<port>',
    expected: '421×3',
    run: async () => count(await Promise.all(['evil.example', `localhost:${server.port + 1}`, `127.0.0.2:${server.port}`].map(async (host) => (await http('/api/bot/status', { headers: { host } })).status))),
  },
  { name: 'stream upgrade from Origin http://evil.example (with the token)', expected: '403', run: async () => String(await upgrade({ origin: `http://evil.example:${server.port}` })) },
  { name: 'stream upgrade with Host evil.example (with the token)', expected: '421', run: async () => String(await upgrade({ host: `evil.example:${server.port}` })) },
  { name: 'stream upgrade from the page (Origin http://localhost:<port>)', expected: '101', run: async () => String(await upgrade({ origin: `http://localhost:${server.port}` })) },
  {
    name: `${TOKEN_VARIANTS.length} token variants × ${MUTATING.length} mutating routes`,
    expected: `401×${TOKEN_VARIANTS.length * MUTATING.length}, 0 steps dispatched`,
    run: async () => {
      const before = dispatched;
      const plan = JSON.stringify({ planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 'hold', args: { ms: 10 } }] });
      const answers = await Promise.all(MUTATING.flatMap((path) => TOKEN_VARIANTS.map(async (auth) => (await http(path, { method: 'POST', headers: { ...json, ...(auth ? { authorization: auth } : {}) }, body: plan })).status)));
      return `${count(answers)}, ${dispatched - before} steps dispatched`;
    },
  },
  {
    name: 'cross-site text/plain POST (no preflight) from Origin http://evil.example, no token',
    expected: '401, 0 steps dispatched',
    run: async () => {
      const before = dispatched;
      const answer = await http('/api/cognitive/execute', { method: 'POST', headers: { 'content-type': 'text/plain', origin: 'http://evil.example' }, body: '{"planId":"x","intentId":"i","steps":[]}' });
      return `${answer.status}, ${dispatched - before} steps dispatched`;
    },
  },
  ...([401, 404, 421] as const).map((status) => ({
    name: `1 GB upload refused ${status} (${status === 401 ? 'no token' : status === 404 ? 'unknown path' : 'foreign Host'})`,
    expected: `${status}, closed < 1000 ms, < 32 MiB taken`,
    run: () => upload(status === 404 ? '/api/nope' : '/api/cognitive/execute', status === 421 ? 'evil.example' : self),
  })),
  {
    name: '64 silent sockets, then the token holder cancels a running plan',
    expected: '202, plan aborted',
    run: async () => {
      await http('/api/cognitive/execute', { method: 'POST', headers: { ...json, ...bearer }, body: JSON.stringify({ planId: 'long', intentId: 'i', steps: [{ stepId: 's', type: 'hold', args: { ms: 60_000 } }] }) });
      const done = new Promise<string>((resolve) => {
        const off = executor.on('plan.failed', (outcome) => (off(), resolve(outcome.status)));
      });
      const sockets = await Promise.all(Array.from({ length: 64 }, open));
      const cancel = await http('/api/plans/long/cancel', { method: 'POST', headers: bearer });
      const status = await Promise.race([done, new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 2_000))]);
      for (const socket of sockets) socket.destroy();
      return `${cancel.status}${cancel.status === 0 ? ` (${cancel.text})` : ''}, plan ${status}`;
    },
  },
  { name: '80 reconnecting slowloris clients for 3 s; 70 reads with the token (and 70 without) spread over it', expected: '200×70 for the token holder', run: () => slowloris(80, 70, 3_000) },
  {
    name: 'a silent socket once the anonymous share is full (reserveGraceMs 1 s)',
    expected: 'closed in 1000-1500 ms',
    run: async () => {
      const share = server.limits.maxConnections - server.limits.reservedConnections;
      const fillers = await Promise.all(Array.from({ length: share }, open));
      const startedAt = Date.now();
      const quiet = await open();
      await Promise.race([closed(quiet), new Promise((resolve) => setTimeout(resolve, 5_000))]);
      const after = Date.now() - startedAt;
      for (const socket of [...fillers, quiet]) socket.destroy();
      return after >= 1_000 && after < 1_500 ? 'closed in 1000-1500 ms' : `closed after ${after} ms`;
    },
  },
  {
    name: 'stream resume with ?since= beyond lastSeq (the server restarted)',
    expected: 'newEpoch true, replayed = lastSeq, missed 0, snapshot',
    run: () => resumeAfterRestart(),
  },
];

/** Declares a 1 GB JSON body and streams it as fast as the socket takes it, for at most 3 s. */
async function upload(path: string, host: string): Promise<string> {
  const socket = await open();
  let response = '';
  socket.on('data', (chunk: Buffer) => (response += chunk));
  const gone = closed(socket);
  let open_ = true;
  void gone.then(() => (open_ = false));
  socket.write(`POST ${path} HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\ncontent-length: 1000000000\r\n\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const startedAt = Date.now();
  while (open_ && Date.now() - startedAt < 3_000) {
    if (!socket.write(chunk)) await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), gone, new Promise((resolve) => setTimeout(resolve, 50))]);
  }
  const took = Date.now() - startedAt;
  const mib = socket.bytesWritten / 2 ** 20;
  socket.destroy();
  const status = /^HTTP\/1\.1 (\d+)/.exec(response)?.[1] ?? 'no answer';
  const closeNote = open_ ? 'still open after 3000 ms' : took < 1_000 ? 'closed < 1000 ms' : `closed after ${took} ms`;
  // What the client got written: mostly the loopback kernel buffers, which fill before the server closes.
  return `${status}, ${closeNote}, ${mib < 32 ? '< 32 MiB taken' : `${mib.toFixed(0)} MiB taken`} (closed after ${took} ms, client wrote ${mib.toFixed(1)} MiB)`;
}

/** `attackers` clients that send headers one line at a time and reconnect when dropped; meanwhile `reads` token requests in a row. */
async function slowloris(attackers: number, reads: number, forMs: number): Promise<string> {
  let stop = false;
  const live = new Set<Socket>();
  const attacker = async (): Promise<void> => {
    while (!stop) {
      const socket = await open();
      if (stop) {
        socket.destroy();
        break;
      }
      live.add(socket);
      socket.write('GET /api/bot/status HTTP/1.1\r\n');
      const drip = setInterval(() => socket.write('x-slow: 1\r\n'), 200);
      await closed(socket);
      clearInterval(drip);
      live.delete(socket);
    }
  };
  const crowd = Array.from({ length: attackers }, attacker);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const token: number[] = [];
  const anonymous: number[] = [];
  const startedAt = Date.now();
  // Spread over the attack so the reads meet the crowd in every phase (fresh sockets and stale ones).
  for (let i = 0; i < reads; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, startedAt + (i * forMs) / reads - Date.now())));
    token.push((await http('/api/bot/status', { headers: { ...bearer, connection: 'close' } })).status);
    anonymous.push((await http('/api/bot/status', { headers: { connection: 'close' } })).status);
  }
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, forMs - (Date.now() - startedAt))));
  stop = true;
  for (const socket of live) socket.destroy();
  await Promise.all(crowd);
  return `${count(token)} for the token holder (anonymous: ${count(anonymous)})`;
}

/** A client that saw seq 500 of an earlier run resumes against this one. */
async function resumeAfterRestart(): Promise<string> {
  for (let n = 0; n < 5; n += 1) server.planGenerated({ intentId: `i${n}`, planner: 'attack', plan: { n } });
  const lastSeq = server.lastSeq();
  const hello = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const ws = new WebSocket(`ws://${self}/api/events?since=${lastSeq + 500}&epoch=0123456789abcdef`, ['sinew.v1'], { headers: bearer });
    ws.once('message', (data) => (ws.close(), resolve((JSON.parse(String(data).split('\n')[0]!) as { data: Record<string, unknown> }).data)));
    ws.once('error', reject);
  });
  const replayedAll = hello.replayed === Math.min(lastSeq, server.limits.ringSize) ? 'lastSeq' : String(hello.replayed);
  return `newEpoch ${String(hello.newEpoch)}, replayed = ${replayedAll}, missed ${String(hello.missed)}${hello.snapshot ? ', snapshot' : ', no snapshot'}`;
}

const share = Math.floor(timeLimitMs / ATTACKS.length);
const rows: { name: string; expected: string; observed: string; ok: boolean; ms: number }[] = [];
const startedAt = Date.now();
for (const attack of ATTACKS) {
  const t0 = Date.now();
  let observed: string;
  try {
    observed = await Promise.race([attack.run(), new Promise<string>((resolve) => setTimeout(() => resolve(`timeout after ${share} ms`), share).unref())]);
  } catch (error) {
    observed = `threw ${error instanceof Error ? error.message : String(error)}`;
  }
  rows.push({ name: attack.name, expected: attack.expected, observed, ok: observed.startsWith(attack.expected), ms: Date.now() - t0 });
}
console.log(`http attacks: ${ATTACKS.length} against serveSinew on ${self} (default limits, a token) in ${((Date.now() - startedAt) / 1000).toFixed(1)} s\n`);
console.log('| attack | expected | observed | ok | ms |\n|---|---|---|---|---|');
for (const row of rows) console.log(`| ${row.name} | ${row.expected} | ${row.observed} | ${row.ok ? 'yes' : 'NO'} | ${row.ms} |`);
await server.close();
await executor.close();
process.exitCode = rows.every((row) => row.ok) ? 0 : 1;
