// The tech tree, end to end: `runDemo({ goal: 'iron_pickaxe' })` — needs → router → HTN → executor with live
// repairs, no hand-written plan, no LLM — from an empty inventory in the seeded tech_tree world, one fresh
// server per seed (`--seeds 1,4,7` or `--seeds 3-5` picks them). Prints per seed: success, wall time and server ticks to the wooden, stone and iron pickaxe,
// steps, repairs, retries and LLM calls (always 0: no LLM planner is routed). The same-run baseline is each
// seed's own wooden-pickaxe milestone (iron ÷ wooden). Seeds: SINEW_BENCH_SEEDS (default 1 — a seed takes ~1.5 min — seeds 1..N: the whole
// `npm run bench` stays under ~10 minutes; SINEW_BENCH_SEEDS=10 for the full table).
// `npm run bench techtree -- --world terrain`: the moonshot (issue 27) — empty inventory → diamond_pickaxe in the
// generated terrain world of each seed, night and hostiles on, the HTN with the overworld's sources and live repair,
// 0 model calls; seeds 1..SINEW_BENCH_SEEDS (default 10), each plan limited to SINEW_BENCH_SEED_LIMIT_S (default 1800 s).
// SINEW_BENCH_TRACES=<dir> keeps each seed's provenance (seed-N.jsonl) and the demo's printed timeline (seed-N.log) there.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDemo, type DemoResult } from '../examples/need-wood/src/demo.js';
import { timeline } from './goals-timeline.js';
import { record } from './harness.js';

const worldAt = process.argv.indexOf('--world');
const TERRAIN = worldAt >= 0 && process.argv[worldAt + 1] === 'terrain';
if (worldAt >= 0 && !TERRAIN) throw new Error(`--world: expected terrain (the placed tech_tree world is the default), received ${process.argv[worldAt + 1]}`);
const SEEDS = Number(process.env.SINEW_BENCH_SEEDS ?? (TERRAIN ? 10 : 1));
const FIRST_SEED = Number(process.env.SINEW_BENCH_FIRST_SEED ?? 1);
const seedsAt = process.argv.indexOf('--seeds');
/** `--seeds 6`, `--seeds 1,4,7` or `--seeds 3-5`: the seeds to run (else FIRST_SEED and the SEEDS after it). */
const SEED_LIST = seedsAt >= 0 ? parseSeeds(process.argv[seedsAt + 1]) : Array.from({ length: SEEDS }, (_, i) => FIRST_SEED + i);
const LIMIT_S = Number(process.env.SINEW_BENCH_SEED_LIMIT_S ?? 1800);
const TRACES = process.env.SINEW_BENCH_TRACES;
const GOAL = TERRAIN ? 'diamond_pickaxe' : 'iron_pickaxe';
const TIERS = TERRAIN ? ['wooden_pickaxe', 'stone_pickaxe', 'iron_pickaxe', 'diamond_pickaxe'] : ['wooden_pickaxe', 'stone_pickaxe', 'iron_pickaxe'];

function parseSeeds(text: string | undefined): number[] {
  const seeds = (text ?? '').split(',').flatMap((part) => {
    const [from, to = from] = part.split('-').map(Number);
    return Number.isInteger(from) && Number.isInteger(to) && from! <= to! ? Array.from({ length: to! - from! + 1 }, (_, i) => from! + i) : [NaN];
  });
  if (seeds.length === 0 || seeds.some((seed) => !Number.isInteger(seed) || seed < 0)) throw new Error(`--seeds: expected seeds like 6, 1,4,7 or 3-5, received ${text}`);
  return seeds;
}

interface Row {
  seed: number;
  ok: boolean;
  result: DemoResult;
  seconds: number;
}

const cell = (result: DemoResult, item: string): string => {
  const milestone = result.milestones.find((m) => m.item === item);
  return milestone ? `${(milestone.ms / 1000).toFixed(1)} s / ${milestone.ticks} t` : '—';
};

