/**
 * One named test per acceptance check of seed 003 §9 that applies to this package.
 * Pivots 1 (tick cadence, adapter level) and 5 (bypass tripwire) live in adapter.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  applyStream,
  consumerView,
  createBeliefBus,
  createReflex,
  DeltaTypeSchema,
  initialConsumerState,
  type EvidenceBatch,
  type StreamMessage,
} from '@sinew/belief';
import { canonicalizeEvidence } from '../src/evidence.js';
import { FakePreemptor, flush } from './fake-preemptor.js';
import { batchOf, ORIGIN, prng, shuffled, stableScene } from './helpers.js';

describe('seed 003 §9 construction pivots', () => {
  it('§9 pivot 1 (tick cadence): the bus marks a closing hostile as a threat on the same ingest tick', () => {
    const bus = createBeliefBus();
    for (let tick = 1; tick <= 5; tick += 1) bus.ingest(tick, { observer: ORIGIN, items: [{ cls: 'zombie', hostile: true, hint: 'z', position: { x: 12, y: 64, z: 0 } }] });
    expect(bus.threats()[0]!.threat).toBe(false);
    bus.ingest(6, { observer: ORIGIN, items: [{ cls: 'zombie', hostile: true, hint: 'z', position: { x: 9.5, y: 64, z: 0 } }] });
    bus.ingest(7, { observer: ORIGIN, items: [{ cls: 'zombie', hostile: true, hint: 'z', position: { x: 6, y: 64, z: 0 } }] });
    // one tick (200 ms) after the evidence, the TrackSet the reflex reads already says so
    expect(bus.threats()[0]).toMatchObject({ threat: true, visibility: 'visible' });
    expect(bus.hazards().regions.length).toBe(1);
  });

  it('§9 pivot 2 (integer buckets): positions with ±0.02 noise map to the same keys and produce no deltas', () => {
    const bus = createBeliefBus();
    const rand = prng(2);
    // one entity sits on a distance-bucket edge (8 blocks) right where unit rounding flips, one on another unit edge
    const scene = [
      { id: 1, cls: 'cow', hostile: false, x: 8 - 1 / 32, y: 64, z: 0 }, // 127.5 units: rounding flips across the 8-block edge
      { id: 2, cls: 'zombie', hostile: true, x: -11.03125, y: 64, z: 3.5 },
      ...stableScene(30, 2),
    ];
    const keys = new Set<string>();
    let hash = '';
    let deltas = 0;
    for (let tick = 1; tick <= 200; tick += 1) {
      const batch = batchOf(scene, rand, 0.02);
      const r = bus.ingest(tick, batch);
      if (!r.ok) throw new Error(r.error.message);
      if (tick > bus.config.warmupTicks + bus.config.emitEveryTicks) {
        deltas += r.messages.filter((m) => m.kind === 'deltas').length;
        keys.add(JSON.stringify(r.assignments) + JSON.stringify(bus.publishedView()));
        if (!hash) hash = bus.stateHash();
        expect(bus.stateHash()).toBe(hash);
      }
    }
    expect(keys.size).toBe(1); // same track keys and bucketed view on every tick
    expect(deltas).toBe(0);
    // canonical evidence is integers only: no toFixed strings, no floats
    const canonical = canonicalizeEvidence(batchOf(scene, rand), bus.config.unitsPerBlock);
    for (const e of canonical) for (const v of [e.x, e.y, e.z]) expect(Number.isInteger(v)).toBe(true);
  });

  it('§9 pivot 3 (deterministic track ids): replaying the same EvidenceBatch stream yields identical delta bytes', () => {
    const rand = prng(3);
    const scene = stableScene(40, 3);
    const stream: EvidenceBatch[] = [];
    for (let tick = 0; tick < 150; tick += 1) {
      for (const [i, e] of scene.entries()) if (i % 5 === 0) e.x += Math.sin(tick / 9 + i) * 0.7;
      stream.push(batchOf(tick % 37 < 30 ? scene : scene.slice(5), rand));
    }
    const replay = (batches: readonly EvidenceBatch[]) => {
      const bus = createBeliefBus();
      const out: StreamMessage[] = [];
      batches.forEach((b, i) => {
        const r = bus.ingest(i + 1, b);
        if (r.ok) out.push(...r.messages);
      });
      return { bytes: JSON.stringify(out), ids: bus.tracks().map((t) => t.trackId), hash: bus.stateHash() };
    };
    const first = replay(stream);
    const second = replay(stream);
    const reordered = replay(stream.map((b) => ({ ...b, items: shuffled(b.items, rand) })));
    expect(second).toEqual(first);
    expect(reordered).toEqual(first);
    expect(first.bytes).toMatch(/"deltas"/);
  });

  it('§9 pivot 4 (stream contract): out-of-order delivery neither regresses nor hallucinates', () => {
    const bus = createBeliefBus({ cooldownTicks: 5 });
    const rand = prng(4);
    const messages: StreamMessage[] = [];
    const scene = stableScene(12, 4);
    for (let tick = 1; tick <= 160; tick += 1) {
      const present = scene.filter((_, i) => Math.floor(tick / 20 + i) % 3 !== 0); // tracks appear and get lost
      const r = bus.ingest(tick, batchOf(present, rand));
      if (r.ok) messages.push(...r.messages);
    }
    expect(messages.some((m) => m.kind === 'deltas' && m.deltas.some((d) => d.type === 'track_lost'))).toBe(true);
    // deliver with random local reordering and duplicates; check the view after every message
    const network = shuffledWindows(messages, rand, 3).flatMap((m, i) => (i % 7 === 0 ? [m, m] : [m]));
    const producerIds = new Set<number>();
    for (const m of messages) if (m.kind === 'snapshot') m.tracks.forEach((t) => producerIds.add(t.trackId));
    for (const m of messages) if (m.kind === 'deltas') m.deltas.forEach((d) => producerIds.add(d.trackId));
    let state = initialConsumerState();
    let lastSeq = 0;
    for (const m of network) {
      state = applyStream(state, m).state;
      expect(state.seq).toBeGreaterThanOrEqual(lastSeq); // never regresses
      lastSeq = state.seq;
      for (const id of state.tracks.keys()) expect(producerIds.has(id)).toBe(true); // never invents a track
    }
    expect(consumerView(state)).toEqual(bus.publishedView());
  });

  it('§9 pivot 6 (reflex arbitration): a sustained threat gets one controller at a time for the whole override', async () => {
    const preemptor = new FakePreemptor('manual');
    const bus = createBeliefBus();
    const reflex = createReflex({ preemptor, config: { holdTicks: 10 } });
    const control: boolean[] = [];
    for (let tick = 1; tick <= 60; tick += 1) {
      const x = tick <= 40 ? 4 : 4 + (tick - 40) * 1.5; // stays close for 40 ticks, then leaves
      bus.ingest(tick, { observer: ORIGIN, items: [{ cls: 'zombie', hostile: true, hint: 'z', position: { x, y: 64, z: 0 } }] });
      reflex.tick(tick, bus.threats());
      control.push(reflex.inControl());
      // the executor takes 3 ticks per fast-path step
      if (tick % 3 === 0) preemptor.calls.at(-1)?.settle();
      await flush();
    }
    expect(preemptor.maxConcurrent).toBe(1);
    expect(preemptor.calls.every((c) => c.concurrent === 0)).toBe(true);
    const firstOn = control.indexOf(true);
    const lastOn = control.lastIndexOf(true);
    expect(control.slice(firstOn, lastOn + 1).every(Boolean)).toBe(true); // no flapping in between
    expect(lastOn).toBeLessThan(59); // released once the threat left and the hold expired
    expect(preemptor.calls.map((c) => c.steps[0]!.type)).toContain('attack_entity'); // cornered after repeated flees
  });

  it('§9 pivot 7 (stage separation): stage 1 yields stable sparse deltas with no active sensing or learning', () => {
    expect(DeltaTypeSchema.options).toEqual(['new_threat', 'track_lost', 'reclassified', 'new_track', 'threat_cleared', 'distance_changed']);
    const bus = createBeliefBus();
    const rand = prng(7);
    const scene = stableScene(64, 7);
    let perTick = 0;
    for (let tick = 1; tick <= 200; tick += 1) {
      const r = bus.ingest(tick, batchOf(scene, rand));
      if (r.ok && tick > 20) perTick += r.messages.filter((m) => m.kind === 'deltas').reduce((s, m) => s + (m.kind === 'deltas' ? m.deltas.length : 0), 0);
    }
    expect(perTick).toBe(0);
  });

  it('§9 pivot 8 (hazard exclusion): hazards never enter the state hash and stay bounded', () => {
    const a = createBeliefBus();
    const b = createBeliefBus();
    const hashes = new Set<string>();
    const hazardShapes = new Set<string>();
    for (let tick = 1; tick <= 300; tick += 1) {
      // a hostile circles the bot at 5 blocks: distance bucket constant, hazard cell changes all the time
      const angle = tick / 5;
      const zombie = { cls: 'zombie', hostile: true, hint: 'z', position: { x: 5 * Math.cos(angle), y: 64, z: 5 * Math.sin(angle) } };
      a.ingest(tick, { observer: ORIGIN, items: [zombie] });
      b.ingest(tick, { observer: ORIGIN, items: [{ ...zombie, position: { x: 5, y: 64, z: 0 } }] });
      hashes.add(a.stateHash());
      hazardShapes.add(JSON.stringify(a.hazards().regions));
      expect(a.stateHash()).toBe(b.stateHash());
    }
    expect(hazardShapes.size).toBeGreaterThan(3);
    expect(hashes.size).toBe(1);
    const crowd = createBeliefBus({ trackCap: 256, maxNewTracksPerTick: 256, maxHazardRegions: 16 });
    crowd.ingest(1, {
      observer: ORIGIN,
      items: Array.from({ length: 200 }, (_, i) => ({ cls: 'zombie', hostile: true, hint: `${i}`, position: { x: (i % 20) - 10, y: 64, z: Math.floor(i / 20) - 5 } })),
    });
    const regions = crowd.hazards().regions;
    expect(regions.length).toBeLessThanOrEqual(16);
    const sorted = [...regions].sort((p, q) => q.level - p.level || q.count - p.count || p.cell.x - q.cell.x || p.cell.y - q.cell.y || p.cell.z - q.cell.z);
    expect(regions).toEqual(sorted);
    for (const r of regions) for (const v of [r.cell.x, r.cell.y, r.cell.z, r.level]) expect(Number.isInteger(v)).toBe(true);
  });
});

/** Shuffles each consecutive window of `size` messages (bounded network reordering). */
function shuffledWindows<T>(items: readonly T[], rand: () => number, size: number): T[] {
  const out: T[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...shuffled(items.slice(i, i + size), rand));
  return out;
}
