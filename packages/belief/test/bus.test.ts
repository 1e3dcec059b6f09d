import { describe, expect, it } from 'vitest';
import {
  BeliefConfigError,
  createBeliefBus,
  StreamMessageSchema,
  type BeliefBus,
  type EvidenceBatch,
  type StreamMessage,
} from '@sinew/belief';
import { batchOf, ORIGIN, prng, shuffled, stableScene, type SceneEntity } from './helpers.js';

function run(bus: BeliefBus, batches: readonly EvidenceBatch[], startTick = 1): StreamMessage[] {
  const out: StreamMessage[] = [];
  batches.forEach((batch, i) => {
    const r = bus.ingest(startTick + i, batch);
    if (!r.ok) throw new Error(r.error.message);
    out.push(...r.messages);
  });
  return out;
}

/** A dynamic scene: 48 standing entities, 8 walkers, a zombie closing in, a cow leaving, newcomers. */
function dynamicStream(ticks: number, seed = 7): EvidenceBatch[] {
  const rand = prng(seed);
  const scene = stableScene(48, seed);
  const walkers: SceneEntity[] = Array.from({ length: 8 }, (_, i) => ({
    id: 5000 + i, cls: i % 2 ? 'sheep' : 'skeleton', hostile: i % 2 === 0, x: -30 + i * 7, y: 64, z: 25,
  }));
  const zombie: SceneEntity = { id: 9001, cls: 'zombie', hostile: true, x: 30, y: 64, z: 30 };
  const batches: EvidenceBatch[] = [];
  for (let t = 0; t < ticks; t += 1) {
    for (const w of walkers) w.x += 0.3;
    zombie.x -= 0.25;
    zombie.z -= 0.25;
    const present = [...scene, ...walkers, zombie];
    if (t > 40) present.push({ id: 7000, cls: 'creeper', hostile: true, x: 5, y: 64, z: -5 });
    const visible = t > 60 && t < 70 ? present.filter((e) => e.id !== 1003) : present;
    batches.push(batchOf(visible, rand));
  }
  return batches;
}

describe('config', () => {
  it('rejects a bad config when the bus is built, naming the field', () => {
    expect(() => createBeliefBus({ threatOn: 300, threatOff: 500 })).toThrow(BeliefConfigError);
    try {
      createBeliefBus({ trackCap: -1 } as never);
    } catch (error) {
      expect((error as BeliefConfigError).code).toBe('invalid_config');
      expect((error as BeliefConfigError).issues[0]?.path).toEqual(['trackCap']);
    }
    expect(() => createBeliefBus({ bogus: 1 } as never)).toThrow(/bogus|unrecognized/i);
  });

  it('documents defaults: 64 tracks, 1 Hz emission of 5 Hz ticks, snapshots every 10 s', () => {
    const { config } = createBeliefBus();
    expect(config.trackCap).toBe(64);
    expect(config.emitEveryTicks).toBe(5);
    expect(config.snapshotEveryTicks).toBe(50);
  });
});

describe('ingest boundary', () => {
  it('returns a structured error for a non-monotonic tick and for malformed evidence, never throws', () => {
    const bus = createBeliefBus();
    expect(bus.ingest(5, { observer: ORIGIN, items: [] }).ok).toBe(true);
    const again = bus.ingest(5, { observer: ORIGIN, items: [] });
    expect(again.ok).toBe(false);
    if (!again.ok) expect(again.error.code).toBe('tick_not_monotonic');
    const bad = bus.ingest(6, { observer: ORIGIN, items: [{ cls: 'zombie', hostile: true, position: { x: Number.NaN, y: 0, z: 0 } }] });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.code).toBe('invalid_evidence');
      expect(bad.error.issues[0]?.path).toEqual(['items', 0, 'position', 'x']);
    }
    // a rejected tick does not advance the clock
    expect(bus.ingest(6, { observer: ORIGIN, items: [] }).ok).toBe(true);
  });

  it('refuses a finite coordinate outside the world (a sensor fault), for items and the observer, and keeps no track of it', () => {
    const bus = createBeliefBus();
    const far = bus.ingest(1, { observer: ORIGIN, items: [{ cls: 'zombie', hostile: true, position: { x: Number.MAX_VALUE, y: 0, z: 0 } }] });
    expect(far.ok).toBe(false);
    if (!far.ok) expect(far.error.issues[0]).toMatchObject({ path: ['items', 0, 'position', 'x'] });
    const observer = bus.ingest(1, { observer: { x: 0, y: -1e9, z: 0 }, items: [] });
    expect(observer.ok).toBe(false);
    if (!observer.ok) expect(observer.error.issues[0]?.path).toEqual(['observer', 'y']);
    // The world border itself is fine, and serializes as the number it is.
    const edge = bus.ingest(1, { observer: ORIGIN, items: [{ cls: 'zombie', hostile: true, position: { x: 30_000_000, y: 320, z: -30_000_000 } }] });
    expect(edge.ok).toBe(true);
    expect(JSON.stringify(edge)).not.toContain('null');
  });
});

