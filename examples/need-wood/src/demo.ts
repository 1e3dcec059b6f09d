import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createExecutor, createExecutorMetrics, createHtnMetrics, createJsonlProvenance, createMemoryProvenance, createRouterMetrics, type PlanOutcome } from '@sinew/bt-runtime';
import { createStandardRegistry, GATHER_TREE, observeWorld, sinew, type SinewBot } from '@sinew/capabilities';
import { ERROR_CODES, type ErrorCode, type PlanStep, type RepairHook } from '@sinew/executor-contracts';
import { attachBelief, attachModes, type AttachedModes, type BeliefAdapter } from '@sinew/belief/mineflayer';
import { createNeedsPlanner, createPlannerRepairHook, createRouter, DEFAULT_ROUTING_RULES, loadOutcomeMemory, OutcomeMemory, withBeliefThreats, type RouteEvent } from '@sinew/planners';
import { createMinecraftHtn, OVERWORLD } from '@sinew/planners/minecraft';
import { createToken, serveSinew, type SinewServer } from '@sinew/server';
import { connectBot, give, spawnMob, startServer } from '@sinew/testkit';
import { buildWorld, intentFor, trackMilestones, type Milestone, type WorldKind } from './story.js';
import { observeAround } from './perception.js';
import { attachTimeline, summaryTable, type TimelineRow } from './timeline.js';

export interface DemoOptions {
  /** Control-plane port (metrics, API, inspector) on 127.0.0.1 (0 = any free port). */
  readonly port: number;
  /** Stay up after the plan (inspector, API, Prometheus) until SIGINT/SIGTERM. */
  readonly keepAlive: boolean;
  /** Where provenance records go (JSON lines). */
  readonly provenancePath: string;
  /** Planner outcome memory file (router priors, HTN method effectiveness), kept across runs; unset = fresh in-process memory. */
  readonly memoryPath?: string;
  /** Wire the planners' precondition repair into the executor (default true); false shows the failure it fixes. */
  readonly repair?: boolean;
  /** Spawn a zombie beside the bot once the first step succeeds: the modes flee from it and the plan resumes. */
  readonly zombie?: boolean;
  /** The item to obtain (default wooden_pickaxe); beyond the wooden pickaxe the placed world is the seeded tech_tree world. */
  readonly goal?: string;
  /** How many of the goal item (default 1). */
  readonly count?: number;
  /** What the bot holds before the plan starts. */
  readonly inventory?: Readonly<Record<string, number>>;
  /** `placed` (default: trees, the tech_tree world) or `terrain` (the testkit's generated world of `seed`). */
  readonly world?: WorldKind;
  /** Seed of the tech_tree world or of the generated terrain (default 1). */
  readonly seed?: number;
  /** Night-time hostile spawning (default off; the CLI turns it on in a generated world). */
  readonly hostiles?: boolean;
  /** The plan's deadline (the intent's `timeBudgetMs`): past it the plan ends `timeout`. Default: none. */
  readonly timeLimitMs?: number;
  readonly out?: NodeJS.WriteStream;
}

export interface DemoResult {
  /** How the plan ended; undefined when no planner could plan. */
  readonly outcome?: PlanOutcome;
  readonly rows: readonly TimelineRow[];
  /** How many of the goal item the bot held at the end. */
  readonly held: number;
  /** Times the bot died during the plan (it respawns and the plan goes on). */
  readonly deaths: number;
  /** Wall milliseconds and server ticks from the plan's start to its end (0 when nothing ran). */
  readonly planMs: number;
  readonly planTicks: number;
  /** When each pickaxe first reached the inventory after the plan started. */
  readonly milestones: readonly Milestone[];
  /** Every router decision of the run (route, planned, fallback, outcome). */
  readonly routeEvents: readonly RouteEvent[];
  /** 0 on success, 3 when no planner could plan, else 10 + the index of the failing step's code in ERROR_CODES. */
  readonly exitCode: number;
}

/** Exit code for a failed plan: 10 + the code's index in the closed ERROR_CODES union (stable, documented). */
export function exitCodeFor(code: ErrorCode | undefined): number {
  if (code === undefined) return 1;
  return 10 + Object.keys(ERROR_CODES).indexOf(code);
}

