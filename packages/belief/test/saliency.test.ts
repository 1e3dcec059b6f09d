import { describe, expect, it } from 'vitest';
import { createBeliefBus, type BeliefBus, type EvidenceItem, type SaliencyDelta } from '@sinew/belief';
import { batchOf, ORIGIN, prng, stableScene } from './helpers.js';

/** Ingests one tick and returns its deltas (snapshots excluded). */
function deltasAt(bus: BeliefBus, tick: number, items: EvidenceItem[]): SaliencyDelta[] {
  const r = bus.ingest(tick, { observer: ORIGIN, items });
  if (!r.ok) throw new Error(r.error.message);
  return r.messages.flatMap((m) => (m.kind === 'deltas' ? m.deltas : []));
}

const at = (cls: string, hostile: boolean, x: number, hint = cls): EvidenceItem => ({
  cls,
  hostile,
  hint,
  position: { x, y: 64, z: 0 },
});

describe('saliency: warmup, hysteresis, cooldown, bounded emission', () => {
  it('a stable 64-entity scene with ±0.02 jitter emits zero deltas after warmup and keeps its hash', () => {
    const bus = createBeliefBus();
    const rand = prng(11);
    const scene = stableScene(64, 11);
    const { warmupTicks, emitEveryTicks } = bus.config;
    const settle = 4 + warmupTicks + emitEveryTicks; // 4 ticks of bounded creation (16/tick)
    let afterWarmup = 0;
    let hash = '';
    for (let tick = 1; tick <= 300; tick += 1) {
      const r = bus.ingest(tick, batchOf(scene, rand, 0.02));
      if (!r.ok) throw new Error(r.error.message);
      if (tick > settle) afterWarmup += r.messages.filter((m) => m.kind === 'deltas').length;
      if (tick === settle + 1) hash = bus.stateHash();
      if (tick > settle) expect(bus.stateHash()).toBe(hash);
    }
    expect(bus.tracks()).toHaveLength(64);
    expect(afterWarmup).toBe(0);
  });

  it('a mob pacing ±0.4 blocks across a distance-bucket edge emits nothing after warmup', () => {
    const bus = createBeliefBus();
    const edge = bus.config.distanceBucketBlocks * 2; // 8 blocks
    const after: SaliencyDelta[] = [];
    const during: SaliencyDelta[] = [];
    for (let tick = 1; tick <= 200; tick += 1) {
      const x = edge + 0.4 * Math.sin(tick / 2);
      const d = deltasAt(bus, tick, [at('cow', false, x)]);
      (tick > bus.config.warmupTicks + bus.config.emitEveryTicks ? after : during).push(...d);
    }
    expect(after).toEqual([]);
    // and the same track really does report a genuine move (the test can fail)
    const moved: SaliencyDelta[] = [];
    for (let tick = 201; tick <= 260; tick += 1) moved.push(...deltasAt(bus, tick, [at('cow', false, Math.min(edge + 6, edge + (tick - 200) * 0.3))]));
    expect(moved.map((d) => d.type)).toContain('distance_changed');
  });

  it('±0.02 jitter straddling a bucket edge produces no deltas after warmup', () => {
    const bus = createBeliefBus();
    const rand = prng(4);
    const out: SaliencyDelta[] = [];
    for (let tick = 1; tick <= 100; tick += 1) {
      const d = deltasAt(bus, tick, [at('pig', false, 12 - 1 / 32 + (rand() * 2 - 1) * 0.02)]); // 191.5 units: rounding flips
      if (tick > 15) out.push(...d);
    }
    expect(out).toEqual([]);
  });

  it('a hostile hovering across the threat-on distance raises one new_threat and never flaps', () => {
    const bus = createBeliefBus();
    const types: string[] = [];
    for (let tick = 1; tick <= 200; tick += 1) {
      // threatOn 600 ⇔ 6.4 blocks, threatOff 400 ⇔ 9.6 blocks
      const x = 6.4 + 0.8 * Math.sin(tick / 3);
      types.push(...deltasAt(bus, tick, [at('zombie', true, x)]).map((d) => d.type));
    }
    expect(types.filter((t) => t === 'new_threat')).toHaveLength(1);
    expect(types).not.toContain('threat_cleared');
    // leaving past the reset band clears it
    for (let tick = 201; tick <= 260; tick += 1) types.push(...deltasAt(bus, tick, [at('zombie', true, Math.min(14, 6.4 + (tick - 200) * 0.5))]).map((d) => d.type));
    expect(types).not.toContain('new_track');
    expect(types).toContain('threat_cleared');
  });

  it('after warmup a track emits at most one distance_changed per cooldown', () => {
    const bus = createBeliefBus();
    const emitted: number[] = [];
    for (let tick = 1; tick <= 200; tick += 1) {
      const x = tick <= 20 ? 10 : 10 + (tick - 20) * 0.5; // walks away through a bucket every 8 ticks
      if (deltasAt(bus, tick, [at('sheep', false, x)]).some((d) => d.type === 'distance_changed') && tick > 20) emitted.push(tick);
    }
    expect(emitted.length).toBeGreaterThan(2);
    for (let i = 1; i < emitted.length; i += 1) expect(emitted[i]! - emitted[i - 1]!).toBeGreaterThanOrEqual(bus.config.cooldownTicks);
  });

  it('emissions are bounded; the backlog drains over later emissions and the published view converges', () => {
    const bus = createBeliefBus({ maxNewTracksPerTick: 64 });
    const rand = prng(8);
    const base = stableScene(10, 8);
    for (let tick = 1; tick <= 30; tick += 1) bus.ingest(tick, batchOf(base, rand));
    const crowd = stableScene(50, 9).map((e, i) => ({ ...e, id: 20_000 + i, x: e.x + 40, cls: 'cow', hostile: false }));
    const sizes: number[] = [];
    for (let tick = 31; tick <= 60; tick += 1) {
      const r = bus.ingest(tick, batchOf([...base, ...crowd], rand));
      if (r.ok) for (const m of r.messages) if (m.kind === 'deltas') sizes.push(m.deltas.length);
      if (tick === 41) expect(bus.publishedView()).toHaveLength(10 + 48); // 3 emissions of 16 since tick 31
    }
    expect(sizes.slice(0, 3)).toEqual([16, 16, 16]);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(16);
    expect(bus.publishedView()).toEqual(bus.tracks().map((t) => ({ trackId: t.trackId, cls: t.cls, hostile: t.hostile, threat: t.threat, distanceBucket: t.distanceBucket })));
    expect(bus.publishedView()).toHaveLength(60);
  });

  it('a known class change is reported as reclassified, unknown → known included', () => {
    const bus = createBeliefBus();
    const types: string[] = [];
    for (let tick = 1; tick <= 20; tick += 1) types.push(...deltasAt(bus, tick, [at('unknown', true, 20, 'e1')]).map((d) => d.type));
    expect(bus.tracks()[0]!.cls).toBe('unknown');
    for (let tick = 21; tick <= 40; tick += 1) types.push(...deltasAt(bus, tick, [at('husk', true, 20, 'e1')]).map((d) => d.type));
    expect(bus.tracks()[0]!.cls).toBe('husk');
    expect(types).toContain('reclassified');
    expect(bus.tracks()).toHaveLength(1);
  });

  it('a different class without a matching id hint is a different track (class gates association)', () => {
    const bus = createBeliefBus();
    deltasAt(bus, 1, [at('cow', false, 5, 'a')]);
    deltasAt(bus, 2, [at('zombie', true, 5, 'b')]);
    expect(bus.tracks().map((t) => t.bestClass)).toEqual(['cow', 'zombie']);
  });
});
