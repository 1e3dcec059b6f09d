// The cognition loop over a busy scene (issue 26): a simulated belief feed — 24 moving mobs (14 peaceful, 10 hostile),
// 5 minutes of day then 5 of night, evidence at 5 Hz on the injected clock into the real Belief Bus, its deltas and
// snapshots into the real loop (gate → router (needs + a scripted slow model) → the real executor on a small body),
// the real reflex on every ingest tick. Figures, side by side: model calls and deliberations with the loop vs one
// call per perception event; gate decisions per minute; model calls in a stable scene after warmup (target 0);
// reaction from a new close zombie to the reflex's first actuator command while a model call is in flight (≤ 250 ms).
// The scene is simulated (not flying-squid): 24 mobs moving for 10 minutes is not something the embedded server holds
// at a steady rate on a shared machine, and simulated time lets the 10 minutes run in seconds.
import { performance } from 'node:perf_hooks';
import { createBeliefBus, createReflex, type EvidenceBatch, type EvidenceItem } from '@sinew/belief';
import { createExecutor, instrumentMethods } from '@sinew/bt-runtime';
import { ManualClock, mulberry32 } from '@sinew/executor-contracts';
import { createCognition, createLlmPlanner, createNeedsPlanner, createRouter, DEFAULT_ROUTING_RULES, planOutputSchema, withBeliefThreats, type CognitionEvent } from '@sinew/planners';
import { LoopBody, loopConfig, loopRegistry } from '../packages/planners/test/support/cognition.js';
import { config as llmConfig } from '../packages/planners/test/support/llm.js';
import { realScene } from './cognition-real.js';
import { quantile, record, runMain } from './harness.js';

const TICK_MS = 200;
const OBSERVER = { x: 0, y: 64, z: 0 };
const PEACEFUL = ['cow', 'pig', 'sheep', 'chicken'];
const HOSTILE = ['zombie', 'skeleton', 'spider'];

interface Mob { cls: string; hostile: boolean; hint: string; x: number; z: number; heading: number }

/** 24 mobs on seeded random walks in a ring: by day hostiles keep 30–60 blocks away, at night they roam 4–28 (into the threat band). */
function createScene(seed: number, moving: boolean) {
  const rand = mulberry32(seed);
  const mobs: Mob[] = Array.from({ length: 24 }, (_, i) => {
    const hostile = i >= 14;
    const angle = rand() * 2 * Math.PI;
    const r = hostile ? 35 + rand() * 20 : 12 + rand() * 20;
    return { cls: hostile ? HOSTILE[i % 3]! : PEACEFUL[i % 4]!, hostile, hint: `m${i}`, x: Math.cos(angle) * r, z: Math.sin(angle) * r, heading: rand() * 2 * Math.PI };
  });
  return (night: boolean, extra: readonly EvidenceItem[] = []): EvidenceBatch => {
    const items = mobs.map((mob): EvidenceItem => {
      if (moving) step(mob, rand, mob.hostile ? (night ? [4, 28] : [30, 60]) : [8, 32]);
      return { cls: mob.cls, hostile: mob.hostile, hint: mob.hint, position: { x: mob.x + (rand() - 0.5) * 0.04, y: 64, z: mob.z + (rand() - 0.5) * 0.04 } };
    });
    return { observer: OBSERVER, items: [...items, ...extra] };
  };
}

/** One 200 ms step of ~1 block/s, turning a little, kept inside its ring. */
function step(mob: Mob, rand: () => number, [inner, outer]: readonly [number, number]): void {
  mob.heading += (rand() - 0.5) * 0.6;
  mob.x += Math.cos(mob.heading) * 0.2;
  mob.z += Math.sin(mob.heading) * 0.2;
  const r = Math.hypot(mob.x, mob.z);
  if (r < inner || r > outer) mob.heading = Math.atan2(mob.z, mob.x) + (r < inner ? 0 : Math.PI);
}

