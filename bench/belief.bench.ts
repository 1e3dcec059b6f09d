// @sinew/belief benchmarks: ingest cost per tick (16/64/256 entities), the mineflayer adapter's whole tick
// against bare ingest, and deltas per tick in a stable 64-entity scene after warmup, each beside a baseline
// measured in the same run (bench/harness.ts: warm-up, 7 alternating rounds). Target (issue 18): ingest ≤ 1.0× the
// naive per-entity serialization at 64 and 256 entities; 0 deltas per tick in the stable scene.
import { performance } from 'node:perf_hooks';
import { createBeliefBus, type EvidenceBatch, type EvidenceItem } from '@sinew/belief';
import { attachBelief, evidenceFromBot, type EntityLike, type Scheduler } from '@sinew/belief/mineflayer';
import { prng } from '../packages/belief/test/helpers.js';
import { compare, record } from './harness.js';

const CLASSES = ['zombie', 'skeleton', 'cow', 'pig', 'sheep', 'creeper'];
const OBSERVER = { x: 0, y: 64, z: 0 };

/** `n` entities 3 blocks apart: a quarter walk ±1.2 blocks (if `walkers`), a quarter pace ±0.4 blocks, the rest stand (±0.02 jitter). */
function scene(n: number, ticks: number, seed: number, walkers = true): EvidenceBatch[] {
  const rand = prng(seed);
  const side = Math.ceil(Math.sqrt(n));
  const base = Array.from({ length: n }, (_, i) => ({
    cls: CLASSES[i % CLASSES.length]!,
    x: ((i % side) - side / 2) * 3 + 0.5,
    z: (Math.floor(i / side) - side / 2) * 3 + 0.5,
  }));
  return Array.from({ length: ticks }, (_, tick) => ({
    observer: OBSERVER,
    items: base.map((e, i): EvidenceItem => {
      const mode = i % 4;
      const dx = mode === 0 && walkers ? Math.cos(tick / 20 + i) * 1.2 : mode === 1 ? Math.sin(tick / 3 + i) * 0.4 : 0;
      return {
        cls: e.cls,
        hostile: e.cls === 'zombie' || e.cls === 'skeleton' || e.cls === 'creeper',
        hint: String(100 + i),
        position: { x: e.x + dx + (rand() * 2 - 1) * 0.02, y: 64 + (rand() * 2 - 1) * 0.02, z: e.z + (rand() * 2 - 1) * 0.02 },
      };
    }),
  }));
}

/** The seed's "one observation per entity" path: one POST body per entity per tick. */
function naiveEmit(batch: EvidenceBatch): number {
  let bytes = 0;
  for (const item of batch.items) {
    bytes += JSON.stringify({ type: 'environmental_awareness', metadata: { entityType: item.cls, entityId: item.hint, position: item.position, botPosition: batch.observer } }).length;
  }
  return bytes;
}

console.log('ingest cost per tick (µs, 500 ticks per round after 300 warm-up ticks on a fresh bus; trackCap = entity count)');
for (const n of [16, 64, 256]) {
  const batches = scene(n, 800, n);
  let sink = 0;
  await compare({
    figure: `belief ingest, ${n} entities (vs naive per-entity serialization)`,
    unit: 'µs/tick',
    run: () => {
      const bus = createBeliefBus({ trackCap: Math.max(64, n), maxNewTracksPerTick: n });
      for (let t = 0; t < 300; t += 1) bus.ingest(t + 1, batches[t]!);
      const start = performance.now();
      for (let t = 300; t < 800; t += 1) bus.ingest(t + 1, batches[t]!);
      return ((performance.now() - start) * 1000) / 500;
    },
    baseline: () => {
      const start = performance.now();
      for (let t = 300; t < 800; t += 1) sink += naiveEmit(batches[t]!);
      return ((performance.now() - start) * 1000) / 500;
    },
    ...(n >= 64 ? { target: { ratio: 1 } } : {}),
    digits: 1,
  });
  if (sink < 0) console.log(sink);
}

const idleScheduler: Scheduler = { setInterval: () => 0, clearInterval: () => {} };

