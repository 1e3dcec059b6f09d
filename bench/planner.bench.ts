// The goal-oriented planner (issue 31) beside the HTN on the same goals: planning time and plan length per goal,
// in worlds shaped like the placed tech-tree world (a tree in view, inventories from empty to mid-game) and in a
// generated terrain world (issue 27: a real bot's snapshot at the spawn of a seeded `terrain` server, the
// overworld's sources — ores at depth, animals — and the explore/mine/hunt/shear verbs). The goap plans
// `has_item:<item>:<n>` from the registry's declarations (+ the recipe domain); the HTN plans `obtain <item>` from
// its methods. Ratio = goap ÷ HTN (time, and steps). Then the first empty-inventory goals of each world run on a real
// server (placed: one server, reset and a fresh tree per run; terrain: a fresh server of the seed per run), each
// planner planning from its bot's own snapshot, its own repair live. `--world placed|terrain` runs one of the two.
import { createExecutor, type PlanOutcome } from '@sinew/bt-runtime';
import { createStandardRegistry, instrumentBot, observeWorld } from '@sinew/capabilities';
import { connectBot, placeTree, reset, startServer, type TestServer } from '@sinew/testkit';
import { wildRegistry } from '../packages/planners/test/minecraft/wild-verbs.js';
import { pred, type CapabilityRegistry } from '@sinew/executor-contracts';
import { createGoapPlanner, createPlannerRepairHook, type PlannerWorld, type PlanResult } from '@sinew/planners';
import { createMinecraftHtn, focusAround, minecraftGoapDomain, OVERWORLD, recipeBook, type WorldSources } from '@sinew/planners/minecraft';
import { record, runMain } from './harness.js';

const ROUNDS = Number(process.env.SINEW_BENCH_ROUNDS ?? 7);
/** How many of the empty-world goals also run on the embedded server, each planner on a fresh tree (~15 s a run): the wood ones (a tree is all it places). */
const SERVER_GOALS = Number(process.env.SINEW_BENCH_SERVER_GOALS ?? 16);
/** How many of the generated world's empty-inventory goals run on a real terrain server, each planner on a fresh one (~30 s a run). */
const TERRAIN_SERVER_GOALS = Number(process.env.SINEW_BENCH_TERRAIN_SERVER_GOALS ?? 5);
/** Plans per server goal: a bot plans again from its snapshot while the goal does not hold (a plan may end at a log of any wood). */
const PLAN_ROUNDS = 3;
/** `--world placed` or `--world terrain` runs one world's table (and server runs); both by default. */
const worldAt = process.argv.indexOf('--world');
const ONLY = worldAt >= 0 ? process.argv[worldAt + 1] : undefined;
if (ONLY !== undefined && ONLY !== 'placed' && ONLY !== 'terrain') throw new Error(`--world: expected placed or terrain, received ${ONLY}`);

const tree = { '4,64,2': 'oak_log', '4,65,2': 'oak_log', '4,66,2': 'oak_log', '5,66,2': 'oak_leaves' };
const world = (inventory: Record<string, number>, blocks: Record<string, string> = tree): PlannerWorld => ({
  position: { x: 0.5, y: 64, z: 0.5 },
  health: 20,
  food: 20,
  heldItem: null,
  inventory,
  blocks,
});
const start = world({});
const wooden = world({ wooden_pickaxe: 1, oak_planks: 3, stick: 2 }, { ...tree, '1,64,0': 'crafting_table' });
const stone = world({ stone_pickaxe: 1, cobblestone: 12, coal: 3, oak_log: 4 }, { ...tree, '1,64,0': 'crafting_table' });

/** [item, count, world name]: 29 goals; the first 16 need only the tree's wood (≤ 3 of its 5 logs), so they also run on the server. */
const GOALS: readonly [string, number, string][] = [
  ['oak_planks', 4, 'empty'], ['stick', 4, 'empty'], ['crafting_table', 1, 'empty'], ['wooden_pickaxe', 1, 'empty'],
  ['wooden_axe', 1, 'empty'], ['wooden_sword', 1, 'empty'], ['chest', 1, 'empty'], ['oak_door', 3, 'empty'],
  ['oak_fence', 3, 'empty'], ['ladder', 3, 'empty'], ['bowl', 4, 'empty'], ['wooden_shovel', 1, 'empty'],
  ['wooden_hoe', 1, 'empty'], ['oak_trapdoor', 2, 'empty'], ['oak_pressure_plate', 1, 'empty'], ['oak_boat', 1, 'empty'], ['stone_pickaxe', 1, 'empty'],
  ['torch', 4, 'empty'], ['furnace', 1, 'empty'], ['iron_ingot', 3, 'empty'], ['iron_pickaxe', 1, 'empty'],
  ['stone_pickaxe', 1, 'wooden'], ['stone_axe', 1, 'wooden'], ['torch', 8, 'wooden'], ['furnace', 1, 'wooden'],
  ['iron_pickaxe', 1, 'stone'], ['iron_sword', 1, 'stone'], ['bucket', 1, 'stone'], ['shield', 1, 'stone'],
];
const WORLDS: Record<string, PlannerWorld> = { empty: start, wooden, stone };
/** The generated world's seed (its spawn is the snapshot's centre). */
const SEED = Number(process.env.SINEW_BENCH_SEED ?? 7);