describe('determinism', () => {
  it('the same stream gives byte-identical messages and state hash', () => {
    const stream = dynamicStream(120);
    const a = createBeliefBus();
    const b = createBeliefBus();
    const ma = JSON.stringify(run(a, stream));
    const mb = JSON.stringify(run(b, stream));
    expect(ma).toBe(mb);
    expect(a.stateHash()).toBe(b.stateHash());
    expect(ma.length).toBeGreaterThan(1000);
  });

  it('shuffling the raw entity order every tick changes neither the bytes nor the hash', () => {
    const stream = dynamicStream(120);
    const rand = prng(99);
    const shuffledStream = stream.map((b) => ({ observer: b.observer, items: shuffled(b.items, rand) }));
    const a = createBeliefBus();
    const b = createBeliefBus();
    const ma = run(a, stream);
    const mb = run(b, shuffledStream);
    expect(JSON.stringify(mb)).toBe(JSON.stringify(ma));
    expect(b.stateHash()).toBe(a.stateHash());
    expect(JSON.stringify(b.tracks())).toBe(JSON.stringify(a.tracks()));
  });

  it('an entity table reordered on some ticks gives the same messages and per-item tracks as the stable table', () => {
    // the bus starts each sort from the previous tick's order: a wrong guess must not leak into the result
    const stream = dynamicStream(120);
    const a = createBeliefBus();
    const b = createBeliefBus();
    stream.forEach((batch, i) => {
      const shift = i % 7 === 3 ? 1 + (i % 5) : 0;
      const n = batch.items.length;
      const rotated = batch.items.map((_, j) => batch.items[(j + shift) % n]!);
      const ra = a.ingest(i + 1, batch);
      const rb = b.ingest(i + 1, { observer: batch.observer, items: rotated });
      if (!ra.ok || !rb.ok) throw new Error('ingest failed');
      const perItem = rb.assignments.map((_, j) => rb.assignments[(j - shift + n) % n]);
      expect(perItem).toEqual(ra.assignments);
      expect(JSON.stringify(rb.messages)).toBe(JSON.stringify(ra.messages));
    });
    expect(b.stateHash()).toBe(a.stateHash());
  });

  it('a different stream gives a different hash (the hash can fail)', () => {
    const a = createBeliefBus();
    const b = createBeliefBus();
    run(a, dynamicStream(60, 7));
    run(b, dynamicStream(60, 7).map((batch, i) => (i === 59 ? { ...batch, items: batch.items.slice(1) } : batch)));
    expect(a.stateHash()).not.toBe(b.stateHash());
  });

  it('every message validates against the versioned stream schema', () => {
    for (const m of run(createBeliefBus(), dynamicStream(120))) expect(StreamMessageSchema.safeParse(m).success).toBe(true);
  });
});

describe('boundedness', () => {
  it('never exceeds the track cap, delta bound or hazard bound under 10× overload', () => {
    const bus = createBeliefBus({ trackCap: 64 });
    const rand = prng(3);
    let maxTracks = 0;
    let maxDeltas = 0;
    for (let tick = 1; tick <= 150; tick += 1) {
      // 640 entities, a third of them replaced every tick, all wandering
      const items = Array.from({ length: 640 }, (_, i) => {
        const gen = i % 3 === 0 ? tick : 0;
        return {
          cls: i % 4 === 0 ? 'zombie' : 'cow',
          hostile: i % 4 === 0,
          hint: `${i}-${gen}`,
          position: { x: (rand() - 0.5) * 80, y: 64, z: (rand() - 0.5) * 80 },
        };
      });
      const r = bus.ingest(tick, { observer: ORIGIN, items });
      expect(r.ok).toBe(true);
      if (!r.ok) continue;
      maxTracks = Math.max(maxTracks, bus.tracks().length);
      for (const m of r.messages) if (m.kind === 'deltas') maxDeltas = Math.max(maxDeltas, m.deltas.length);
      expect(bus.publishedView().length).toBeLessThanOrEqual(64);
      expect(bus.hazards().regions.length).toBeLessThanOrEqual(bus.config.maxHazardRegions);
    }
    expect(maxTracks).toBe(64);
    expect(maxDeltas).toBeLessThanOrEqual(16);
    expect(maxDeltas).toBeGreaterThan(0);
  });

  it('evicts by threat × recency: a close hostile survives a flood of passive newcomers', () => {
    const bus = createBeliefBus({ trackCap: 16, maxNewTracksPerTick: 64 });
    const zombie = { cls: 'zombie', hostile: true, hint: 'z', position: { x: 3.5, y: 64, z: 0.5 } };
    bus.ingest(1, { observer: ORIGIN, items: [zombie] });
    const zombieId = bus.tracks()[0]!.trackId;
    for (let tick = 2; tick <= 20; tick += 1) {
      const cows = Array.from({ length: 40 }, (_, i) => ({
        cls: 'cow', hostile: false, hint: `c${tick}-${i}`, position: { x: -20 + i, y: 64, z: tick * 5 },
      }));
      bus.ingest(tick, { observer: ORIGIN, items: [zombie, ...cows] });
      expect(bus.tracks().length).toBeLessThanOrEqual(16);
      expect(bus.tracks().some((t) => t.trackId === zombieId)).toBe(true);
    }
  });

  it('established tracks are kept over newcomers of equal priority (no churn at the cap)', () => {
    const bus = createBeliefBus({ trackCap: 8 });
    const rand = prng(5);
    const scene = stableScene(20, 5).map((e) => ({ ...e, cls: 'cow', hostile: false }));
    bus.ingest(1, batchOf(scene, rand));
    const first = bus.tracks().map((t) => t.trackId);
    for (let tick = 2; tick <= 30; tick += 1) bus.ingest(tick, batchOf(scene, rand));
    expect(bus.tracks().map((t) => t.trackId)).toEqual(first);
  });
});