/** The loop wired to the real bus, reflex and executor on the injected clock; the model answers after `modelMs` of it. */
function rig(modelMs: number) {
  const clock = new ManualClock(0);
  const body = instrumentMethods(new LoopBody(), ['eat', 'move', 'collect']);
  const registry = loopRegistry();
  const executor = createExecutor({ registry, body, clock });
  const bus = createBeliefBus({ trackCap: 64 });
  const model = { calls: 0, pending: 0 };
  const reply = (user: string) => JSON.stringify({ steps: [/shelter|night/.test(user) ? { verb: 'pillar_up', args: { height: 3, item: 'dirt' } } : { verb: 'gather', args: { block: 'log', count: 2 } }] });
  const complete = ({ user }: { user: string }) => {
    model.calls += 1;
    model.pending += 1;
    return new Promise<string>((resolve) => clock.setTimeout(() => (model.pending -= 1, resolve(reply(user))), modelMs));
  };
  // The loop gates; the model planner's own gate (for callers without a loop) is opened wide here.
  const llm = createLlmPlanner({ complete, config: llmConfig({ outputSchema: planOutputSchema(registry), gate: { threshold: 0, weights: { salience: 1, drivePressure: 0, arcHot: 0, relStakes: 0, fatigue: 0 }, cooldownMs: 0, trivialEvents: [] } }), registry, clock });
  const needs = createNeedsPlanner({ seed: 26 });
  const router = createRouter({ planners: [needs, llm], rules: DEFAULT_ROUTING_RULES });
  const events: CognitionEvent[] = [];
  const cognition = createCognition({ router, needs, config: loopConfig({ maxPlansInFlight: 2 }), executor, observe: () => withBeliefThreats(body.snapshot(), bus.tracks(), 32), clock, onEvent: (e) => events.push(e) });
  const commands: number[] = [];
  body.sinew.onActuate(() => commands.push(performance.now()));
  const reflex = createReflex({ preemptor: executor });
  const perception = { messages: 0, deltaMessages: 0, deltas: 0, newThreats: 0 };
  let tickId = 0;
  let ingestStart = 0;
  async function tick(batch: EvidenceBatch): Promise<void> {
    tickId += 1;
    await clock.advance(TICK_MS);
    ingestStart = performance.now();
    const result = bus.ingest(tickId, batch);
    if (!result.ok) throw new Error(`ingest failed: ${result.error.message}`);
    reflex.tick(tickId, bus.threats());
    for (const message of result.messages) {
      perception.messages += 1;
      if (message.kind === 'deltas') {
        perception.deltaMessages += 1;
        perception.deltas += message.deltas.length;
        perception.newThreats += message.deltas.filter((d) => d.type === 'new_threat').length;
      }
      void cognition.ingest({ kind: 'belief', message });
    }
  }
  return { clock, body, cognition, reflex, model, events, commands, perception, tick, now: () => tickId, ingestStart: () => ingestStart };
}

const gates = (events: readonly CognitionEvent[]) => events.filter((e): e is Extract<CognitionEvent, { type: 'cognition.gate' }> => e.type === 'cognition.gate');

async function busyScene(): Promise<void> {
  const r = rig(2_000);
  const scene = createScene(26, true);
  const ticksPerMinute = 60_000 / TICK_MS;
  for (let t = 0; t < 10 * ticksPerMinute; t += 1) {
    const night = t >= 5 * ticksPerMinute;
    if (t === 5 * ticksPerMinute) {
      r.body.time = 14_000;
      void r.cognition.ingest({ kind: 'body', tick: r.now(), edge: 'night' });
    }
    await r.tick(scene(night));
  }
  await r.clock.advance(5_000);
  const open = gates(r.events).filter((g) => g.think).length;
  const closed = gates(r.events).length - open;
  const half = 5 * ticksPerMinute;
  const byPart = (night: boolean) => gates(r.events).filter((g) => g.think && g.tick > half === night).length;
  console.log(`gate openings by day ${byPart(false)}, by night ${byPart(true)}`);
  console.log(`busy scene, 10 simulated minutes: ${r.perception.messages} stream messages (${r.perception.deltaMessages} with deltas, ${r.perception.deltas} deltas, ${r.perception.newThreats} new_threat); gate open ${open}, closed ${closed}; model calls ${r.model.calls}; reflex preemptions ${r.reflex.status().preempts}`);
  record({ figure: 'cognition: model calls, loop (busy scene, 10 min)', unit: 'calls', values: [r.model.calls], baselines: [r.perception.deltaMessages], digits: 0 });
  record({ figure: 'cognition: model calls per salient delta (new_threat)', unit: 'calls/delta', values: [r.model.calls / Math.max(1, r.perception.newThreats)], target: { value: 1 }, digits: 3 });
  record({ figure: 'cognition: deliberations (gate open) per salient delta', unit: 'opens/delta', values: [open / Math.max(1, r.perception.newThreats)], digits: 3 });
  record({ figure: 'cognition: gate decisions per minute (open + closed)', unit: '/min', values: [(open + closed) / 10], digits: 1 });
  record({ figure: 'cognition: gate openings per minute', unit: '/min', values: [open / 10], digits: 2 });
}

