// Fleet kill test at bench size (issue 30): worker processes sharing a real redis-server (started here on a free
// loopback port, append-only with fsync on every write) run plans over a file world; at seeded moments a worker
// with a step in flight is SIGKILLed and replaced, and in some trials redis-server itself is killed and restarted.
// Every plan must complete once, no acknowledged record may be lost, and no step may take effect twice: a worker
// that takes over a step claimed and unrecorded checks the world first. SINEW_BENCH_FLEET_TRIALS (default 24).
import { runKillTrials } from '../packages/fleet/test/kill-harness.js';
import { startRedisServer } from '../packages/fleet/test/redis-server.js';
import { record, runMain } from './harness.js';

const TRIALS = Number(process.env.SINEW_BENCH_FLEET_TRIALS ?? 24);
const WORKERS = Number(process.env.SINEW_BENCH_FLEET_WORKERS ?? 5);

runMain(async () => {
  const server = await startRedisServer();
  try {
    const restarts = Array.from({ length: TRIALS }, (_, n) => n).filter((n) => n % 6 === 5);
    const rows = await runKillTrials(server, { trials: TRIALS, seed: 30, workers: WORKERS, plansPerTrial: 8, killsPerTrial: 2, redisRestartTrials: restarts });
    console.table(rows);
    const sum = (field: keyof (typeof rows)[number]) => rows.reduce((n, row) => n + Number(row[field]), 0);
    console.log(`fleet kill test: ${rows.length} trials, ${WORKERS} workers, ${sum('plans')} plans, ${sum('steps')} steps, ${sum('kills')} SIGKILLs (${sum('midStepKills')} mid-step), ${restarts.length} redis restarts`);
    console.log(`  lost plans ${sum('lost')} | steps without effect ${sum('missingEffects')} | acknowledged records lost ${sum('acknowledgedLost')} | double effects ${sum('doubleEffects')} | takeovers of an unrecorded step: recorded from the world ${sum('recovered')}, run again (absent) ${sum('rerunAbsent')}`);
    const takeovers = rows.map((row) => row.takeoverMs).filter((ms) => ms > 0);
    console.log(`  takeover (kill → the plan taken by another worker, queueing included): ${takeovers.sort((a, b) => a - b).join(', ')} ms`);
    record({ figure: 'fleet: takeover after a SIGKILL (lock 1 s)', unit: 'ms', values: takeovers, digits: 0 });
    record({ figure: 'fleet: plans lost', unit: 'plans', values: [sum('lost')], target: { value: 0 }, digits: 0 });
    record({ figure: 'fleet: acknowledged records lost', unit: 'records', values: [sum('acknowledgedLost')], target: { value: 0 }, digits: 0 });
    record({ figure: 'fleet: double effects (the world shows a step twice)', unit: 'steps', values: [sum('doubleEffects')], target: { value: 0 }, digits: 0 });
  } finally {
    await server.dispose();
  }
});