describe('decay', () => {
  it('an unseen track loses confidence, drifts to unknown and goes visible → inferred → lost → forgotten', () => {
    const bus = createBeliefBus();
    const skeleton = { cls: 'skeleton', hostile: true, hint: 's', position: { x: 5.5, y: 64, z: 0.5 } };
    for (let tick = 1; tick <= 5; tick += 1) bus.ingest(tick, { observer: ORIGIN, items: [skeleton] });
    const seen = bus.tracks()[0]!;
    expect(seen).toMatchObject({ visibility: 'visible', confidence: 1000, cls: 'skeleton' });
    const history: { visibility: string; confidence: number; classConfidence: number; cls: string }[] = [];
    const messages: StreamMessage[] = [];
    for (let tick = 6; tick <= 60; tick += 1) {
      const r = bus.ingest(tick, { observer: ORIGIN, items: [] });
      if (r.ok) messages.push(...r.messages);
      const t = bus.tracks()[0];
      if (t) history.push(t);
    }
    expect(history[0]!.visibility).toBe('inferred');
    for (let i = 1; i < history.length; i += 1) {
      expect(history[i]!.confidence).toBeLessThanOrEqual(history[i - 1]!.confidence);
      expect(history[i]!.classConfidence).toBeLessThanOrEqual(history[i - 1]!.classConfidence);
    }
    expect(history[8]!.visibility).toBe('inferred');
    expect(history[9]!.visibility).toBe('lost'); // lostAfterTicks = 10
    expect(history.at(-1)!.cls).toBe('unknown');
    expect(history.at(-1)!.confidence).toBe(0);
    expect(bus.tracks()).toHaveLength(0); // forgotten after 50 unseen ticks
    const lost = messages.flatMap((m) => (m.kind === 'deltas' ? m.deltas : [])).filter((d) => d.type === 'track_lost');
    expect(lost).toEqual([{ type: 'track_lost', trackId: seen.trackId, reason: 'unseen' }]);
  });

  it('an inferred threat stays a threat briefly and its score falls with confidence', () => {
    const bus = createBeliefBus();
    const zombie = { cls: 'zombie', hostile: true, hint: 'z', position: { x: 2.5, y: 64, z: 0.5 } };
    bus.ingest(1, { observer: ORIGIN, items: [zombie] });
    const before = bus.threats()[0]!;
    bus.ingest(2, { observer: ORIGIN, items: [] });
    const after = bus.threats()[0]!;
    expect(after.visibility).toBe('inferred');
    expect(after.threat).toBe(true);
    expect(after.threatScore).toBeLessThan(before.threatScore);
  });

  it('a lost track is reacquired under its old id when it reappears nearby, even with a new engine id', () => {
    const bus = createBeliefBus();
    bus.ingest(1, { observer: ORIGIN, items: [{ cls: 'cow', hostile: false, hint: 'a', position: { x: 5, y: 64, z: 5 } }] });
    const id = bus.tracks()[0]!.trackId;
    for (let tick = 2; tick <= 14; tick += 1) bus.ingest(tick, { observer: ORIGIN, items: [] });
    expect(bus.tracks()[0]!.visibility).toBe('lost');
    bus.ingest(15, { observer: ORIGIN, items: [{ cls: 'cow', hostile: false, hint: 'b', position: { x: 6, y: 64, z: 5 } }] });
    expect(bus.tracks().map((t) => [t.trackId, t.visibility])).toEqual([[id, 'visible']]);
  });

  it('visibilityCounts agrees with the track views on every tick of a dynamic scene', () => {
    const bus = createBeliefBus({ lostAfterTicks: 3, forgetAfterTicks: 8 });
    const batches = dynamicStream(120);
    const seen = new Set<string>();
    batches.forEach((batch, i) => {
      // every 10th tick half the scene goes unseen, so tracks pass through inferred and lost
      const items = Math.floor(i / 10) % 2 ? batch.items.filter((_, k) => k % 2 === 0) : batch.items;
      expect(bus.ingest(i + 1, { ...batch, items }).ok).toBe(true);
      const expected = { visible: 0, inferred: 0, lost: 0 };
      for (const t of bus.tracks()) expected[t.visibility] += 1;
      expect(bus.visibilityCounts()).toEqual(expected);
      for (const [k, n] of Object.entries(expected)) if (n > 0) seen.add(k);
    });
    expect([...seen].sort()).toEqual(['inferred', 'lost', 'visible']);
  });
});
