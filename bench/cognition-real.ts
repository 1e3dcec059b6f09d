// The busy scene of the cognition bench on the embedded server (`npm run bench cognition -- --real [--minutes N]`):
// flying-squid with 20 wandering animals (the testkit's strolling cows, pigs, sheep and chickens) around one real
// bot, half the run by day and half by night (hostiles spawning near the bot at night), the real Belief Bus fed from
// the bot's entity table by the belief adapter at 5 Hz, the reflex on every ingest tick, the loop (gate → router
// (needs + a slow scripted model) → the real executor on the real bot). Then reaction trials: a zombie spawned three
// blocks from the bot while a model call is in flight, timed from the spawn to the first actuator command after the
// reflex preempted. Wall time throughout: what the server and the machine can hold is part of the figure.
import { performance } from 'node:perf_hooks';
import { attachBelief } from '@sinew/belief/mineflayer';
import { createReflex } from '@sinew/belief';
import { createExecutor } from '@sinew/bt-runtime';
import { createStandardRegistry, instrumentBot, observeWorld, type SinewBot } from '@sinew/capabilities';
import { systemClock } from '@sinew/executor-contracts';
import { createCognition, createLlmPlanner, createNeedsPlanner, createRouter, DEFAULT_ROUTING_RULES, planOutputSchema, withBeliefThreats, type BodyEdge, type CognitionEvent } from '@sinew/planners';
import { focusAround } from '@sinew/planners/minecraft';
import { connectBot, give, setHostileSpawning, setTime, spawnMob, startServer, type TestServer } from '@sinew/testkit';
import { watchBodyEdges } from '../examples/need-wood/src/autonomous/edges.js';
import { loopConfig } from '../packages/planners/test/support/cognition.js';
import { config as llmConfig } from '../packages/planners/test/support/llm.js';
import { quantile, record } from './harness.js';

const ANIMALS = ['cow', 'pig', 'sheep', 'chicken'];
const MODEL_MS = 5_000;

/** The loop on the real bot, its belief adapter and reflex, and counters of what crossed each boundary. */
async function rig(server: TestServer) {
  const bot = instrumentBot(await connectBot(server, { username: 'watcher' })) as SinewBot;
  await give(bot, 'bread', 16);
  await give(bot, 'dirt', 32);
  const registry = createStandardRegistry();
  const executor = createExecutor({ registry, body: bot });
  const reflexEvents: { type: string; at: number }[] = [];
  const reflex = createReflex({ preemptor: executor, onEvent: (e) => reflexEvents.push({ type: e.type, at: performance.now() }) });
  const belief = attachBelief(bot, { reflex });
  const model = { calls: 0, pending: 0 };
  const complete = ({ user }: { user: string }) => {
    model.calls += 1;
    model.pending += 1;
    const steps = [/shelter|night/.test(user) ? { verb: 'pillar_up', args: { height: 3, item: 'dirt' } } : { verb: 'chat', args: { message: 'on it' } }];
    return new Promise<string>((resolve) => setTimeout(() => ((model.pending -= 1), resolve(JSON.stringify({ steps }))), MODEL_MS));
  };
  const openGate = { threshold: 0, weights: { salience: 1, drivePressure: 0, arcHot: 0, relStakes: 0, fatigue: 0 }, cooldownMs: 0, trivialEvents: [] };
  const llm = createLlmPlanner({ complete, config: llmConfig({ outputSchema: planOutputSchema(registry), gate: openGate }), registry });
  const needs = createNeedsPlanner({ seed: 26 });
  const router = createRouter({ planners: [needs, llm], rules: DEFAULT_ROUTING_RULES });
  const events: CognitionEvent[] = [];
  const observe = () => withBeliefThreats(observeWorld(bot, { positions: focusAround(bot.entity.position, 3) }), belief.bus.threats());
  const signals = (listener: (edge: { tick: number; edge: BodyEdge }) => void) => watchBodyEdges(bot, 500, (edge) => listener({ tick: belief.bus.lastTickId ?? 0, edge }));
  const cognition = createCognition({ router, needs, config: loopConfig({ maxPlansInFlight: 2 }), executor, observe, clock: systemClock, belief, signals, onEvent: (e) => events.push(e) });
  const perception = { messages: 0, deltaMessages: 0, deltas: 0, newThreats: 0 };
  belief.on('message', (message) => {
    perception.messages += 1;
    if (message.kind !== 'deltas') return;
    perception.deltaMessages += 1;
    perception.deltas += message.deltas.length;
    perception.newThreats += message.deltas.filter((d) => d.type === 'new_threat').length;
  });
  const commands: number[] = [];
  bot.sinew.onActuate(() => commands.push(performance.now()));
  const ticks: number[] = [];
  belief.on('tick', () => ticks.push(performance.now()));
  return { bot, executor, reflex, reflexEvents, belief, cognition, model, events, perception, commands, ticks };
}
type Rig = Awaited<ReturnType<typeof rig>>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const gates = (events: readonly CognitionEvent[]) => events.filter((e): e is Extract<CognitionEvent, { type: 'cognition.gate' }> => e.type === 'cognition.gate');

