// npm run fuzz -- --seed N --count N: drives hostile planner inputs (see planner-inputs.ts) through the
// LLM planner and the router and prints outcomes per code, throws, hangs, unhandled rejections and heap.
// Exit 1 on any throw, hang, uncoded result or unhandled rejection.
import { parseArgs } from 'node:util';
import { runPlannerFuzz } from './planner-inputs.js';

const { values } = parseArgs({ options: { seed: { type: 'string', default: '1' }, count: { type: 'string', default: '10000' }, 'time-limit-ms': { type: 'string', default: '600000' } } });
const seed = Number(values.seed);
const count = Number(values.count);
const timeLimitMs = Number(values['time-limit-ms']);
if (!Number.isInteger(seed) || !Number.isInteger(count) || count < 1 || !(timeLimitMs > 0)) {
  console.error('usage: planners.fuzz.ts --seed <int> --count <inputs ≥ 1> [--time-limit-ms <ms>]');
  process.exit(2);
}
const started = Date.now();
const stats = await runPlannerFuzz({ seed, count, timeLimitMs });
const heapMb = process.memoryUsage().heapUsed / 2 ** 20;
console.log(`planner fuzz: seed ${seed}, ${stats.inputs} inputs in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`  outcomes: ${JSON.stringify(Object.fromEntries(Object.entries(stats.outcomes).sort(([, a], [, b]) => b - a)))}`);
console.log(`  throws ${stats.throws}, hangs ${stats.hangs}, uncoded ${stats.uncoded}, unhandled rejections ${stats.unhandled}, heap ${heapMb.toFixed(1)} MB`);
for (const error of stats.errors.slice(0, 20)) console.log(`  ! ${error}`);
if (stats.inputs < count) console.log(`  (time limit reached before ${count} inputs)`);
process.exitCode = stats.throws + stats.hangs + stats.uncoded + stats.unhandled > 0 ? 1 : 0;
