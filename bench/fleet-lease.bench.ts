// Lease expiry (issue 30): how long after a SIGKILL another, idle worker takes the plan the killed one held.
// Two worker processes over the file world and one real redis-server (fsync always); a plan of one slow step;
// the worker that began it is SIGKILLed mid-step; the time to the other's `plan.taken` is the takeover time,
// with the lease, the queue lock and the stalled check at the kill test's settings (1 s, 1 s, 200 ms).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFleetQueue } from '../packages/fleet/src/index.js';
import { startRedisServer } from '../packages/fleet/test/redis-server.js';
import { record, runMain } from './harness.js';

const ROUNDS = Number(process.env.SINEW_BENCH_FLEET_LEASE_ROUNDS ?? 5);
const timing = { leaseMs: 1_000, lockMs: 1_000, stalledCheckMs: 200 };
const child = fileURLToPath(new URL('../packages/fleet/test/fixtures/fleet-child.ts', import.meta.url));
const root = fileURLToPath(new URL('..', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

async function round(port: number, n: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'sinew-fleet-lease-'));
  const config = { port, prefix: `lease${n}`, dir, verbs: ['dig'], pauseMs: 3_000, ...timing };
  const queue = createFleetQueue({ host: '127.0.0.1', port }, { prefix: config.prefix, lockMs: timing.lockMs, stalledCheckMs: timing.stalledCheckMs });
  const workers = [0, 1].map(() => spawn(process.execPath, ['--import', 'tsx', child, JSON.stringify(config)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] }));
  await Promise.all(workers.map((w) => new Promise((resolve) => w.stdout!.once('data', resolve))));
  try {
    await queue.submit({ planId: `slow-${n}`, intentId: 'lease', steps: [{ stepId: 'a', type: 'dig', args: { mark: `slow-${n}` } }] });
    const world = join(dir, 'world.log');
    while (lines(world).length === 0) await sleep(5);
    const pid = Number(lines(world)[0]!.split(' ')[2]);
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');
    const events = join(dir, 'events.log');
    const taken = () => lines(events).map((l) => JSON.parse(l) as { type: string; pid: number; at: number }).find((e) => e.type === 'plan.taken' && e.pid !== pid);
    while (!taken()) await sleep(5);
    return taken()!.at - killedAt;
  } finally {
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
    await queue.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

runMain(async () => {
  const server = await startRedisServer();
  try {
    const takeovers: number[] = [];
    for (let n = 0; n < ROUNDS; n += 1) takeovers.push(await round(server.port, n));
    console.log(`fleet lease expiry: kill → another idle worker holds the plan: ${takeovers.join(', ')} ms (lease ${timing.leaseMs} ms, lock ${timing.lockMs} ms, stalled check ${timing.stalledCheckMs} ms)`);
    record({ figure: 'fleet: takeover after a SIGKILL, idle fleet (lease 1 s, lock 1 s, check 200 ms)', unit: 'ms', values: takeovers, digits: 0 });
  } finally {
    await server.dispose();
  }
});
