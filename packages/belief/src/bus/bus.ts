import { BeliefConfigSchema, type BeliefConfig, type BeliefConfigInput } from '../config.js';
import { BeliefConfigError, issuesOf, type BeliefError } from '../errors.js';
import { createCanonicalSorter, EvidenceBatchSchema, type CanonicalEvidence, type EvidenceBatch } from '../evidence.js';
import { fnv1a64 } from '@sinew/executor-contracts';
import { STREAM_VERSION, type DeltaType, type SaliencyDelta, type StreamMessage, type TrackSummary } from '../stream/schemas.js';
import { createAssociator } from './associate.js';
import { summarizeHazards, type HazardSource, type HazardSummary } from './hazard.js';
import { summarize, type Track, type TrackView, type Visibility } from './track.js';

/** What one ingest produced: stream messages due this tick and, per input item, the track it fed. */
export type IngestResult =
  | {
      readonly ok: true;
      readonly tickId: number;
      readonly messages: readonly StreamMessage[];
      /** Aligned with `batch.items` as given: the track id each item updated/created, or null if dropped. */
      readonly assignments: readonly (number | null)[];
    }
  | { readonly ok: false; readonly tickId: number; readonly error: BeliefError };

/** The Belief Bus: ingest evidence by tick, keep a bounded TrackSet, emit deltas and snapshots. */
export interface BeliefBus {
  readonly config: BeliefConfig;
  /** The last tick ingested, if any. */
  readonly lastTickId: number | undefined;
  /** Ingests one tick of evidence; ticks must strictly increase. Never throws on bad input. */
  ingest(tickId: number, batch: EvidenceBatch): IngestResult;
  /** Every track (visible, inferred, lost), by id. */
  tracks(): readonly TrackView[];
  /** Hostile tracks not lost, nearest first — the reflex's input. */
  threats(): readonly TrackView[];
  /** How many tracks are visible, inferred and lost (no views built: cheap enough for every tick). */
  visibilityCounts(): Readonly<Record<Visibility, number>>;
  /** Bucketed hazard regions for the last tick (not in the state hash). */
  hazards(): HazardSummary;
  /** The view consumers have been told so far (what `applyStream` rebuilds). */
  publishedView(): readonly TrackSummary[];
  /** FNV-1a 64 of the canonical TrackSet (bucketed fields only; hazards and telemetry excluded). */
  stateHash(): string;
  /** Forces a snapshot at the next emission (a consumer reconnected or saw a gap). */
  requestSnapshot(): void;
}

const DELTA_RANK: Record<DeltaType, number> = {
  new_threat: 0,
  track_lost: 1,
  reclassified: 2,
  new_track: 3,
  threat_cleared: 4,
  distance_changed: 5,
};

interface Pending {
  readonly delta: SaliencyDelta;
  readonly threat: boolean;
  readonly distanceBucket: number;
}

