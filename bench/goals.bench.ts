// Goals a user gives, in generated worlds (issue 27 item 5): `runDemo({ goal, count, inventory, world: 'terrain', seed })`
// — needs → router → HTN (the overworld's sources, explore/mine/hunt/shear) → executor with live repair, 0 model calls,
// hostiles at night — one fresh terrain server per goal. Prints per goal: item × count, starting inventory, seed,
// success, wall time, server ticks, steps, repairs, deaths, and the failure when it failed. A goal's plan has a time
// limit (SINEW_BENCH_GOAL_LIMIT_S, default 600 s: it then ends `timeout`). SINEW_BENCH_GOALS=a,b runs only the goals
// whose item is listed (`glass@32`: only that item's goal on seed 32). SINEW_BENCH_TRACES=<dir> keeps each goal's provenance (<item>-<seed>.jsonl) and the demo's printed
// timeline (<item>-<seed>.log) there.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDemo, type DemoResult } from '../examples/need-wood/src/demo.js';
import { timeline } from './goals-timeline.js';
import { record, runMain } from './harness.js';

const LIMIT_S = Number(process.env.SINEW_BENCH_GOAL_LIMIT_S ?? 600);
const ONLY = process.env.SINEW_BENCH_GOALS?.split(',').filter(Boolean);
const TRACES = process.env.SINEW_BENCH_TRACES;

/** One goal: item, count, starting inventory, the world's seed. */
interface Goal {
  readonly item: string;
  readonly count: number;
  readonly inventory?: Readonly<Record<string, number>>;
  readonly seed: number;
}

/** 35 goals, every kind of source: gathered, mined by tier at depth, smelted, crafted, hunted, sheared, explored for, a bucket filled with water and with lava. */
const GOALS: readonly Goal[] = [
  { item: 'stick', count: 4, seed: 1 },
  { item: 'crafting_table', count: 1, seed: 2 },
  { item: 'wooden_pickaxe', count: 1, seed: 3 },
  { item: 'chest', count: 1, inventory: { crafting_table: 1 }, seed: 4 },
  { item: 'ladder', count: 3, seed: 5 },
  { item: 'bowl', count: 4, inventory: { oak_planks: 3 }, seed: 6 },
  { item: 'stone_pickaxe', count: 1, seed: 7 },
  { item: 'stone_sword', count: 1, inventory: { wooden_pickaxe: 1 }, seed: 8 },
  { item: 'furnace', count: 1, inventory: { wooden_pickaxe: 1, stick: 4 }, seed: 9 },
  { item: 'coal', count: 3, inventory: { wooden_pickaxe: 1 }, seed: 10 },
  { item: 'torch', count: 4, inventory: { wooden_pickaxe: 1 }, seed: 11 },
  { item: 'iron_ingot', count: 2, inventory: { stone_pickaxe: 1, coal: 2 }, seed: 12 },
  { item: 'copper_ingot', count: 3, inventory: { stone_pickaxe: 1, furnace: 1, coal: 2 }, seed: 13 },
  { item: 'lapis_lazuli', count: 3, inventory: { stone_pickaxe: 1, torch: 8 }, seed: 14 },
  { item: 'redstone', count: 4, inventory: { iron_pickaxe: 1, torch: 8 }, seed: 15 },
  { item: 'gold_ingot', count: 1, inventory: { iron_pickaxe: 1, furnace: 1, coal: 2 }, seed: 16 },
  { item: 'diamond', count: 1, inventory: { iron_pickaxe: 1, torch: 16, bread: 8 }, seed: 17 },
  { item: 'bucket', count: 1, inventory: { stone_pickaxe: 1, furnace: 1, coal: 2 }, seed: 18 },
  { item: 'shears', count: 1, inventory: { iron_ingot: 2 }, seed: 19 },
  { item: 'white_wool', count: 2, inventory: { shears: 1 }, seed: 20 },
  { item: 'leather', count: 1, inventory: { iron_sword: 1 }, seed: 21 },
  { item: 'cooked_beef', count: 2, inventory: { iron_sword: 1, furnace: 1, coal: 2 }, seed: 22 },
  { item: 'feather', count: 2, inventory: { stone_sword: 1 }, seed: 23 },
  { item: 'cooked_porkchop', count: 1, inventory: { stone_sword: 1, furnace: 1, oak_planks: 4 }, seed: 24 },
  { item: 'glass', count: 2, inventory: { furnace: 1, coal: 1, wooden_shovel: 1 }, seed: 25 },
  { item: 'paper', count: 3, seed: 26 },
  { item: 'iron_pickaxe', count: 1, seed: 27 },
  { item: 'iron_pickaxe', count: 1, inventory: { iron_ingot: 3, stick: 2 }, seed: 28 },
  { item: 'cooked_mutton', count: 1, inventory: { iron_sword: 1, furnace: 1, coal: 1 }, seed: 29 },
  { item: 'book', count: 1, seed: 30 },
  { item: 'flint', count: 1, inventory: { wooden_shovel: 1 }, seed: 31 },
  { item: 'glass', count: 1, seed: 32 },
  { item: 'water_bucket', count: 1, inventory: { bucket: 1 }, seed: 33 },
  { item: 'water_bucket', count: 1, seed: 34 },
  { item: 'lava_bucket', count: 1, inventory: { bucket: 1, stone_pickaxe: 1 }, seed: 10 },
];