function line(row: Row): string {
  const { result } = row;
  const rows = result.rows;
  const retries = rows.reduce((n, r) => n + Math.max(0, r.attempts - 1), 0);
  const wooden = result.milestones.find((m) => m.item === 'wooden_pickaxe');
  const last = result.milestones.find((m) => m.item === GOAL);
  const ratio = wooden && last ? (last.ms / wooden.ms).toFixed(1) : '—';
  const failure = row.ok ? '' : `  ${result.outcome?.failedStepId ?? 'plan'}: ${result.outcome?.failure?.code ?? 'no plan'} ${result.outcome?.failure?.reason ?? ''}`.slice(0, 140);
  return [
    String(row.seed).padStart(4),
    (row.ok ? 'yes' : 'NO').padEnd(7),
    ...TIERS.map((tier) => cell(result, tier).padEnd(17)),
    ratio.padStart(6),
    String(rows.length).padStart(5),
    String(result.outcome?.repairs ?? 0).padStart(7),
    String(retries).padStart(7),
    String(result.deaths).padStart(6),
    '0'.padStart(4),
    `${row.seconds.toFixed(1)} s`.padStart(8),
  ].join(' ') + failure;
}

async function main(): Promise<void> {
  const scratch = TRACES ?? (await mkdtemp(join(tmpdir(), 'sinew-techtree-bench-')));
  await mkdir(scratch, { recursive: true });
  const where = TERRAIN ? 'generated terrain, night and hostiles on' : 'the placed tech_tree world';
  console.log(`tech tree: empty inventory → ${GOAL}, seeds ${SEED_LIST.join(', ')}, ${where}, ${LIMIT_S} s limit (wall time / server ticks since the plan started)`);
  const heads = TIERS.map((tier) => tier.replace('_pickaxe', '').padEnd(17)).join(' ');
  console.log(`seed success ${heads} ${`${GOAL.split('_')[0]!.slice(0, 4)}/wd`.padStart(6)} steps repairs retries deaths llm     wall`);
  const rows: Row[] = [];
  try {
    for (const seed of SEED_LIST) {
      const started = Date.now();
      const world = TERRAIN ? { world: 'terrain' as const, hostiles: true, timeLimitMs: LIMIT_S * 1000 } : {};
      const log = timeline(TRACES, `seed-${seed}.log`);
      const result = await runDemo({ port: 0, keepAlive: false, provenancePath: join(scratch, `seed-${seed}.jsonl`), goal: GOAL, seed, out: log.out, ...world }).catch((error: unknown) => error as Error);
      await log.close();
      // A seed that could not start (the server, the bot's spawn) is a row that says so, not the end of the table.
      if (result instanceof Error) {
        console.log(`${String(seed).padStart(4)} ERROR  ${result.message}`);
        rows.push({ seed, ok: false, result: { rows: [], held: 0, deaths: 0, planMs: 0, planTicks: 0, milestones: [], routeEvents: [], exitCode: 1 }, seconds: (Date.now() - started) / 1000 });
        continue;
      }
      const row = { seed, ok: result.exitCode === 0 && result.held > 0, result, seconds: (Date.now() - started) / 1000 };
      rows.push(row);
      console.log(line(row));
    }
  } finally {
    if (!TRACES) await rm(scratch, { recursive: true, force: true });
  }
  const wins = rows.filter((r) => r.ok).length;
  const voyager = TERRAIN
    ? 'Voyager, Table 1: a diamond tool in 1 of 3 trials after 102 GPT-4 prompting iterations'
    : 'Voyager, Table 1: iron tool in 21 ± 7 GPT-4 prompting iterations, 3/3 trials — iterations are not ticks, and its worlds were generated while this one is placed by hand';
  console.log(`reached the ${GOAL.replace('_', ' ')}: ${wins}/${rows.length} seeds; LLM calls 0 (${voyager})`);
  for (const tier of TIERS) console.log(`  ${tier.padEnd(16)} reached in ${rows.filter((r) => r.result.milestones.some((m) => m.item === tier)).length}/${rows.length} seeds`);
  const label = GOAL.replace('_', ' ');
  record({ figure: `tech tree${TERRAIN ? ' (terrain)' : ''}: seeds that missed the ${label} (of ${rows.length})`, unit: 'seeds', values: [rows.length - wins], target: { value: 0 }, digits: 0 });
  const goalMinutes = rows.flatMap((r) => r.result.milestones.filter((m) => m.item === GOAL).map((m) => m.ms / 60_000));
  const woodenMinutes = rows.flatMap((r) => r.result.milestones.filter((m) => m.item === 'wooden_pickaxe').map((m) => m.ms / 60_000));
  if (goalMinutes.length) record({ figure: `tech tree${TERRAIN ? ' (terrain)' : ''}: minutes to the ${label} (vs to the wooden one)`, unit: 'min', values: goalMinutes, baselines: woodenMinutes });
}

await main();