async function stableScene(): Promise<void> {
  const r = rig(2_000);
  const scene = createScene(27, false);
  const warmupTicks = 150;
  let callsAtWarmup = 0;
  let opensAtWarmup = 0;
  for (let t = 0; t < 600; t += 1) {
    if (t === warmupTicks) [callsAtWarmup, opensAtWarmup] = [r.model.calls, gates(r.events).filter((g) => g.think).length];
    await r.tick(scene(false));
  }
  await r.clock.advance(5_000);
  const opens = gates(r.events).filter((g) => g.think).length - opensAtWarmup;
  console.log(`stable scene (24 standing mobs, 2 min, warmup 30 s): gate decisions after warmup ${gates(r.events).length}, openings ${opens}`);
  record({ figure: 'cognition: model calls in a stable scene after warmup', unit: 'calls', values: [r.model.calls - callsAtWarmup], target: { value: 0 }, digits: 0 });
}

/** A zombie appears 3 blocks away at a random moment within a tick, while a slow (5 s) model call is in flight. */
async function reactions(trials: number): Promise<void> {
  const r = rig(5_000);
  const scene = createScene(28, true);
  const rand = mulberry32(29);
  const samples: number[] = [];
  const wall: number[] = []; // the ingest tick that saw the zombie → the body's first command (no waiting for the tick)
  for (let trial = 0; trial < trials; trial += 1) {
    for (let t = 0; t < 30; t += 1) await r.tick(scene(false));
    void r.cognition.ingest({ kind: 'suggestion', tick: r.now(), via: 'chat', by: 'alice', text: 'please gather some wood' });
    await r.tick(scene(false));
    const sinceSpawnMs = rand() * TICK_MS; // the zombie appeared this long before the ingest tick that sees it
    const zombie: EvidenceItem = { cls: 'zombie', hostile: true, hint: `z${trial}`, position: { x: 3, y: 64, z: 0.5 } };
    const before = r.commands.length;
    let ticks = 0;
    do {
      await r.tick(scene(false, [zombie]));
      ticks += 1;
    } while (r.commands.length === before && ticks < 10);
    if (r.commands.length === before) throw new Error(`trial ${trial}: the reflex issued no command`);
    // spawn → the ingest tick that saw it, whole ticks until the reflex acted, then wall time from that ingest to the body's command
    // only trials where the model was still thinking count: that is the case the figure is about
    if (r.model.pending > 0) {
      samples.push(sinceSpawnMs + (ticks - 1) * TICK_MS + (r.commands[before]! - r.ingestStart()));
      wall.push(r.commands[before]! - r.ingestStart());
    }
    await r.reflex.idle();
    for (let t = 0; t < 60; t += 1) await r.tick(scene(false));
  }
  if (samples.length < trials / 2) throw new Error(`a model call was in flight in only ${samples.length} of ${trials} trials`);
  samples.sort((a, b) => a - b);
  console.log(`reaction trials: ${trials}, a model call in flight at the command in ${samples.length}; p50 ${quantile(samples, 0.5).toFixed(1)} ms, max ${samples.at(-1)!.toFixed(1)} ms; of which ingest → command (wall) p95 ${quantile(wall.sort((a, b) => a - b), 0.95).toFixed(2)} ms`);
  record({ figure: 'cognition: new close threat → reflex first command, p95, model slow', unit: 'ms', values: [quantile(samples, 0.95)], target: { value: 250 }, digits: 1 });
}

/** `--real` also runs the scene on the embedded server (`--minutes N`, default 10), its figures beside the simulated ones. */
function realOptions(argv: readonly string[]): { minutes: number } | undefined {
  if (!argv.includes('--real')) return undefined;
  const at = argv.indexOf('--minutes');
  const minutes = at === -1 ? 10 : Number(argv[at + 1]);
  if (!(minutes > 0 && minutes <= 60)) throw new Error(`--minutes needs a number of minutes in (0, 60], got ${argv[at + 1]}`);
  return { minutes };
}

runMain(async () => {
  const real = realOptions(process.argv.slice(2));
  const trials = Number(process.env.SINEW_BENCH_COGNITION_TRIALS ?? 30);
  await busyScene();
  await stableScene();
  await reactions(trials);
  if (real) await realScene(real.minutes, Math.min(trials, 12));
});
