import { describe, expect, it } from 'vitest';
import { createBeliefBus, type EvidenceItem } from '@sinew/belief';
import { ORIGIN, prng } from './helpers.js';

interface SimEntity {
  readonly truth: number;
  readonly cls: string;
  x: number;
  z: number;
  vx: number;
  vz: number;
  engineId: string;
  occludedUntil: number;
}

interface NoiseProfile {
  /** Per observation: the engine id is missing. */
  readonly drop: number;
  /** Per tick: two entities swap engine ids. */
  readonly swap: number;
  /** Per entity per tick: the entity gets another engine id (half of the time one that another entity had). */
  readonly reid: number;
  /** Per entity per tick: the entity is occluded for 2–6 ticks, then reappears. */
  readonly occlude: number;
}

interface HarnessResult {
  readonly observations: number;
  readonly belief: number;
  readonly idOnly: number;
}

/**
 * ID-noise harness (seed 003 pivot 3, stage 2): identity continuity = the share of observations assigned the
 * same track as that entity's previous observation, for the Belief Bus and for an id-only associator.
 */
function runHarness(noise: NoiseProfile, seed: number, ticks = 300): HarnessResult {
  const rand = prng(seed);
  const classes = ['zombie', 'cow', 'skeleton'];
  let nextEngineId = 1;
  const retired: string[] = [];
  const entities: SimEntity[] = Array.from({ length: 24 }, (_, truth) => ({
    truth,
    cls: classes[truth % 3]!,
    x: (rand() - 0.5) * 60,
    z: (rand() - 0.5) * 60,
    vx: (rand() - 0.5) * 0.8,
    vz: (rand() - 0.5) * 0.8,
    engineId: String(nextEngineId++),
    occludedUntil: 0,
  }));
  const bus = createBeliefBus();
  const idOnly = new Map<string, number>();
  let idOnlyNext = 1;
  const lastBelief = new Map<number, number>();
  const lastIdOnly = new Map<number, number>();
  let observations = 0;
  let beliefOk = 0;
  let idOnlyOk = 0;

  for (let tick = 1; tick <= ticks; tick += 1) {
    for (const e of entities) {
      if (rand() < 0.05) {
        e.vx = (rand() - 0.5) * 0.8;
        e.vz = (rand() - 0.5) * 0.8;
      }
      e.x += e.vx;
      e.z += e.vz;
      if (Math.abs(e.x) > 30) e.vx = -e.vx;
      if (Math.abs(e.z) > 30) e.vz = -e.vz;
      if (rand() < noise.reid) {
        retired.push(e.engineId);
        e.engineId = rand() < 0.5 && retired.length > 1 ? retired.splice(Math.floor(rand() * (retired.length - 1)), 1)[0]! : String(nextEngineId++);
      }
      if (tick > e.occludedUntil && rand() < noise.occlude) e.occludedUntil = tick + 2 + Math.floor(rand() * 5);
    }
    if (rand() < noise.swap) {
      const a = entities[Math.floor(rand() * entities.length)]!;
      const b = entities[Math.floor(rand() * entities.length)]!;
      [a.engineId, b.engineId] = [b.engineId, a.engineId];
    }
    const seen = entities.filter((e) => tick > e.occludedUntil);
    const items: EvidenceItem[] = seen.map((e) => ({
      cls: e.cls,
      hostile: e.cls !== 'cow',
      position: { x: e.x + (rand() - 0.5) * 0.1, y: 64, z: e.z + (rand() - 0.5) * 0.1 },
      ...(rand() < noise.drop ? {} : { hint: e.engineId }),
    }));
    const r = bus.ingest(tick, { observer: ORIGIN, items });
    if (!r.ok) throw new Error(r.error.message);
    seen.forEach((e, i) => {
      const item = items[i]!;
      let baseline: number;
      if (item.hint === undefined) baseline = idOnlyNext++;
      else {
        baseline = idOnly.get(item.hint) ?? idOnlyNext++;
        idOnly.set(item.hint, baseline);
      }
      const assigned = r.assignments[i] ?? -1;
      if (lastBelief.has(e.truth)) {
        observations += 1;
        if (lastBelief.get(e.truth) === assigned) beliefOk += 1;
        if (lastIdOnly.get(e.truth) === baseline) idOnlyOk += 1;
      }
      lastBelief.set(e.truth, assigned);
      lastIdOnly.set(e.truth, baseline);
    });
  }
  return { observations, belief: beliefOk / observations, idOnly: idOnlyOk / observations };
}

const NOISY: NoiseProfile = { drop: 0.25, swap: 0.05, reid: 0.02, occlude: 0.03 };

describe('ID-noise harness: association by kinematics + class, engine id only a hint', () => {
  it('with clean ids both associators are near perfect (the harness itself is sound)', () => {
    const r = runHarness({ drop: 0, swap: 0, reid: 0, occlude: 0.03 }, 1);
    expect(r.idOnly).toBe(1);
    expect(r.belief).toBeGreaterThan(0.97);
  });

  it('with dropped, swapped, reused ids and occlusion the bus keeps identity far better than id-only', () => {
    const results = [1, 2, 3].map((seed) => runHarness(NOISY, seed));
    const belief = results.reduce((s, r) => s + r.belief, 0) / results.length;
    const idOnly = results.reduce((s, r) => s + r.idOnly, 0) / results.length;
    console.info(
      `[belief] ID-noise association accuracy: belief bus ${(belief * 100).toFixed(1)}% vs id-only ${(idOnly * 100).toFixed(1)}% ` +
        `(${results[0]!.observations} observations/seed, drop 25%, swap 5%/tick, re-id 2%/entity/tick, occlusion 3%)`,
    );
    expect(belief).toBeGreaterThan(0.95);
    expect(belief - idOnly).toBeGreaterThan(0.15);
  });

  it('with every id missing the bus still tracks; id-only cannot', () => {
    const r = runHarness({ drop: 1, swap: 0, reid: 0, occlude: 0.03 }, 4);
    expect(r.belief).toBeGreaterThan(0.95);
    expect(r.idOnly).toBe(0);
  });

  it('an id reused far away does not teleport the old track: it starts a new one', () => {
    const bus = createBeliefBus();
    bus.ingest(1, { observer: ORIGIN, items: [{ cls: 'zombie', hostile: true, hint: '42', position: { x: 5, y: 64, z: 5 } }] });
    const first = bus.tracks()[0]!.trackId;
    const r = bus.ingest(2, { observer: ORIGIN, items: [{ cls: 'zombie', hostile: true, hint: '42', position: { x: -25, y: 64, z: 20 } }] });
    expect(r.ok && r.assignments[0]).not.toBe(first);
    expect(bus.tracks().find((t) => t.trackId === first)?.visibility).toBe('inferred');
  });

  it('two same-class entities that swap engine ids keep their tracks', () => {
    const bus = createBeliefBus();
    const batch = (tick: number, swap: boolean) => ({
      observer: ORIGIN,
      items: [
        { cls: 'zombie', hostile: true, hint: swap ? 'b' : 'a', position: { x: -6 + tick * 0.2, y: 64, z: 0 } },
        { cls: 'zombie', hostile: true, hint: swap ? 'a' : 'b', position: { x: 6 - tick * 0.2, y: 64, z: 2 } },
      ],
    });
    const first = bus.ingest(1, batch(1, false));
    const ids = first.ok ? first.assignments : [];
    for (let tick = 2; tick <= 20; tick += 1) {
      const r = bus.ingest(tick, batch(tick, tick > 10));
      expect(r.ok && r.assignments).toEqual(ids);
    }
  });
});