/** Exit code when no planner could plan the intent (the router's `no_route`). */
export const EXIT_NO_PLAN = 3;

/**
 * Runs the worked example end to end on an embedded server — perception → needs planner → router →
 * HTN → executor with live precondition repair — and prints the timeline and summary.
 */
export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const out = options.out ?? process.stdout;
  const say = (line = ''): void => void out.write(`${line}\n`);
  const started = Date.now();
  const memory = openMemory(options.memoryPath);
  const goal = options.goal ?? 'wooden_pickaxe';
  const count = options.count ?? 1;
  const terrain = options.world === 'terrain';
  const seed = options.seed ?? 1;
  const woodStory = goal === 'wooden_pickaxe' && !terrain && !options.inventory;
  const start = options.inventory ? Object.entries(options.inventory).map(([name, n]) => `${name} ×${n}`).join(', ') : 'empty inventory';

  say(`Sinew demo — ${woodStory ? 'need wood → wooden pickaxe' : `${start} → ${goal} ×${count}`} (needs → router → HTN → executor, live repair)`);
  const server = await startServer({
    // A generated world plays as vanilla does: a fed body heals (the testkit's default keeps health where a test put it).
    ...(terrain ? { world: { generator: 'terrain' as const, seed }, naturalRegeneration: true } : {}),
    ...(options.hostiles ? { hostileSpawning: true } : {}),
  });
  let telemetry: SinewServer | undefined;
  let bot: Awaited<ReturnType<typeof connectBot>> | undefined;
  let executor: ReturnType<typeof createExecutor<SinewBot>> | undefined;
  let belief: BeliefAdapter | undefined;
  let modes: AttachedModes | undefined;
  try {
    const placed = terrain ? `generated terrain, seed ${seed}` : await buildWorld(server, goal, seed);
    say(`  server   flying-squid ${server.version} on ${server.host}:${server.port}, ${placed}${options.hostiles ? ', hostiles at night' : ''}`);
    // A generated world's first spawn generates every column in view (~80): on a loaded machine that outlasts the 20 s default.
    const body = (bot = await connectBot(server, { username: 'sinew', ...(terrain ? { timeoutMs: 120_000 } : {}) }));
    for (const [name, n] of Object.entries(options.inventory ?? {})) await give(body, name, n);
    // Sinew's plugin: actuator commands for the executor's watchdogs, chat, hurts and deaths, all at bot.sinew.
    body.loadPlugin(sinew);
    // Perception: the snapshot plus the blocks around the bot (trees, the crafting table) and the hostiles belief tracks.
    // Up the tech tree the bot walks between trees and ore: repair must see the crafting table it left behind.
    const focus = woodStory ? 6 : 20;
    const registry = createStandardRegistry();
    // A generated world has ores at depth and animals: the HTN plans with its sources and the body's explore/mine/hunt/shear.
    const sources = terrain ? { world: OVERWORLD, verbs: registry.verbs() } : {};
    // One registry for the executor, the belief layer and the router: all of it on /metrics.
    const metrics = createExecutorMetrics();
    const beliefAdapter = attachBelief(body, { registry: metrics.registry });
    belief = beliefAdapter;
    const observe = () => withBeliefThreats(observeAround(body, focus), beliefAdapter.bus.threats());
    const routeEvents: RouteEvent[] = [];
    const routing = createRouterMetrics(metrics.registry, { planners: ['htn', 'needs'] });
    createHtnMetrics(metrics.registry, { memory });
    const needs = createNeedsPlanner({ seed: 42, onThought: (t) => say(`  thought  ${t.text}`) });
    const router = createRouter({
      planners: [createMinecraftHtn({ memory, registry, ...sources }), needs],
      rules: DEFAULT_ROUTING_RULES,
      memory,
      onEvent: (event) => {
        routeEvents.push(event);
        routing.record(event);
        if (event.type === 'route') say(`  route    → ${event.chosen ?? 'none'}: ${event.reason}`);
        else if (event.type === 'fallback') say(`  fallback ${event.from} → ${event.to ?? 'none'}: ${event.reason}`);
      },
    });
    const recent = createMemoryProvenance({ capacity: 200 });
    await mkdir(dirname(options.provenancePath), { recursive: true });
    let print: (line: string) => void = say;
    const repair: RepairHook | undefined =
      options.repair === false
        ? undefined
        : withRepairLog(
            createPlannerRepairHook(router, observe, { onRepair: (e) => void (e.repaired || print(`  ⚠ no repair for ${e.stepId}: ${e.reason}`)) }),
            (line) => print(line),
          );
    executor = createExecutor({
      registry,
      body,
      metrics,
      provenance: [createJsonlProvenance({ path: options.provenancePath }), recent],
      ...(repair ? { repair } : {}),
    });
    // Self-preservation modes beside the plan: a hazard or a hostile preempts the active step, which then resumes.
    modes = attachModes(body, {
      preemptor: executor,
      belief: beliefAdapter,
      onEvent: (e) => {
        if (e.type === 'preempt') print(`  ⚡ ${e.mode}: ${describeStep(e.step)} (${e.reason})`);
        else if (e.type === 'shelter') print(`  ⛰ ${e.mode}: ${e.edge === 'rise' ? 'sheltering, the plan waits' : 'shelter over'} (${e.reason})`);
      },
    });
    beliefAdapter.start();
    if (options.zombie) spawnZombieAfterFirstStep(executor, server, body);
    const token = createToken();
    const control = { executor, bot: body, router, observe, provenance: recent, trees: { gather: GATHER_TREE }, token };
    telemetry = await serveSinew({ ...control, port: options.port, host: '127.0.0.1' }).catch((error: unknown) => {
      const inUse = (error as { code?: string }).code === 'EADDRINUSE';
      throw inUse ? new Error(`port ${options.port} on 127.0.0.1 is taken; pass --port <other> (0 = any free port)`) : error;
    });
    say(`  bot      ${body.username} at ${fmt(body.entity.position)}`);
    say(`  metrics  ${telemetry.url}/metrics   health ${telemetry.url}/api/cognitive/health`);
    say(`  inspect  ${telemetry.url}/#token=${token}   (token ${token})`);
    say(`  trace    ${options.provenancePath}`);
    say(`  memory   ${options.memoryPath ?? 'fresh, in process (--memory <file> keeps outcomes across runs)'}${repair ? '' : '   (repair off: --no-repair)'}`);

    const intent = intentFor(needs.formIntent(observe()), goal, count);
    say(`  intent   "${intent.goal}" urgency ${intent.urgency} traits [${intent.traits.join(', ')}]`);
    const planned = await router.plan(intent, observe());
    if (!planned.ok) {
      say(`  result     ✘ no plan: ${planned.failure.code} — ${planned.failure.reason} (exit ${EXIT_NO_PLAN})`);
      return { rows: [], held: 0, deaths: 0, planMs: 0, planTicks: 0, milestones: [], routeEvents, exitCode: EXIT_NO_PLAN };
    }
    const plan = planned.plan;
    const decision = routeEvents.find((e) => e.type === 'route' && e.intentId === intent.id);
    telemetry.planGenerated({ intentId: intent.id, planner: plan.planner ?? 'router', reason: decision?.reason ?? '', plan });
    say(`  plan     ${plan.planner ?? 'planner'} (${plan.steps.length} steps${woodStory ? ', sticks left to repair' : ''}):`);
    for (const step of plan.steps) say(`             ${step.stepId.padEnd(4)} ${describeStep(step)}`);
    say();
    const timeline = attachTimeline(executor, { out, live: out.isTTY === true });
    print = timeline.print;
    const tracker = trackMilestones(body, server);
    let deaths = 0;
    const onDeath = () => void (deaths += 1);
    body.on('death', onDeath);
    const [planStart, tickStart] = [Date.now(), server.serv?.tickCount ?? 0];
    const outcome = await executor.run(plan, options.timeLimitMs === undefined ? {} : { intent: { ...intent, timeBudgetMs: options.timeLimitMs } });
    body.removeListener('death', onDeath);
    const [planMs, planTicks] = [Date.now() - planStart, (server.serv?.tickCount ?? 0) - tickStart];
    tracker.stop();
    timeline.detach();
    print = say;
    router.recordOutcome(plan.planId, outcome.status === 'completed');
    const recorded = routeEvents.find((e) => e.type === 'outcome' && e.planId === plan.planId);
    if (recorded) say(`  router   ${recorded.reason}`);

    const held = body.inventory.items().filter((i) => i.name === goal).reduce((n, i) => n + i.count, 0);
    say();
    say(summaryTable(timeline.rows));
    const inventory = Object.entries(observeWorld(body).inventory)
      .map(([name, count]) => `${name} ×${count}`)
      .join(', ');
    say(`  inventory  ${inventory || '(empty)'}`);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    let exitCode = 0;
    const tally = `${timeline.rows.length} steps, ${outcome.repairs} repair${outcome.repairs === 1 ? '' : 's'}, ${deaths} death${deaths === 1 ? '' : 's'}`;
    if (outcome.status === 'completed' && held >= count) {
      say(`  result     ✔ ${goal} ×${held} in ${seconds} s (${tally})`);
    } else {
      exitCode = outcome.status === 'completed' ? 1 : exitCodeFor(outcome.failure?.code);
      say(`  result     ✘ ${outcome.failedStepId ?? 'plan'} failed: ${outcome.failure?.code ?? outcome.status} — ${outcome.failure?.reason ?? `holds ${goal} ×${held} of ${count}`} after ${seconds} s (${tally}; exit ${exitCode})`);
    }
    if (options.keepAlive) {
      say(`  keep-alive: inspector ${telemetry.url}/#token=${token} — Ctrl-C to stop`);
      // flying-squid's exit hook ends the process on Ctrl-C (exit 130); elsewhere these resolve and clean up.
      await new Promise<void>((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      });
    }
    return { outcome, rows: timeline.rows, held, deaths, planMs, planTicks, milestones: tracker.milestones, routeEvents, exitCode };
  } finally {
    modes?.detach();
    belief?.stop();
    await modes?.idle();
    await telemetry?.close();
    await executor?.close();
    bot?.quit();
    await server.stop();
  }
}

