// npm run fuzz -- --seed N --count N: drives fault plans through createExecutor (see executor-faults.ts)
// and prints plans, steps, outcomes per code, hangs, unhandled rejections and heap. Exit 1 on any
// hang, uncoded step, gauge left up or unhandled rejection.
import { parseArgs } from 'node:util';
import { runExecutorFaults } from './executor-faults.js';

const { values } = parseArgs({ options: { seed: { type: 'string', default: '1' }, count: { type: 'string', default: '10000' }, 'time-limit-ms': { type: 'string', default: '600000' } } });
const seed = Number(values.seed);
const count = Number(values.count);
const timeLimitMs = Number(values['time-limit-ms']);
if (!Number.isInteger(seed) || !Number.isInteger(count) || count < 1 || !(timeLimitMs > 0)) {
  console.error('usage: executor.fuzz.ts --seed <int> --count <plans ≥ 1> [--time-limit-ms <ms>]');
  process.exit(2);
}
const started = Date.now();
const stats = await runExecutorFaults({ seed, plans: count, timeLimitMs });
const heapMb = process.memoryUsage().heapUsed / 2 ** 20;
console.log(`executor fuzz: seed ${seed}, ${stats.plans} plans, ${stats.steps} steps in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`  plans by status: ${JSON.stringify(stats.plansByStatus)}`);
console.log(`  steps by outcome: ${JSON.stringify(Object.fromEntries(Object.entries(stats.outcomes).sort(([, a], [, b]) => b - a)))}`);
console.log(`  hangs ${stats.hangs}, uncoded ${stats.uncoded}, gauges not back to 0 ${stats.gaugesNotZero}, unhandled rejections ${stats.unhandled}, heap ${heapMb.toFixed(1)} MB`);
for (const error of stats.errors.slice(0, 20)) console.log(`  ! ${error}`);
if (stats.plans < count) console.log(`  (time limit reached before ${count} plans)`);
process.exitCode = stats.hangs + stats.uncoded + stats.gaugesNotZero + stats.unhandled > 0 ? 1 : 0;
