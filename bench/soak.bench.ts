// Fleet soak (opt-in: `npm run bench -- soak [--minutes 10] [--bots 20] [--warmup-minutes 2]`): BOTS bots on one
// embedded server, in this process, each with its own executor looping the chore plan of bench/fleet.ts at its own
// spot. After the warm-up, every ~10 s: a full GC (node --expose-gc, which scripts/bench.mjs passes), then heapUsed
// and RSS. Prints the least-squares slope of both in MB/min (target: heap ≤ 0.1 MB/min), outcomes per code and TTFA.
// --snapshot-dir DIR also writes a heap snapshot (after GC) at the end of the warm-up and at the end: diff them with
// bench/heap-diff.ts (see bench/README.md).
// Provenance rings (50 records) and idempotency stores (--idempotency-capacity, 100 completed keys) are small per bot so
// they are full before the warm-up ends: a bounded store still filling is not a leak. (At the default 10,000 keys a
// bot's store holds ~3.4 MB of step outcomes once full, after ~2 h of this loop, and grows ~0.03 MB/min until then.)
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeHeapSnapshot } from 'node:v8';
import { Vec3 } from 'vec3';
import { z } from 'zod';
import { createExecutor, createExecutorMetrics, createMemoryProvenance, type Executor } from '@sinew/bt-runtime';
import { createStandardRegistry, instrumentBot, type SinewBot } from '@sinew/capabilities';
import { connectBot, give, startServer, type TestServer } from '@sinew/testkit';
import { chorePlan, ttfaLine, type Spot } from './fleet.js';
import { quantile, record, runMain } from './harness.js';

const { values: raw } = parseArgs({
  options: { minutes: { type: 'string', default: '10' }, bots: { type: 'string', default: '20' }, 'warmup-minutes': { type: 'string' }, 'sample-seconds': { type: 'string', default: '10' }, 'snapshot-dir': { type: 'string' }, 'idempotency-capacity': { type: 'string', default: '100' } },
});
// parseArgs refuses unknown flags; zod refuses values that are not positive numbers, naming the flag.
const positive = z.coerce.number().positive();
const parsed = z
  .strictObject({
    minutes: positive,
    bots: positive.int(),
    'warmup-minutes': positive.optional(),
    'sample-seconds': positive,
    'snapshot-dir': z.string().min(1).optional(),
    'idempotency-capacity': positive.int(),
  })
  .safeParse(raw);
if (!parsed.success) {
  console.error(`soak: bad flags\n${z.prettifyError(parsed.error)}`);
  process.exit(2);
}
const flags = parsed.data;
const MINUTES = flags.minutes;
const BOTS = flags.bots;
const WARMUP_MINUTES = flags['warmup-minutes'] ?? Math.min(2, MINUTES / 5);
const SAMPLE_MS = flags['sample-seconds'] * 1000;
const MB = 1024 * 1024;
const SNAPSHOTS = flags['snapshot-dir'];
const IDEMPOTENCY_CAPACITY = flags['idempotency-capacity'];
const gc = (globalThis as { gc?: () => void }).gc;

interface Member {
  readonly bot: SinewBot;
  readonly executor: Executor<SinewBot>;
  readonly home: Spot;
}

/** Everything the fleet measured after the warm-up; fixed-size so the soak's own bookkeeping cannot look like a leak. */
class Tally {
  readonly outcomes = new Map<string, number>();
  readonly ttfa = new Float64Array(200_000);
  ttfaCount = 0;
  plans = 0;
  count(key: string): void {
    this.outcomes.set(key, (this.outcomes.get(key) ?? 0) + 1);
  }
}

/** Least-squares slope of y over x. */
function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i += 1) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return num / den;
}

/** A 5-wide grid, 6 blocks apart in x and 4 in z: each bot's dirt block lands between it and its neighbour. */
function homeOf(server: TestServer, i: number): Spot {
  return server.spawn.offset((i % 5) * 6 - 12, 0, Math.floor(i / 5) * 4 - 6).floored();
}

async function enlist(server: TestServer, i: number): Promise<Member> {
  const bot = instrumentBot(await connectBot(server, { username: `fleet${i}`, timeoutMs: 60_000 }));
  const executor = createExecutor({
    registry: createStandardRegistry(),
    body: bot,
    metrics: createExecutorMetrics(),
    provenance: createMemoryProvenance({ capacity: 50 }),
    policy: { idempotencyCapacity: IDEMPOTENCY_CAPACITY },
  });
  return { bot, executor, home: homeOf(server, i) };
}

const hasDirt = (bot: SinewBot) => bot.inventory.items().some((item) => item.name === 'dirt');

/** One bot's loop until `until` (ms epoch); only plans that start after `measureFrom` are counted. */
async function loop(member: Member, until: number, measureFrom: number, tally: Tally): Promise<void> {
  for (let n = 0; Date.now() < until; n += 1) {
    if (!hasDirt(member.bot)) await give(member.bot, 'dirt', 1);
    const measured = Date.now() >= measureFrom;
    const outcome = await member.executor.run(chorePlan(`${member.bot.username}-${n}`, member.home));
    if (!measured) continue;
    tally.plans += 1;
    for (const step of outcome.steps) {
      tally.count(step.status === 'succeeded' ? 'succeeded' : `${step.status}:${step.failure?.code ?? 'none'}`);
      if (step.ttfaMs !== undefined && tally.ttfaCount < tally.ttfa.length) tally.ttfa[tally.ttfaCount++] = step.ttfaMs;
    }
  }
}