console.log('\nadapter tick (500 ticks per round after 300 warm-up; evidence from a bot-shaped entity table, no tick listener)');
for (const n of [64, 256]) {
  const batches = scene(n, 800, n);
  const self: EntityLike = { id: 1, type: 'player', name: 'player', position: OBSERVER };
  // the entity tables a bot would hold on each tick, built before timing
  const tables = batches.map((batch) => {
    const entities: Record<string, EntityLike> = { '1': self };
    for (const item of batch.items) {
      entities[item.hint!] = { id: Number(item.hint), type: item.hostile ? 'hostile' : 'passive', name: item.cls, position: item.position };
    }
    return entities;
  });
  const busConfig = { trackCap: Math.max(64, n), maxNewTracksPerTick: n };
  await compare({
    figure: `belief adapter tick, ${n} entities (vs evidence + bare ingest)`,
    unit: 'µs/tick',
    run: () => {
      const bot = { entity: self, entities: tables[0]! };
      const adapter = attachBelief(bot, { scheduler: idleScheduler, bus: busConfig });
      for (let t = 0; t < 300; t += 1) {
        bot.entities = tables[t]!;
        adapter.tick();
      }
      const start = performance.now();
      for (let t = 300; t < 800; t += 1) {
        bot.entities = tables[t]!;
        adapter.tick();
      }
      return ((performance.now() - start) * 1000) / 500;
    },
    // the same evidence and ingest with nothing around them
    baseline: () => {
      const bus = createBeliefBus({ emitEveryTicks: 5, ...busConfig });
      for (let t = 0; t < 300; t += 1) bus.ingest(t + 1, evidenceFromBot({ entity: self, entities: tables[t]! })!);
      const start = performance.now();
      for (let t = 300; t < 800; t += 1) bus.ingest(t + 1, evidenceFromBot({ entity: self, entities: tables[t]! })!);
      return ((performance.now() - start) * 1000) / 500;
    },
    digits: 1,
  });
}

for (const walkers of [false, true]) {
  console.log(
    walkers
      ? '\ndeltas per tick, busy 64-entity scene (as above plus 16 walkers crossing bucket edges), ticks 100–1100'
      : '\ndeltas per tick, stable 64-entity scene (48 standing ±0.02 jitter, 16 pacing ±0.4 blocks), ticks 100–1100',
  );
  const batches = scene(64, 1100, 7, walkers);
  const bus = createBeliefBus();
  let deltas = 0;
  let messages = 0;
  let naiveObservations = 0;
  let naiveChanged = 0;
  const lastKey = new Map<string, string>();
  batches.forEach((batch, t) => {
    const r = bus.ingest(t + 1, batch);
    if (!r.ok) throw new Error(r.error.message);
    const measured = t >= 100;
    for (const item of batch.items) {
      // a naive change detector: emit when the entity's position rounded to 0.1 block changed
      const key = `${Math.round(item.position.x * 10)},${Math.round(item.position.y * 10)},${Math.round(item.position.z * 10)}`;
      if (measured && lastKey.get(item.hint!) !== key) naiveChanged += 1;
      lastKey.set(item.hint!, key);
    }
    if (!measured) return;
    naiveObservations += batch.items.length;
    for (const m of r.messages) {
      messages += 1;
      if (m.kind === 'deltas') deltas += m.deltas.length;
    }
  });
  const ticks = 1000;
  console.log(`  belief bus: ${(deltas / ticks).toFixed(3)} deltas/tick (${deltas} deltas, ${messages} messages incl. periodic snapshots)`);
  console.log(`  baseline one-observation-per-entity: ${(naiveObservations / ticks).toFixed(1)} observations/tick`);
  console.log(`  baseline naive change detector (0.1-block rounding): ${(naiveChanged / ticks).toFixed(1)} observations/tick`);
  record({
    figure: `belief deltas per tick, ${walkers ? 'busy' : 'stable'} 64-entity scene (vs one observation per entity)`,
    unit: '/tick',
    values: [deltas / ticks],
    baselines: [naiveObservations / ticks],
    ...(walkers ? {} : { target: { value: 0 } }),
    digits: 3,
  });
}
