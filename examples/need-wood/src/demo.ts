import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createExecutor, createMetrics, jsonlProvenance, serveTelemetry, type PlanOutcome, type TelemetryServer } from '@sinew/bt-runtime';
import { createStandardRegistry, instrumentBot, observeWorld } from '@sinew/capabilities';
import { ERROR_CODES, type ErrorCode, type RepairHook } from '@sinew/executor-contracts';
import { connectBot, placeTree, startServer } from '@sinew/testkit';
import { NEED_WOOD, fixedNeedWoodPlan, type PlanSource } from './plan.js';
import { attachTimeline, summaryTable, type TimelineRow } from './timeline.js';

export interface DemoOptions {
  /** Telemetry port on 127.0.0.1 (0 = any free port). */
  readonly port: number;
  /** Stay up after the plan (for Prometheus) until SIGINT/SIGTERM. */
  readonly keepAlive: boolean;
  /** Where provenance records go (JSON lines). */
  readonly provenancePath: string;
  readonly planSource?: PlanSource;
  /** The executor's repair hook (a planner's `repair`), for live precondition repair. */
  readonly repair?: RepairHook;
  readonly out?: NodeJS.WriteStream;
}

export interface DemoResult {
  readonly outcome: PlanOutcome;
  readonly rows: readonly TimelineRow[];
  readonly pickaxes: number;
  /** 0 on success, else 10 + the index of the failing step's code in ERROR_CODES. */
  readonly exitCode: number;
}

// Trees a few blocks from spawn, so "gather logs" has to find, walk, dig and collect.
const TREES = [
  { x: 6, z: 3 },
  { x: -5, z: 7 },
  { x: 4, z: -8 },
] as const;

/** Exit code for a failed plan: 10 + the code's index in the closed ERROR_CODES union (stable, documented). */
export function exitCodeFor(code: ErrorCode | undefined): number {
  if (code === undefined) return 1;
  return 10 + Object.keys(ERROR_CODES).indexOf(code);
}

/** Runs the worked example end to end on an embedded server and prints the timeline and summary. */
export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const out = options.out ?? process.stdout;
  const planSource = options.planSource ?? fixedNeedWoodPlan;
  const say = (line = '') => out.write(`${line}\n`);
  const started = Date.now();

  say('Sinew demo — need wood → wooden pickaxe');
  const server = await startServer();
  let telemetry: TelemetryServer | undefined;
  let bot: Awaited<ReturnType<typeof connectBot>> | undefined;
  let executor: ReturnType<typeof createExecutor<ReturnType<typeof instrumentBot>>> | undefined;
  try {
    for (const { x, z } of TREES) await placeTree(server, server.spawn.offset(x, 0, z).floored(), { kind: 'oak', height: 5 });
    say(`  server   flying-squid ${server.version} on ${server.host}:${server.port}, ${TREES.length} oak trees`);
    const body = instrumentBot((bot = await connectBot(server, { username: 'sinew' })));
    const registry = createStandardRegistry();
    const metrics = createMetrics();
    await mkdir(dirname(options.provenancePath), { recursive: true });
    executor = createExecutor({
      registry,
      body,
      metrics,
      provenance: jsonlProvenance({ path: options.provenancePath }),
      ...(options.repair ? { repair: options.repair } : {}),
    });
    telemetry = await serveTelemetry({ executor, port: options.port, host: '127.0.0.1' }).catch((error: unknown) => {
      const inUse = (error as { code?: string }).code === 'EADDRINUSE';
      throw inUse ? new Error(`port ${options.port} on 127.0.0.1 is taken; pass --port <other> (0 = any free port)`) : error;
    });
    say(`  bot      ${body.username} at ${fmt(body.entity.position)}`);
    say(`  metrics  ${telemetry.url}/metrics   health ${telemetry.url}/api/cognitive/health`);
    say(`  trace    ${options.provenancePath}`);

    const plan = await planSource({ intent: NEED_WOOD, world: observeWorld(body) });
    say(`  plan     ${plan.planner ?? 'planner'}: ${plan.steps.map((s) => s.type).join(' → ')}`);
    say();
    const timeline = attachTimeline(executor, { out, live: out.isTTY === true });
    const outcome = await executor.run(plan);
    timeline.detach();

    const pickaxes = body.inventory.items().filter((i) => i.name === 'wooden_pickaxe').reduce((n, i) => n + i.count, 0);
    say();
    say(summaryTable(timeline.rows));
    const inventory = Object.entries(observeWorld(body).inventory)
      .map(([name, count]) => `${name} ×${count}`)
      .join(', ');
    say(`  inventory  ${inventory || '(empty)'}`);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    let exitCode = 0;
    if (outcome.status === 'completed' && pickaxes > 0) {
      say(`  result     ✔ wooden_pickaxe ×${pickaxes} in ${seconds} s`);
    } else {
      exitCode = exitCodeFor(outcome.failure?.code);
      say(`  result     ✘ ${outcome.failedStepId ?? 'plan'} failed: ${outcome.failure?.code ?? outcome.status} — ${outcome.failure?.reason ?? 'no pickaxe'} (exit ${exitCode})`);
    }
    if (options.keepAlive) {
      say(`  keep-alive: serving ${telemetry.url}/metrics — Ctrl-C to stop`);
      // flying-squid's exit hook ends the process on Ctrl-C (exit 130); elsewhere these resolve and clean up.
      await new Promise<void>((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      });
    }
    return { outcome, rows: timeline.rows, pickaxes, exitCode };
  } finally {
    await telemetry?.close();
    await executor?.close();
    bot?.quit();
    await server.stop();
  }
}

function fmt(position: { x: number; y: number; z: number }): string {
  return `${position.x.toFixed(1)}, ${position.y.toFixed(1)}, ${position.z.toFixed(1)}`;
}