type Herd = Awaited<ReturnType<typeof spawnMob>>[];

/** Animal `i` of the herd strolling in a ring 6–20 blocks from `centre`, on its own seed. */
function spawnAnimal(server: TestServer, centre: { x: number; y: number; z: number }, i: number) {
  const angle = ((i * 7) % 20) / 20 * 2 * Math.PI;
  const r = 6 + (i % 5) * 3.5;
  return spawnMob(server, ANIMALS[i % 4]!, { x: Math.floor(centre.x + Math.cos(angle) * r) + 0.5, y: server.spawn.y, z: Math.floor(centre.z + Math.sin(angle) * r) + 0.5 }, { wander: true, seed: 100 + i });
}

/** 20 animals around the spawn. */
async function populate(server: TestServer): Promise<Herd> {
  const herd: Herd = [];
  for (let i = 0; i < 20; i += 1) herd.push(await spawnAnimal(server, server.spawn, i));
  return herd;
}

/** Strolls carry animals away over minutes: one farther than 24 blocks from the bot is replaced by a new one near it (a new track). */
async function keepHerd(server: TestServer, herd: Herd, bot: SinewBot, next: { i: number }): Promise<void> {
  for (let k = 0; k < herd.length; k += 1) {
    const at = herd[k]!.entity?.position;
    if (!at || at.distanceTo(bot.entity.position) <= 24) continue;
    herd[k]!.entity?.destroy();
    herd[k] = await spawnAnimal(server, bot.entity.position, (next.i += 1));
  }
}

/** Half the run by day, half by night (time set every second, daylight cycle off); hostiles spawn near the bot at night. */
async function scene(server: TestServer, r: Rig, herd: Herd, minutes: number): Promise<{ ingestHz: number; maxGapMs: number; tracks: number[]; replaced: number }> {
  const runMs = minutes * 60_000;
  const started = performance.now();
  const tracks: number[] = [];
  const next = { i: herd.length };
  let night = false;
  while (performance.now() - started < runMs) {
    if (r.ticks.length > 0) tracks.push(r.belief.bus.tracks().length); // from the first ingest tick on
    if (tracks.length % 10 === 0) await keepHerd(server, herd, r.bot, next);
    const share = (performance.now() - started) / runMs;
    if (!night && share >= 0.5) {
      night = true;
      setHostileSpawning(server, { cap: 4, minDistance: 12, maxDistance: 24, intervalTicks: 100 });
    }
    await setTime(server, night ? 14_000 + Math.floor((share - 0.5) * 16_000) : 1_000 + Math.floor(share * 20_000), { daylightCycle: false });
    await sleep(1_000);
  }
  setHostileSpawning(server, false);
  const gaps = r.ticks.slice(1).map((t, i) => t - r.ticks[i]!);
  return { ingestHz: r.ticks.length / (runMs / 1000), maxGapMs: Math.max(...gaps), tracks, replaced: next.i - herd.length };
}

