// @sinew/capabilities: the gather-4-logs task through Sinew (registry → executor → gather BT → acceptance)
// vs a hand-written mineflayer + pathfinder script doing the same (find → walk → dig → pick up), on the
// same embedded server in the same run, alternating (which goes first swaps every round; a fresh world and a fresh bot
// each time). One warm-up round, then SINEW_BENCH_ROUNDS rounds (default 5): wall seconds as median (min–max), no
// round dropped, and the ratio of medians. Target (issue 18): ≤ 1.05. TTFA has its own bench (ttfa.bench.ts).
import { performance } from 'node:perf_hooks';
import { createExecutor, createExecutorMetrics, createMemoryProvenance } from '@sinew/bt-runtime';
import { createStandardRegistry, instrumentBot } from '@sinew/capabilities';
import { connectBot, placeTree, reset, startServer, type TestServer } from '@sinew/testkit';
import type { Bot } from 'mineflayer';
import pathfinderPackage from 'mineflayer-pathfinder';
import type { Entity } from 'prismarine-entity';
import { compare, runMain } from './harness.js';

const { pathfinder, Movements, goals } = pathfinderPackage;
const ROUNDS = Number(process.env.SINEW_BENCH_ROUNDS ?? 5);
const LOGS = 4;
const TREES = [
  { x: 6, z: 3 },
  { x: -5, z: 6 },
] as const;

async function freshWorld(server: TestServer): Promise<void> {
  await reset(server);
  for (const { x, z } of TREES) await placeTree(server, server.spawn.offset(x, 0, z).floored(), { kind: 'oak', height: 5 });
}

async function onGround(bot: Bot): Promise<void> {
  for (let i = 0; i < 100 && !bot.entity.onGround; i += 1) await new Promise((r) => setTimeout(r, 20));
}

const logCount = (bot: Bot) => bot.inventory.items().filter((i) => i.name === 'oak_log').reduce((n, i) => n + i.count, 0);

/** The hand-written script: what a bot author writes without Sinew. */
async function handWritten(bot: Bot): Promise<void> {
  const movements = new Movements(bot);
  movements.canDig = false;
  movements.allow1by1towers = false;
  bot.pathfinder.setMovements(movements);
  const logId = bot.registry.blocksByName.oak_log!.id;
  const start = logCount(bot);
  while (logCount(bot) - start < LOGS) {
    const block = bot.findBlock({ matching: logId, maxDistance: 48 });
    if (!block) throw new Error('baseline: no log found');
    const eye = bot.entity.position.offset(0, 1.62, 0);
    if (eye.distanceTo(block.position.offset(0.5, 0.5, 0.5)) > 4.2) {
      await bot.pathfinder.goto(new goals.GoalNear(block.position.x, bot.entity.position.y, block.position.z, 2));
    }
    await onGround(bot);
    await bot.dig(block, true);
    // Wait for the drop, walk onto it, wait for the pickup.
    let drop: Entity | undefined;
    for (let i = 0; i < 20 && !drop; i += 1) {
      drop = Object.values(bot.entities).find((e) => e.name === 'item' && e.position.distanceTo(block.position) < 3);
      if (!drop) await new Promise((r) => setTimeout(r, 50));
    }
    if (!drop) continue;
    const before = logCount(bot);
    await bot.pathfinder.goto(new goals.GoalNear(drop.position.x, drop.position.y, drop.position.z, 1)).catch(() => undefined);
    for (let i = 0; i < 30 && logCount(bot) === before; i += 1) await new Promise((r) => setTimeout(r, 50));
  }
}

/** One baseline round: a plain bot, pathfinder loaded by hand → wall seconds. */
async function baselineRound(server: TestServer, round: number): Promise<number> {
  await freshWorld(server);
  const plain = await connectBot(server, { username: `plain${round + 1}` });
  plain.loadPlugin(pathfinder);
  await onGround(plain);
  const t0 = performance.now();
  await handWritten(plain);
  const seconds = (performance.now() - t0) / 1000;
  plain.quit();
  return seconds;
}

/** One Sinew round: the same task as one plan step through the full pipeline → wall seconds. */
async function sinewRound(server: TestServer, round: number): Promise<number> {
  await freshWorld(server);
  const bot = instrumentBot(await connectBot(server, { username: `sinew${round + 1}` }));
  await onGround(bot);
  const executor = createExecutor({ registry: createStandardRegistry(), body: bot, metrics: createExecutorMetrics(), provenance: createMemoryProvenance() });
  const t0 = performance.now();
  const outcome = await executor.run({
    planId: `bench-${round}`,
    intentId: 'bench',
    steps: [{ stepId: 'gather', type: 'gather', args: { block: 'oak_log', count: LOGS } }],
  });
  const seconds = (performance.now() - t0) / 1000;
  if (outcome.status !== 'completed') throw new Error(`sinew run failed: ${JSON.stringify(outcome.failure)}`);
  await executor.close();
  bot.quit();
  return seconds;
}

async function main(): Promise<void> {
  const server = await startServer();
  try {
    await compare({
      figure: `gather ${LOGS} logs, Sinew (vs hand-written mineflayer)`,
      unit: 's',
      run: (round) => sinewRound(server, round),
      baseline: (round) => baselineRound(server, round),
      rounds: ROUNDS,
      target: { ratio: 1.05 },
    });
  } finally {
    await server.stop();
  }
}

runMain(main);