const inventoryText = (inventory: Goal['inventory']) => (inventory ? Object.entries(inventory).map(([name, n]) => `${name}=${n}`).join(',') : 'empty');

/** One row: run = the whole run (server start, world generation, bot, planning, plan); plan and ticks = the plan's. */
function line(goal: Goal, result: DemoResult, seconds: number, ticks: number): string {
  const ok = result.exitCode === 0 && result.held >= goal.count;
  const failure = ok ? '' : `  ${result.outcome?.failedStepId ?? 'plan'}: ${result.outcome?.failure?.code ?? (result.outcome ? 'short' : 'no plan')} ${result.outcome?.failure?.reason ?? ''}`.slice(0, 160);
  return [
    `${goal.item}×${goal.count}`.padEnd(20),
    inventoryText(goal.inventory).padEnd(44),
    String(goal.seed).padStart(4),
    (ok ? 'yes' : 'NO').padEnd(4),
    `${seconds.toFixed(1)} s`.padStart(8),
    `${(result.planMs / 1000).toFixed(1)} s`.padStart(8),
    String(ticks).padStart(7),
    String(result.rows.length).padStart(5),
    String(result.outcome?.repairs ?? 0).padStart(7),
    String(result.deaths).padStart(6),
  ].join(' ') + failure;
}

async function main(): Promise<void> {
  const goals = GOALS.filter((goal) => !ONLY || ONLY.includes(goal.item) || ONLY.includes(`${goal.item}@${goal.seed}`));
  const scratch = TRACES ?? (await mkdtemp(join(tmpdir(), 'sinew-goals-bench-')));
  await mkdir(scratch, { recursive: true });
  console.log(`goals in generated worlds: ${goals.length} goals, HTN with live repair, hostiles at night, 0 model calls, limit ${LIMIT_S} s a plan`);
  console.log(`${'goal'.padEnd(20)} ${'starting inventory'.padEnd(44)} seed ok   ${'run'.padStart(8)} ${'plan'.padStart(8)} ${'ticks'.padStart(7)} steps repairs deaths`);
  let wins = 0;
  const seconds: number[] = [];
  try {
    for (const goal of goals) {
      const started = Date.now();
      const log = timeline(TRACES, `${goal.item}-${goal.seed}.log`);
      const result = await runDemo({
        port: 0, keepAlive: false, provenancePath: join(scratch, `${goal.item}-${goal.seed}.jsonl`), goal: goal.item, count: goal.count,
        ...(goal.inventory ? { inventory: goal.inventory } : {}), world: 'terrain', seed: goal.seed, hostiles: true,
        timeLimitMs: LIMIT_S * 1000, out: log.out,
      }).catch((error: unknown) => error as Error);
      await log.close();
      // A run that could not start (the server, the bot's spawn) is a row that says so, not the end of the table.
      if (result instanceof Error) {
        console.log(`${`${goal.item}×${goal.count}`.padEnd(20)} ${inventoryText(goal.inventory).padEnd(44)} ${String(goal.seed).padStart(4)} ERROR ${result.message}`);
        continue;
      }
      const elapsed = (Date.now() - started) / 1000;
      if (result.exitCode === 0 && result.held >= goal.count) (wins += 1), seconds.push(elapsed);
      console.log(line(goal, result, elapsed, result.planTicks));
    }
  } finally {
    if (!TRACES) await rm(scratch, { recursive: true, force: true });
  }
  console.log(`reached: ${wins}/${goals.length} goals`);
  record({ figure: `goals in generated worlds: goals missed (of ${goals.length})`, unit: 'goals', values: [goals.length - wins], target: { value: 0 }, digits: 0 });
  if (seconds.length) record({ figure: 'goals in generated worlds: wall seconds per reached goal', unit: 's', values: seconds, digits: 1 });
}

runMain(main);