/** A zombie 3 blocks from the bot while a model call is in flight: spawn → the first command after the reflex preempted. */
async function reactions(server: TestServer, r: Rig, trials: number): Promise<{ samples: number[]; seen: number[]; missed: number }> {
  const samples: number[] = [];
  const seen: number[] = []; // spawn → the bot's client sees the zombie (server and protocol, before any Sinew code)
  let missed = 0;
  for (let trial = 0; trial < trials; trial += 1) {
    await r.reflex.idle();
    void r.cognition.ingest({ kind: 'suggestion', tick: r.belief.bus.lastTickId ?? 0, via: 'chat', by: 'alice', text: `please gather some wood ${trial}` });
    for (let wait = 0; r.model.pending === 0 && wait < 50; wait += 1) await sleep(20);
    const p = r.bot.entity.position;
    const preempts = r.reflexEvents.filter((e) => e.type === 'preempt').length;
    const t0 = performance.now();
    let seenAt: number | undefined;
    const onSpawn = (entity: { name?: string }) => void (entity.name === 'zombie' && seenAt === undefined && (seenAt = performance.now()));
    r.bot.on('entitySpawn', onSpawn);
    const zombie = await spawnMob(server, 'zombie', { x: Math.floor(p.x) + 3.5, y: Math.floor(p.y), z: Math.floor(p.z) + 0.5 });
    let command: number | undefined;
    for (let wait = 0; command === undefined && wait < 250; wait += 1) {
      await sleep(10);
      const preempt = r.reflexEvents.filter((e) => e.type === 'preempt')[preempts];
      command = preempt && r.commands.find((at) => at >= preempt.at);
    }
    r.bot.removeListener('entitySpawn', onSpawn);
    if (command !== undefined && r.model.pending > 0) {
      samples.push(command - t0);
      if (seenAt !== undefined) seen.push(seenAt - t0);
    } else missed += command === undefined ? 1 : 0;
    zombie.entity?.destroy();
    await sleep(1_500);
  }
  return { samples, seen, missed };
}

/** Runs the real-server scene and records its figures beside the simulated ones. */
export async function realScene(minutes: number, trials: number): Promise<void> {
  const server = await startServer();
  let r: Rig | undefined;
  try {
    const herd = await populate(server);
    r = await rig(server);
    r.belief.start();
    const held = await scene(server, r, herd, minutes);
    const gate = gates(r.events);
    const open = gate.filter((g) => g.think).length;
    const callsInScene = r.model.calls;
    const tracked = `tracks each second: median ${quantile(held.tracks, 0.5)}, min ${Math.min(...held.tracks)}, max ${Math.max(...held.tracks)}; ${held.replaced} strayed animals replaced near the bot`;
    console.log(`real server, ${minutes} min (${minutes / 2} day + ${minutes / 2} night), ${tracked}: ingest ${held.ingestHz.toFixed(2)} Hz (5 asked), longest gap between ingest ticks ${held.maxGapMs.toFixed(0)} ms; ${r.perception.messages} stream messages (${r.perception.deltaMessages} with deltas, ${r.perception.deltas} deltas, ${r.perception.newThreats} new_threat); gate open ${open}, closed ${gate.length - open}; model calls ${callsInScene}; reflex preemptions ${r.reflex.status().preempts}`);
    record({ figure: 'cognition (real server): model calls, loop vs one per perception event', unit: 'calls', values: [callsInScene], baselines: [r.perception.deltaMessages], digits: 0 });
    record({ figure: 'cognition (real server): model calls per salient delta (new_threat)', unit: 'calls/delta', values: [callsInScene / Math.max(1, r.perception.newThreats)], target: { value: 1 }, digits: 3 });
    record({ figure: 'cognition (real server): gate decisions per minute', unit: '/min', values: [gate.length / minutes], digits: 1 });
    record({ figure: 'cognition (real server): belief ingest rate held', unit: 'Hz', values: [held.ingestHz], digits: 2 });
    const reacted = await reactions(server, r, trials);
    const sorted = [...reacted.samples].sort((a, b) => a - b);
    console.log(`real-server reaction trials: ${trials}; with a model call in flight at the command ${sorted.length}, no reflex command within 2.5 s ${reacted.missed}; p50 ${quantile(sorted, 0.5).toFixed(1)} ms, max ${(sorted.at(-1) ?? Number.NaN).toFixed(1)} ms; of which spawn → the bot's client sees the zombie p50 ${quantile(reacted.seen, 0.5).toFixed(1)} ms, max ${Math.max(...reacted.seen).toFixed(1)} ms`);
    if (sorted.length) record({ figure: 'cognition (real server): zombie spawned → reflex first command, p95, model slow', unit: 'ms', values: [quantile(sorted, 0.95)], target: { value: 250 }, digits: 1 });
  } finally {
    r?.cognition.close();
    r?.belief.stop();
    await r?.executor.close();
    r?.bot.quit();
    await server.stop();
  }
}
