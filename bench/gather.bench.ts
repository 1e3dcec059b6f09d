// @sinew/capabilities: the gather-4-logs task through Sinew (registry → executor → gather BT → acceptance)
// vs a hand-written mineflayer + pathfinder script doing the same (find → walk → dig → pick up), on the
// same embedded server in the same run, alternating. Prints the wall-time ratio (target ≤ 1.15) and the
// TTFA p50/p95 of the Sinew steps (target p95 ≤ 100 ms). Rounds: SINEW_BENCH_ROUNDS (default 3).
import { performance } from 'node:perf_hooks';
import { createExecutor, createExecutorMetrics, createMemoryProvenance } from '@sinew/bt-runtime';
import { createStandardRegistry, instrumentBot } from '@sinew/capabilities';
import { connectBot, placeTree, reset, startServer, type TestServer } from '@sinew/testkit';
import type { Bot } from 'mineflayer';
import pathfinderPackage from 'mineflayer-pathfinder';
import type { Entity } from 'prismarine-entity';

const { pathfinder, Movements, goals } = pathfinderPackage;
const ROUNDS = Number(process.env.SINEW_BENCH_ROUNDS ?? 3);
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

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

async function main(): Promise<void> {
  const server = await startServer();
  const sinewTimes: number[] = [];
  const baselineTimes: number[] = [];
  const ttfas: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      // Baseline: a plain bot, pathfinder loaded by hand.
      await freshWorld(server);
      const plain = await connectBot(server, { username: `plain${round}` });
      plain.loadPlugin(pathfinder);
      await onGround(plain);
      let t0 = performance.now();
      await handWritten(plain);
      baselineTimes.push(performance.now() - t0);
      plain.quit();

      // Sinew: the same task as one plan step through the full pipeline.
      await freshWorld(server);
      const bot = instrumentBot(await connectBot(server, { username: `sinew${round}` }));
      await onGround(bot);
      const executor = createExecutor({ registry: createStandardRegistry(), body: bot, metrics: createExecutorMetrics(), provenance: createMemoryProvenance() });
      t0 = performance.now();
      const outcome = await executor.run({
        planId: `bench-${round}`,
        intentId: 'bench',
        steps: [{ stepId: 'gather', type: 'gather', args: { block: 'oak_log', count: LOGS } }],
      });
      sinewTimes.push(performance.now() - t0);
      if (outcome.status !== 'completed') throw new Error(`sinew run failed: ${JSON.stringify(outcome.failure)}`);
      for (const step of outcome.steps) if (step.ttfaMs !== undefined) ttfas.push(step.ttfaMs);
      await executor.close();
      bot.quit();
      console.log(`  round ${round + 1}: sinew ${(sinewTimes.at(-1)! / 1000).toFixed(2)} s, hand-written ${(baselineTimes.at(-1)! / 1000).toFixed(2)} s`);
    }
  } finally {
    await server.stop();
  }
  const median = (values: number[]) => quantile(values, 0.5);
  const ratio = median(sinewTimes) / median(baselineTimes);
  console.log(`gather ${LOGS} logs, ${ROUNDS} rounds (median): sinew ${(median(sinewTimes) / 1000).toFixed(2)} s vs hand-written ${(median(baselineTimes) / 1000).toFixed(2)} s`);
  console.log(`  wall-time ratio sinew / hand-written = ${ratio.toFixed(3)} (target ≤ 1.15) ${ratio <= 1.15 ? 'OK' : 'OVER'}`);
  console.log(`  TTFA p50 ${quantile(ttfas, 0.5).toFixed(1)} ms, p95 ${quantile(ttfas, 0.95).toFixed(1)} ms over ${ttfas.length} steps (target p95 ≤ 100 ms) ${quantile(ttfas, 0.95) <= 100 ? 'OK' : 'OVER'}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