/** [item, count, inventory name]: 24 goals in the generated world, every kind of source (dig, mine by tier, smelt, hunt, shear). */
const TERRAIN_GOALS: readonly [string, number, string][] = [
  ['stick', 4, 'empty'], ['crafting_table', 1, 'empty'], ['wooden_pickaxe', 1, 'empty'], ['stone_pickaxe', 1, 'empty'],
  ['furnace', 1, 'empty'], ['torch', 4, 'empty'], ['iron_ingot', 3, 'empty'], ['iron_pickaxe', 1, 'empty'],
  ['diamond', 1, 'empty'], ['diamond_pickaxe', 1, 'empty'], ['cooked_beef', 2, 'empty'], ['leather', 2, 'empty'],
  ['white_wool', 3, 'empty'], ['white_bed', 1, 'empty'], ['book', 1, 'empty'], ['glass', 4, 'empty'],
  ['gold_ingot', 2, 'empty'], ['copper_ingot', 3, 'empty'], ['bucket', 1, 'empty'], ['shield', 1, 'empty'],
  ['redstone', 4, 'iron'], ['lapis_lazuli', 3, 'iron'], ['diamond_pickaxe', 1, 'iron'], ['cooked_chicken', 2, 'iron'],
  ['golden_apple', 1, 'empty'],
];

/** One column of the comparison: what each planner is, in which worlds, on which goals. */
interface Column {
  readonly title: string;
  readonly goals: readonly (readonly [string, number, string])[];
  readonly worlds: Readonly<Record<string, PlannerWorld>>;
  readonly goap: ReturnType<typeof createGoapPlanner>;
  readonly htn: ReturnType<typeof createMinecraftHtn>;
}

function timed(plan: () => PlanResult): { ms: number; result: PlanResult } {
  const t0 = performance.now();
  const result = plan();
  return { ms: performance.now() - t0, result };
}

