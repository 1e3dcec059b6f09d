// Time to first action on the embedded server: one bot runs CYCLES plans of real steps — navigate, place_block,
// dig_block, navigate over the drop and back (the chore of bench/fleet.ts), then gather a log, craft planks and sticks — in a fresh world
// each cycle. TTFA is the executor's own figure (first actuator command after dispatch, `StepOutcome.ttfaMs`), not a
// second timer. Prints p50/p95/max overall and per verb. Target (issue 18): p95 ≤ 50 ms over ≥ 50 steps.
// Cycles: SINEW_BENCH_TTFA_CYCLES (default 8: 72 steps).
import { createExecutor, createExecutorMetrics, createMemoryProvenance } from '@sinew/bt-runtime';
import { createStandardRegistry, instrumentBot } from '@sinew/capabilities';
import { connectBot, give, placeTree, reset, startServer } from '@sinew/testkit';
import { chorePlan, ttfaLine } from './fleet.js';
import { quantile, record, runMain } from './harness.js';

const CYCLES = Number(process.env.SINEW_BENCH_TTFA_CYCLES ?? 8);

async function main(): Promise<void> {
  const server = await startServer();
  const bot = instrumentBot(await connectBot(server, { username: 'ttfa' }));
  const executor = createExecutor({ registry: createStandardRegistry(), body: bot, metrics: createExecutorMetrics(), provenance: createMemoryProvenance() });
  const byVerb = new Map<string, number[]>();
  const failures: string[] = [];
  try {
    for (let cycle = 0; cycle < CYCLES; cycle += 1) {
      await reset(server);
      await placeTree(server, server.spawn.offset(5, 0, -4).floored(), { kind: 'oak', height: 4 });
      await give(bot, 'dirt', 1);
      const chore = chorePlan(`chore-${cycle}`, server.spawn.offset(-3, 0, 2).floored());
      const outcome = await executor.run({
        ...chore,
        steps: [
          ...chore.steps,
          { stepId: 'log', type: 'gather', args: { block: 'oak_log', count: 1 } },
          { stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 } },
          { stepId: 'sticks', type: 'craft_item', args: { item: 'stick', count: 4 } },
        ],
      });
      if (outcome.status !== 'completed') failures.push(`${outcome.failedStepId}: ${outcome.failure?.code}`);
      for (const step of outcome.steps) if (step.ttfaMs !== undefined) (byVerb.get(step.verb) ?? byVerb.set(step.verb, []).get(step.verb)!).push(step.ttfaMs);
    }
  } finally {
    await executor.close();
    bot.quit();
    await server.stop();
  }
  for (const [verb, samples] of byVerb) console.log(`  ${verb.padEnd(14)} ${ttfaLine(samples)}`);
  if (failures.length) console.log(`  plans that did not complete: ${failures.join('; ')}`);
  const all = [...byVerb.values()].flat();
  console.log(`  all            ${ttfaLine(all)}`);
  record({ figure: `TTFA p95, ${all.length} real steps of ${byVerb.size} verbs`, unit: 'ms', values: [quantile(all, 0.95)], target: { value: 50 }, digits: 1 });
}

runMain(main);