/** Builds a Belief Bus; throws BeliefConfigError on a bad config (rejected when built, not when it fires). */
export function createBeliefBus(input: BeliefConfigInput = {}): BeliefBus {
  const parsed = BeliefConfigSchema.safeParse(input);
  if (!parsed.success) throw new BeliefConfigError(issuesOf(parsed.error));
  const config = parsed.data;
  const U = config.unitsPerBlock;
  const gateBase = Math.round(config.gateBaseBlocks * U);
  const speed = Math.round(config.maxSpeedBlocksPerTick * U);
  const gateMax = Math.round(config.gateMaxBlocks * U);
  const bucketU = Math.max(1, Math.round(config.distanceBucketBlocks * U));
  const marginU = Math.round(config.distanceHysteresisBlocks * U);
  const radiusU = Math.max(1, Math.round(config.threatRadiusBlocks * U));
  const cellU = Math.max(1, Math.round(config.hazardCellBlocks * U));

  const clamp = (v: number): number => Math.max(-speed, Math.min(speed, v));
  const tracks = new Map<number, Track>();
  const published = new Map<number, TrackSummary>();
  const lastDeltaTick = new Map<number, number>();
  const evictedSinceEmit = new Set<number>();
  let nextId = 1;
  let lastTick: number | undefined;
  let lastEmitTick: number | undefined;
  let lastSnapshotTick: number | undefined;
  let snapshotRequested = false;
  let seq = 0;
  let observer = { x: 0, y: 0, z: 0 };

  const unseen = (t: Track, tick: number): number => tick - t.lastSeenTick;
  const predictTicks = (t: Track, tick: number): number => Math.min(unseen(t, tick), config.maxPredictTicks);
  const px = (t: Track, tick: number): number => t.x + t.vx * predictTicks(t, tick);
  const py = (t: Track, tick: number): number => t.y + t.vy * predictTicks(t, tick);
  const pz = (t: Track, tick: number): number => t.z + t.vz * predictTicks(t, tick);

  const canonicalize = createCanonicalSorter(U);
  const associate = createAssociator({ base: gateBase, perUnseenTick: speed, max: gateMax }, { x: px, y: py, z: pz });

  function updateClass(t: Track, cls: string): void {
    if (cls === 'unknown') return;
    if (t.cls === cls) t.classConf = Math.min(1000, t.classConf + config.classGain);
    else if (t.cls === 'unknown') {
      t.cls = cls;
      t.classConf = config.classGain;
    } else {
      t.classConf -= config.classGain;
      if (t.classConf <= 0) {
        t.cls = cls;
        t.classConf = config.classGain;
      }
    }
  }

  function refreshEffectiveClass(t: Track): void {
    if (t.classConf >= config.classKnownAtOrAbove) t.effCls = t.cls;
    else if (t.classConf < config.classUnknownBelow || t.effCls !== t.cls) t.effCls = 'unknown';
  }

  function refreshDerived(t: Track, tick: number): void {
    const age = unseen(t, tick);
    t.visibility = age === 0 ? 'visible' : age < config.lostAfterTicks ? 'inferred' : 'lost';
    const dx = px(t, tick) - observer.x, dy = py(t, tick) - observer.y, dz = pz(t, tick) - observer.z;
    t.distU = Math.round(Math.sqrt(dx * dx + dy * dy + dz * dz));
    const plain = Math.floor(t.distU / bucketU);
    const warm = tick - t.createdTick < config.warmupTicks;
    // after warmup a bucket changes only once the distance passes the edge by the hysteresis margin
    if (warm || t.distU >= (t.distBucket + 1) * bucketU + marginU || t.distU < t.distBucket * bucketU - marginU) {
      t.distBucket = plain;
    }
    const proximity = Math.trunc((Math.max(0, radiusU - t.distU) * 1000) / radiusU);
    t.threatScore = t.hostile && t.visibility !== 'lost' ? Math.trunc((proximity * t.conf) / 1000) : 0;
    if (!t.threat && t.threatScore >= config.threatOn) t.threat = true;
    else if (t.threat && t.threatScore <= config.threatOff) t.threat = false;
  }

  function evictionPriority(t: Track, tick: number): number {
    const recency = config.forgetAfterTicks - Math.min(unseen(t, tick), config.forgetAfterTicks) + 1;
    return (t.threatScore + 1) * recency;
  }

  /** Brings the TrackSet back under its cap; true if any track went. */
  function evict(tick: number): boolean {
    if (tracks.size <= config.trackCap) return false;
    // lowest threat × recency first; among equals the newest track goes, so established tracks stay
    const order = [...tracks.values()].sort(
      (a, b) => evictionPriority(a, tick) - evictionPriority(b, tick) || b.createdTick - a.createdTick || b.id - a.id,
    );
    for (let i = 0; tracks.size > config.trackCap; i += 1) {
      const victim = order[i]!;
      tracks.delete(victim.id);
      evictedSinceEmit.add(victim.id);
    }
    return true;
  }

  function ingest(tickId: number, batch: EvidenceBatch): IngestResult {
    if (!Number.isSafeInteger(tickId) || tickId < 0 || (lastTick !== undefined && tickId <= lastTick)) {
      return {
        ok: false,
        tickId,
        error: {
          code: 'tick_not_monotonic',
          message: `tickId must be a non-negative integer greater than ${lastTick ?? -1}`,
          issues: [{ path: ['tickId'], message: `expected integer > ${lastTick ?? -1}, received ${String(tickId)}` }],
        },
      };
    }
    const valid = EvidenceBatchSchema.safeParse(batch);
    if (!valid.success) {
      const issues = issuesOf(valid.error);
      return {
        ok: false,
        tickId,
        error: { code: 'invalid_evidence', message: `invalid evidence batch (${issues.length} issue(s))`, issues },
      };
    }
    const elapsed = lastTick === undefined ? 1 : tickId - lastTick;
    lastTick = tickId;
    observer = {
      x: Math.round(batch.observer.x * U),
      y: Math.round(batch.observer.y * U),
      z: Math.round(batch.observer.z * U),
    };
    const evidence = canonicalize(valid.data);
    const matched = associate(evidence, tracks.values(), tickId);
    const assignments = new Array<number | null>(evidence.length).fill(null);

    for (let i = 0; i < evidence.length; i += 1) {
      const t = matched[i];
      if (!t) continue;
      const e = evidence[i]!;
      const dt = Math.max(1, tickId - t.prevSeenTick);
      t.vx = clamp(Math.trunc((t.vx + Math.trunc((e.x - t.x) / dt)) / 2));
      t.vy = clamp(Math.trunc((t.vy + Math.trunc((e.y - t.y) / dt)) / 2));
      t.vz = clamp(Math.trunc((t.vz + Math.trunc((e.z - t.z) / dt)) / 2));
      t.x = e.x;
      t.y = e.y;
      t.z = e.z;
      t.hostile = e.hostile;
      if (e.hint !== undefined) t.hint = e.hint;
      updateClass(t, e.cls);
      t.conf = 1000;
      assignments[e.input] = t.id;
    }

    for (const t of tracks.values()) {
      if (t.lastSeenTick === tickId) continue;
      if (unseen(t, tickId) >= config.forgetAfterTicks) {
        tracks.delete(t.id);
        continue;
      }
      t.conf = Math.max(0, t.conf - config.confidenceDecayPerTick * elapsed);
      t.classConf = Math.max(0, t.classConf - config.classDecayPerTick * elapsed);
    }

    // bounded creation: hostile first, then nearest, then canonical order
    const fresh: { e: CanonicalEvidence; d2: number; index: number }[] = [];
    for (let i = 0; i < evidence.length; i += 1) {
      if (matched[i]) continue;
      const e = evidence[i]!;
      const dx = e.x - observer.x, dy = e.y - observer.y, dz = e.z - observer.z;
      fresh.push({ e, d2: dx * dx + dy * dy + dz * dz, index: i });
    }
    fresh.sort((a, b) => Number(b.e.hostile) - Number(a.e.hostile) || a.d2 - b.d2 || a.index - b.index);
    for (const { e } of fresh.slice(0, config.maxNewTracksPerTick)) {
      const known = e.cls !== 'unknown';
      const t: Track = {
        id: nextId,
        cls: e.cls,
        classConf: known ? config.classKnownAtOrAbove : 0,
        effCls: e.cls,
        hostile: e.hostile,
        hint: e.hint,
        x: e.x,
        y: e.y,
        z: e.z,
        vx: 0,
        vy: 0,
        vz: 0,
        createdTick: tickId,
        lastSeenTick: tickId,
        prevSeenTick: tickId,
        conf: 1000,
        distU: 0,
        distBucket: 0,
        threatScore: 0,
        threat: false,
        visibility: 'visible',
      };
      nextId += 1;
      tracks.set(t.id, t);
      assignments[e.input] = t.id;
    }

    for (const t of tracks.values()) {
      refreshEffectiveClass(t);
      refreshDerived(t, tickId);
    }
    if (evict(tickId)) {
      for (let i = 0; i < assignments.length; i += 1) if (assignments[i] !== null && !tracks.has(assignments[i]!)) assignments[i] = null;
    }
    return { ok: true, tickId, messages: emit(tickId), assignments };
  }

  function currentView(): Map<number, TrackSummary> {
    const view = new Map<number, TrackSummary>();
    for (const t of tracks.values()) if (t.visibility !== 'lost') view.set(t.id, summarize(t));
    return view;
  }

  function emit(tick: number): StreamMessage[] {
    if (lastEmitTick !== undefined && tick - lastEmitTick < config.emitEveryTicks) return [];
    const first = lastEmitTick === undefined;
    lastEmitTick = tick;
    const view = currentView();
    const messages: StreamMessage[] = [];
    if (!first) {
      const deltas = diff(view, tick);
      if (deltas.length > 0) {
        seq += 1;
        messages.push({ version: STREAM_VERSION, streamId: config.streamId, seq, tickId: tick, kind: 'deltas', deltas });
      }
    }
    evictedSinceEmit.clear();
    const snapshotDue =
      first || snapshotRequested || (lastSnapshotTick !== undefined && tick - lastSnapshotTick >= config.snapshotEveryTicks);
    if (snapshotDue) {
      snapshotRequested = false;
      lastSnapshotTick = tick;
      published.clear();
      for (const [id, summary] of view) published.set(id, summary);
      for (const id of [...lastDeltaTick.keys()]) if (!view.has(id)) lastDeltaTick.delete(id);
      seq += 1;
      messages.push({
        version: STREAM_VERSION,
        streamId: config.streamId,
        seq,
        tickId: tick,
        kind: 'snapshot',
        tracks: [...view.values()],
      });
    }
    return messages;
  }

  function diff(view: Map<number, TrackSummary>, tick: number): SaliencyDelta[] {
    const pending: Pending[] = [];
    for (const [id, now] of view) {
      const before = published.get(id);
      let type: DeltaType | undefined;
      if (!before) type = now.threat ? 'new_threat' : 'new_track';
      else if (now.threat && !before.threat) type = 'new_threat';
      else if (now.cls !== before.cls || now.hostile !== before.hostile) type = 'reclassified';
      else if (!now.threat && before.threat) type = 'threat_cleared';
      else if (now.distanceBucket !== before.distanceBucket) {
        const t = tracks.get(id)!;
        // the first emission after warmup still settles the bucket warmup left behind
        const warm = tick - t.createdTick < config.warmupTicks + config.emitEveryTicks;
        const last = lastDeltaTick.get(id);
        if (warm || last === undefined || tick - last >= config.cooldownTicks) type = 'distance_changed';
      }
      if (type) pending.push({ delta: { type, trackId: id, track: now } as SaliencyDelta, threat: now.threat, distanceBucket: now.distanceBucket });
    }
    for (const [id, before] of published) {
      if (view.has(id)) continue;
      const reason = evictedSinceEmit.has(id) || !tracks.has(id) ? 'evicted' : 'unseen';
      pending.push({ delta: { type: 'track_lost', trackId: id, reason }, threat: before.threat, distanceBucket: before.distanceBucket });
    }
    pending.sort(
      (a, b) =>
        DELTA_RANK[a.delta.type] - DELTA_RANK[b.delta.type] ||
        Number(b.threat) - Number(a.threat) ||
        a.distanceBucket - b.distanceBucket ||
        a.delta.trackId - b.delta.trackId,
    );
    const chosen = pending.slice(0, config.maxDeltasPerEmission).map((p) => p.delta);
    for (const d of chosen) {
      if (d.type === 'track_lost') {
        published.delete(d.trackId);
        lastDeltaTick.delete(d.trackId);
      } else {
        published.set(d.trackId, d.track);
        lastDeltaTick.set(d.trackId, tick);
      }
    }
    // emitted in track order so the bytes do not depend on priority ties
    return chosen.sort((a, b) => a.trackId - b.trackId);
  }

  function view(t: Track, tick: number): TrackView {
    return {
      trackId: t.id,
      cls: t.effCls,
      bestClass: t.cls,
      classConfidence: t.classConf,
      hostile: t.hostile,
      position: { x: t.x / U, y: t.y / U, z: t.z / U },
      predicted: { x: px(t, tick) / U, y: py(t, tick) / U, z: pz(t, tick) / U },
      velocity: { x: t.vx / U, y: t.vy / U, z: t.vz / U },
      visibility: t.visibility,
      confidence: t.conf,
      createdTick: t.createdTick,
      lastSeenTick: t.lastSeenTick,
      distance: t.distU / U,
      distanceBucket: t.distBucket,
      threatScore: t.threatScore,
      threat: t.threat,
    };
  }

  return {
    config,
    get lastTickId() {
      return lastTick;
    },
    ingest,
    tracks: () => [...tracks.values()].map((t) => view(t, lastTick ?? 0)),
    threats: () =>
      [...tracks.values()]
        .filter((t) => t.hostile && t.visibility !== 'lost')
        .sort((a, b) => a.distU - b.distU || a.id - b.id)
        .map((t) => view(t, lastTick ?? 0)),
    visibilityCounts: () => {
      const counts = { visible: 0, inferred: 0, lost: 0 };
      for (const t of tracks.values()) counts[t.visibility] += 1;
      return counts;
    },
    hazards: () => {
      const tick = lastTick ?? 0;
      const sources: HazardSource[] = [];
      for (const t of tracks.values()) {
        if (t.threatScore <= 0) continue;
        sources.push({
          cx: Math.floor(px(t, tick) / cellU),
          cy: Math.floor(py(t, tick) / cellU),
          cz: Math.floor(pz(t, tick) / cellU),
          score: t.threatScore,
        });
      }
      return summarizeHazards(tick, config.hazardCellBlocks, sources, config.maxHazardRegions);
    },
    publishedView: () => [...published.values()].sort((a, b) => a.trackId - b.trackId),
    stateHash: () => {
      let text = `n${nextId}`;
      for (const t of tracks.values()) {
        text += `|${t.id}:${t.effCls}:${t.hostile ? 1 : 0}:${t.visibility}:${t.distBucket}:${t.threat ? 1 : 0}`;
      }
      return fnv1a64(text);
    },
    requestSnapshot: () => {
      snapshotRequested = true;
    },
  };
}
