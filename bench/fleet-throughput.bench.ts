// Fleet queue throughput (issue 30): no-op plans of three steps through the plan queue and the Redis journal with
// SINEW_BENCH_FLEET_WORKERS workers (default 20, in this process, each with its own executor and connections),
// beside one executor running the same plans directly (no queue, no Redis), and one on the fsync'd JSONL journal
// (printed). One real redis-server, fsync always. The plans are queued with one `submitAll`: a producer that awaits
// each submit in turn is one fsync'd round trip per plan, and was what the first version of this bench measured.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExecutor, createJsonlJournal, instrumentMethods, type JournalStore } from '@sinew/bt-runtime';
import { accepted, CapabilityRegistry, defineCapability } from '@sinew/executor-contracts';
import { z } from 'zod';
import { createFleetQueue, createFleetWorker, createRedisJournal, type FleetEvent } from '../packages/fleet/src/index.js';
import { startRedisServer } from '../packages/fleet/test/redis-server.js';
import { record, runMain } from './harness.js';

const WORKERS = Number(process.env.SINEW_BENCH_FLEET_WORKERS ?? 20);
const PLANS = Number(process.env.SINEW_BENCH_FLEET_PLANS ?? 300);

function noopExecutor(journal?: JournalStore) {
  const body = instrumentMethods({ nothing: () => undefined }, ['nothing']);
  const registry = new CapabilityRegistry<typeof body>();
  const noop = defineCapability({
    name: 'noop',
    version: '1.0.0',
    description: 'does nothing',
    inputSchema: z.object({ n: z.number() }),
    run: async () => void body.nothing(),
    observe: () => 0,
    acceptance: () => accepted,
  });
  registry.register(noop);
  return createExecutor({ registry, body, ...(journal ? { journal } : {}) });
}

const plans = (tag: string) => Array.from({ length: PLANS }, (_, n) => ({ planId: `${tag}-${n}`, intentId: 'bench', steps: [0, 1, 2].map((s) => ({ stepId: `s${s}`, type: 'noop', args: { n: s } })) }));

async function single(journal?: JournalStore): Promise<number> {
  const executor = noopExecutor(journal);
  const started = performance.now();
  for (const plan of plans('single')) await executor.run(plan);
  const seconds = (performance.now() - started) / 1_000;
  await executor.close();
  return PLANS / seconds;
}

async function fleet(port: number, round: number): Promise<number> {
  const connection = { host: '127.0.0.1', port };
  const queue = createFleetQueue(connection, { prefix: `tp${round}` });
  const journal = createRedisJournal(connection, { prefix: `tp${round}` });
  // Ends counted from the workers' events: polling every plan's history would spend this process's CPU on parsing.
  let ended = 0;
  let allEnded: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allEnded = resolve));
  const onEvent = (event: FleetEvent) => event.type === 'plan.ended' && (ended += 1) === PLANS && allEnded();
  const workers = Array.from({ length: WORKERS }, () => createFleetWorker({ queue, journal, executor: noopExecutor, onEvent }));
  const batch = plans(`fleet${round}`);
  const started = performance.now();
  await queue.submitAll(batch);
  await done;
  const seconds = (performance.now() - started) / 1_000;
  await Promise.all(workers.map((worker) => worker.close()));
  await Promise.all([queue.close(), journal.close()]);
  return PLANS / seconds;
}

runMain(async () => {
  const server = await startRedisServer();
  try {
    const [fleetRate, singleRate, jsonlRate] = [[] as number[], [] as number[], [] as number[]];
    const dir = mkdtempSync(join(tmpdir(), 'sinew-bench-jsonl-'));
    for (let round = 0; round < 3; round += 1) {
      singleRate.push(await single());
      jsonlRate.push(await single(createJsonlJournal(join(dir, `round-${round}.jsonl`))));
      fleetRate.push(await fleet(server.port, round));
    }
    rmSync(dir, { recursive: true, force: true });
    const list = (rates: number[]) => rates.map((r) => r.toFixed(0)).join(', ');
    console.log(`fleet throughput: ${WORKERS} workers ${list(fleetRate)} plans/s; one executor ${list(singleRate)} plans/s (in memory), ${list(jsonlRate)} plans/s (fsync'd JSONL journal)`);
    record({ figure: `fleet: no-op plans/s, ${WORKERS} workers vs one executor`, unit: 'plans/s', values: fleetRate, baselines: singleRate });
  } finally {
    await server.dispose();
  }
});