/** Once the first plan step succeeds, a zombie (short follow range) appears 4 blocks from the bot. */
function spawnZombieAfterFirstStep(executor: { on(event: 'step.succeeded', listener: () => void): () => void }, server: Parameters<typeof spawnMob>[0], body: { entity: { position: { x: number; y: number; z: number } } }): void {
  const off = executor.on('step.succeeded', () => {
    off();
    const p = body.entity.position;
    void spawnMob(server, 'zombie', { x: p.x + 4, y: server.spawn.y, z: p.z + 1 }, { speed: 1, followRange: 6, attackDamage: 1 }).catch(() => undefined);
  });
}

/** The planner memory: a fresh one per run unless a file is named (then loaded, and saved on each outcome). */
function openMemory(path: string | undefined): OutcomeMemory {
  if (path === undefined) return new OutcomeMemory();
  const loaded = loadOutcomeMemory(path);
  // A corrupt memory file is the user's to fix or delete; say which file and why rather than planning blind.
  if (!loaded.ok) throw new Error(`planner memory ${loaded.error.path}: ${loaded.error.code}: ${loaded.error.reason}`);
  return loaded.memory;
}

/** Prints each repair the hook answers: the failed step, what was missing and the subgoal steps it inserts. */
function withRepairLog(hook: RepairHook, print: (line: string) => void): RepairHook {
  return {
    async repair(request) {
      const response = await hook.repair(request);
      if (response && response.steps.length > 0) {
        const { missing, unmet, code } = request.failure;
        const why = missing?.length ? `missing ${missing.join(', ')}` : unmet?.length ? `${code}: ${unmet.join(', ')}` : code;
        const then = response.replace ? `instead of ${request.step.stepId}` : `then retry ${request.step.stepId}`;
        print(`  ⚒ repair ${request.step.stepId} (${why}): ${response.steps.map(describeStep).join(' → ')}, ${then}`);
      }
      return response;
    },
  };
}

function describeStep(step: Pick<PlanStep, 'type' | 'args'>): string {
  const args = Object.entries(step.args).map(([key, value]) => `${key}=${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
  return `${step.type}${args.length ? ` ${args.join(' ')}` : ''}`;
}

function fmt(position: { x: number; y: number; z: number }): string {
  return `${position.x.toFixed(1)}, ${position.y.toFixed(1)}, ${position.z.toFixed(1)}`;
}