const median = (xs: readonly number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
const label = (r: PlanResult | undefined) => (r?.ok ? String(r.plan.steps.length) : `✗ ${r?.failure.code}`);
const len = (r: PlanResult | undefined) => (r?.ok ? r.plan.steps.length : Number.NaN);

/** Median planning time of each planner on one goal (alternating which runs first), with the last results. */
function measure(column: Column, item: string, count: number, at: PlannerWorld) {
  const intent = { id: `bench-${item}`, source: 'user' as const, goal: `obtain ${item}`, context: { count }, urgency: 0.5, safety: { allowed: true }, traits: [] };
  const g: number[] = [];
  const h: number[] = [];
  let goapResult: PlanResult | undefined;
  let htnResult: PlanResult | undefined;
  for (let round = -1; round < ROUNDS; round += 1) {
    const runHtn = () => timed(() => column.htn.plan(intent, at) as PlanResult);
    const early = round % 2 === 0 ? runHtn() : undefined;
    const a = timed(() => column.goap.planGoal([pred.hasItem(item, count)], at));
    const b = early ?? runHtn();
    if (round < 0) continue;
    g.push(a.ms);
    h.push(b.ms);
    [goapResult, htnResult] = [a.result, b.result];
  }
  return { goapMs: median(g), htnMs: median(h), goapResult, htnResult, search: column.goap.lastSearch()! };
}

/** Prints one world's table and its largest search; returns the per-goal medians for the summary. */
function compare(column: Column): { goapMs: number[]; htnMs: number[] } {
  const goapMs: number[] = [];
  const htnMs: number[] = [];
  let largest = { goal: '', nodes: 0, ms: 0 };
  console.log(`\n${column.title}`);
  console.log(['goal'.padEnd(32), 'goap ms'.padStart(8), 'htn ms'.padStart(8), 'ratio'.padStart(7), 'goap n'.padStart(12), 'htn n'.padStart(12), 'ratio'.padStart(6), 'nodes'.padStart(6)].join(' '));
  for (const [item, count, worldName] of column.goals) {
    const m = measure(column, item, count, column.worlds[worldName]!);
    if (m.search.nodes > largest.nodes) largest = { goal: `has_item:${item}:${count} (${worldName})`, nodes: m.search.nodes, ms: m.search.ms };
    goapMs.push(m.goapMs);
    htnMs.push(m.htnMs);
    console.log(
      [`${item}×${count} (${worldName})`.padEnd(32), m.goapMs.toFixed(2).padStart(8), m.htnMs.toFixed(2).padStart(8), (m.goapMs / m.htnMs).toFixed(2).padStart(7),
        label(m.goapResult).padStart(12), label(m.htnResult).padStart(12), (len(m.goapResult) / len(m.htnResult)).toFixed(2).padStart(6), String(m.search.nodes).padStart(6)].join(' '),
    );
  }
  console.log(`largest search: ${largest.goal}: ${largest.nodes} nodes, ${largest.ms.toFixed(1)} ms (injected clock: Date.now)`);
  return { goapMs, htnMs };
}

/** A real bot's snapshot at the spawn of a generated world: the blocks within 8 of it, as the planners see them. */
async function terrainSnapshot(seed: number): Promise<PlannerWorld> {
  const server = await startServer({ world: { generator: 'terrain', seed } });
  try {
    const bot = await connectBot(server, { username: 'snapshot' });
    await bot.waitForChunksToLoad();
    const { threats: _threats, ...snapshot } = observeWorld(bot, { positions: focusAround(bot.entity.position, 8) }) as PlannerWorld;
    bot.quit();
    return snapshot;
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const book = recipeBook();
  const limits = { maxNodes: 20_000, maxMs: 5_000 };
  if (ONLY !== 'terrain') {
    const registry = createStandardRegistry() as unknown as CapabilityRegistry<unknown>;
    const placed = compare({
      title: 'placed tech-tree world (a tree in view; PLACED_WORLD sources, the standard verbs)',
      goals: GOALS,
      worlds: WORLDS,
      goap: createGoapPlanner({ registry, domain: minecraftGoapDomain(book), limits }),
      htn: createMinecraftHtn({ book, registry }),
    });
    await onServer(GOALS.filter(([, , w]) => w === 'empty').slice(0, SERVER_GOALS), 'placed');
    record({ figure: `goap plan time over ${GOALS.length} goals, placed world (median of per-goal medians) vs HTN`, unit: 'ms', values: placed.goapMs, baselines: placed.htnMs, digits: 3 });
  }
  if (ONLY !== 'placed') {
    const snapshot = await terrainSnapshot(SEED);
    const wild = wildRegistry();
    const options = { world: OVERWORLD, verbs: wild.verbs() };
    const terrain = compare({
      title: `generated terrain world, seed ${SEED} (a bot's snapshot at spawn, ${Object.keys(snapshot.blocks).length} blocks; OVERWORLD sources, + explore/mine/hunt/shear)`,
      goals: TERRAIN_GOALS,
      worlds: { empty: snapshot, iron: { ...snapshot, inventory: { iron_pickaxe: 1, oak_planks: 8 } } },
      goap: createGoapPlanner({ registry: wild, domain: minecraftGoapDomain(book, options), limits }),
      htn: createMinecraftHtn({ book, registry: wild, ...options }),
    });
    await onServer(TERRAIN_GOALS.filter(([, , w]) => w === 'empty').slice(0, TERRAIN_SERVER_GOALS), 'terrain');
    record({ figure: `goap plan time over ${TERRAIN_GOALS.length} goals, generated world seed ${SEED} vs HTN`, unit: 'ms', values: terrain.goapMs, baselines: terrain.htnMs, digits: 3 });
  }
}

/** Where a server run happens: the placed world (one server, reset, a fresh tree per run) or a fresh terrain server per run. */
interface ServerWorld {
  readonly sources: { readonly world?: WorldSources; readonly verbs?: readonly string[] };
  readonly radius: number;
  open(): Promise<TestServer>;
  close(server: TestServer): Promise<void>;
}

function serverWorld(kind: 'placed' | 'terrain', registry: CapabilityRegistry<unknown>): ServerWorld {
  if (kind === 'terrain') {
    return {
      sources: { world: OVERWORLD, verbs: registry.verbs() },
      radius: 8,
      open: () => startServer({ world: { generator: 'terrain', seed: SEED } }),
      close: (server) => server.stop(),
    };
  }
  let shared: TestServer | undefined;
  return {
    sources: {},
    radius: 6,
    async open() {
      shared ??= await startServer();
      await reset(shared);
      await placeTree(shared, shared.spawn.offset(3, 0, 2).floored(), { kind: 'oak', height: 5 });
      return shared;
    },
    close: async () => {},
  };
}

/** Success on the real server: each planner plans from the bot's own snapshot, the executor runs it with the planner's repair. */
async function onServer(goals: readonly (readonly [string, number, string])[], kind: 'placed' | 'terrain'): Promise<void> {
  if (goals.length === 0) return;
  const registry = createStandardRegistry();
  const world = serverWorld(kind, registry as unknown as CapabilityRegistry<unknown>);
  const book = recipeBook();
  // Each planner with its own live repair (the HTN's recipe repair, goap's from declarations), as a bot would run it.
  const planners = {
    goap: () => {
      const goap = createGoapPlanner({ registry: registry as unknown as CapabilityRegistry<unknown>, domain: minecraftGoapDomain(book, world.sources), limits: { maxNodes: 20_000, maxMs: 5_000 } });
      return { planner: goap, plan: (w: PlannerWorld, item: string, count: number) => goap.planGoal([pred.hasItem(item, count)], w, `srv-${item}`) };
    },
    htn: () => {
      const htn = createMinecraftHtn({ book, registry, ...world.sources });
      const intent = (item: string, count: number) => ({ id: `srv-${item}`, source: 'user' as const, goal: `obtain ${item}`, context: { count }, urgency: 0.5, safety: { allowed: true }, traits: [] });
      return { planner: htn, plan: (w: PlannerWorld, item: string, count: number) => htn.plan(intent(item, count), w) as PlanResult };
    },
  };
  let last: TestServer | undefined;
  const tally: Record<string, number> = {};
  try {
    for (const [item, count] of goals) {
      const cells: string[] = [];
      for (const [name, make] of Object.entries(planners)) {
        const server = (last = await world.open());
        const bot = instrumentBot(await connectBot(server, { username: `${name}${item.slice(0, 8)}` }));
        await bot.waitForChunksToLoad();
        const { planner, plan } = make();
        const snapshot = () => observeWorld(bot, { positions: focusAround(bot.entity.position, world.radius) });
        const executor = createExecutor({ registry, body: bot, repair: createPlannerRepairHook(planner, snapshot) });
        const t0 = performance.now();
        const held = () => bot.inventory.items().filter((i) => i.name === item).reduce((n, i) => n + i.count, 0);
        // A plan may end before the goal holds (no wood in view: any log, then plan again with it in hand), as a bot's
        // loop would: plan from the snapshot again while the goal does not hold, up to PLAN_ROUNDS plans.
        let previous: { planned: PlanResult; outcome: PlanOutcome | undefined } | undefined;
        let steps = 0;
        let repairs = 0;
        let rounds = 0;
        while (rounds < PLAN_ROUNDS && held() < count && (previous === undefined || previous.outcome?.status === 'completed')) {
          rounds += 1;
          const planned = plan(snapshot(), item, count);
          const outcome = planned.ok ? await executor.run(planned.plan) : undefined;
          steps += planned.ok ? planned.plan.steps.length : 0;
          repairs += outcome?.repairs ?? 0;
          previous = { planned, outcome };
        }
        const verdict = held() >= count ? 'ok' : `✗ ${previous?.outcome?.failure?.code ?? (previous?.planned.ok === false ? previous.planned.failure.code : 'goal not held')}`;
        cells.push(`${name} ${verdict} ${((performance.now() - t0) / 1000).toFixed(1)} s ${rounds} plan(s), ${steps} steps, ${repairs} repairs`);
        tally[name] = (tally[name] ?? 0) + (held() >= count ? 1 : 0);
        await executor.close();
        bot.quit();
        await world.close(server);
      }
      console.log(`server (${kind}): ${item}×${count}: ${cells.join(' | ')}`);
    }
    console.log(`server (${kind}) success: ${Object.entries(tally).map(([name, ok]) => `${name} ${ok}/${goals.length}`).join(', ')}`);
  } finally {
    if (kind === 'placed') await last?.stop();
  }
}

runMain(main);