/** heapUsed and RSS in MB after a full GC, every SAMPLE_MS from `from` until `until`. */
async function sample(from: number, until: number): Promise<{ minutes: number[]; heap: number[]; rss: number[] }> {
  const series = { minutes: [] as number[], heap: [] as number[], rss: [] as number[] };
  await new Promise((r) => setTimeout(r, from - Date.now()));
  snapshot('warm');
  while (Date.now() < until) {
    gc!();
    const { heapUsed, rss } = process.memoryUsage();
    series.minutes.push((Date.now() - from) / 60_000);
    series.heap.push(heapUsed / MB);
    series.rss.push(rss / MB);
    await new Promise((r) => setTimeout(r, Math.min(SAMPLE_MS, Math.max(0, until - Date.now()))));
  }
  snapshot('end');
  return series;
}

function snapshot(name: string): void {
  if (!SNAPSHOTS) return;
  gc!();
  console.log(`  heap snapshot: ${writeHeapSnapshot(join(SNAPSHOTS, `soak-${name}.heapsnapshot`))}`);
}

function report(series: { minutes: number[]; heap: number[]; rss: number[] }, tally: Tally): void {
  const ttfa = Array.from(tally.ttfa.subarray(0, tally.ttfaCount));
  console.log(`  ${series.minutes.length} samples; heap ${series.heap[0]?.toFixed(1)} → ${series.heap.at(-1)?.toFixed(1)} MB, RSS ${series.rss[0]?.toFixed(1)} → ${series.rss.at(-1)?.toFixed(1)} MB`);
  // each half's own slope: growth that is still settling (a cache filling, JIT code) falls from the first to the second
  const half = Math.floor(series.minutes.length / 2);
  const halves = [[0, half], [half, series.minutes.length]].map(([a, b]) => slope(series.minutes.slice(a, b), series.heap.slice(a, b)).toFixed(3));
  console.log(`  heap after GC (MB): ${series.heap.map((h) => h.toFixed(1)).join(' ')}; slope ${halves[0]} then ${halves[1]} MB/min by half`);
  console.log(`  ${tally.plans} plans measured; step outcomes: ${[...tally.outcomes].map(([k, v]) => `${k} ${v}`).join(', ')}`);
  console.log(`  ${ttfaLine(ttfa)}`);
  record({ figure: `fleet soak heap slope after GC (${BOTS} bots, ${MINUTES} min)`, unit: 'MB/min', values: [slope(series.minutes, series.heap)], target: { value: 0.1 }, digits: 3 });
  record({ figure: `fleet soak RSS slope (${BOTS} bots, ${MINUTES} min)`, unit: 'MB/min', values: [slope(series.minutes, series.rss)], digits: 3 });
  record({ figure: `fleet soak TTFA p95 (${ttfa.length} steps)`, unit: 'ms', values: [quantile(ttfa, 0.95)], target: { value: 50 }, digits: 1 });
}

async function main(): Promise<void> {
  if (!gc) throw new Error('the soak needs a full GC before each sample: run node with --expose-gc (npm run bench does)');
  const server = await startServer();
  const members: Member[] = [];
  try {
    for (let i = 0; i < BOTS; i += 1) members.push(await enlist(server, i));
    const start = Date.now();
    const measureFrom = start + WARMUP_MINUTES * 60_000;
    const until = start + MINUTES * 60_000;
    console.log(`${BOTS} bots joined; soaking ${MINUTES} min (${WARMUP_MINUTES} min warm-up), a sample every ${SAMPLE_MS / 1000} s; idempotency stores of ${IDEMPOTENCY_CAPACITY} keys`);
    const tally = new Tally();
    const [series] = await Promise.all([sample(measureFrom, until), ...members.map((m) => loop(m, until, measureFrom, tally))]);
    report(series, tally);
    // a bot that strays loads new chunks on the server and in its own client: growth that is not a leak in Sinew
    const strays = members.map((m) => ({ name: m.bot.username, blocks: m.bot.entity.position.distanceTo(new Vec3(m.home.x, m.home.y, m.home.z)) })).filter((s) => s.blocks > 8);
    console.log(`  bots more than 8 blocks from home at the end: ${strays.map((s) => `${s.name} ${s.blocks.toFixed(0)}`).join(', ') || 'none'}`);
    const items = Object.values(server.serv?.entities ?? {}).filter((e) => e.type === 'object' || e.name === 'item').length;
    console.log(`  entities on the server at the end: ${Object.keys(server.serv?.entities ?? {}).length} (${items} objects or items on the ground)`);
    // mineflayer keeps a placeholder for any packet of an entity it does not know: these would pile up here
    const seen = members.flatMap((m) => Object.values(m.bot.entities));
    console.log(`  entities in the bots' views at the end: ${seen.length} (${seen.filter((e) => e.type !== 'player').length} not players)`);
  } finally {
    for (const m of members) {
      await m.executor.close();
      m.bot.quit();
    }
    await server.stop();
  }
}

runMain(main);
