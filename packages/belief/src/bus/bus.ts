import { BeliefConfigSchema, type BeliefConfig, type BeliefConfigInput } from '../config.js';
import { BeliefConfigError, issuesOf, type BeliefError } from '../errors.js';
import { createCanonicalSorter, EvidenceBatchSchema, type CanonicalEvidence, type EvidenceBatch } from '../evidence.js';
import { fnv1a64 } from '@sinew/executor-contracts';
import { STREAM_VERSION, type DeltaType, type SaliencyDelta, type StreamMessage, type TrackSummary } from '../stream/schemas.js';
import { createAssociator } from './associate.js';
import { summarizeHazards, type HazardSummary } from './hazard.js';
import { summarize, type TrackView, type Visibility } from './track.js';
import { createTrackSet } from './track-set.js';

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
  const cellU = Math.max(1, Math.round(config.hazardCellBlocks * U));

  const set = createTrackSet(config);
  const tracks = set.tracks;
  const published = new Map<number, TrackSummary>();
  const lastDeltaTick = new Map<number, number>();
  const evictedSinceEmit = new Set<number>();
  let lastTick: number | undefined;
  let lastEmitTick: number | undefined;
  let lastSnapshotTick: number | undefined;
  let snapshotRequested = false;
  let seq = 0;

  const canonicalize = createCanonicalSorter(U);
  const associate = createAssociator({ base: gateBase, perUnseenTick: speed, max: gateMax }, set.predictTicks);

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
    const observer = {
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
      set.update(t, evidence[i]!, tickId);
      assignments[evidence[i]!.input] = t.id;
    }
    set.ageUnseen(tickId, elapsed);

    // bounded creation: hostile first, then nearest, then canonical order
    const fresh: { e: CanonicalEvidence; d2: number; index: number }[] = [];
    for (let i = 0; i < evidence.length; i += 1) {
      if (matched[i]) continue;
      const e = evidence[i]!;
      const dx = e.x - observer.x, dy = e.y - observer.y, dz = e.z - observer.z;
      fresh.push({ e, d2: dx * dx + dy * dy + dz * dz, index: i });
    }
    fresh.sort((a, b) => Number(b.e.hostile) - Number(a.e.hostile) || a.d2 - b.d2 || a.index - b.index);
    for (const { e } of fresh.slice(0, config.maxNewTracksPerTick)) assignments[e.input] = set.create(e, tickId);

    set.refresh(tickId, observer);
    const evicted = set.evict(tickId);
    if (evicted.length > 0) {
      for (const id of evicted) evictedSinceEmit.add(id);
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

  return {
    config,
    get lastTickId() {
      return lastTick;
    },
    ingest,
    tracks: () => [...tracks.values()].map((t) => set.view(t, lastTick ?? 0)),
    threats: () =>
      [...tracks.values()]
        .filter((t) => t.hostile && t.visibility !== 'lost')
        .sort((a, b) => a.distanceUnits - b.distanceUnits || a.id - b.id)
        .map((t) => set.view(t, lastTick ?? 0)),
    visibilityCounts: () => {
      const counts = { visible: 0, inferred: 0, lost: 0 };
      for (const t of tracks.values()) counts[t.visibility] += 1;
      return counts;
    },
    hazards: () => {
      const tick = lastTick ?? 0;
      return summarizeHazards(tick, config.hazardCellBlocks, set.hazardSources(tick, cellU), config.maxHazardRegions);
    },
    publishedView: () => [...published.values()].sort((a, b) => a.trackId - b.trackId),
    stateHash: () => {
      let text = `n${set.nextId}`;
      for (const t of tracks.values()) {
        text += `|${t.id}:${t.effectiveClass}:${t.hostile ? 1 : 0}:${t.visibility}:${t.distanceBucket}:${t.threat ? 1 : 0}`;
      }
      return fnv1a64(text);
    },
    requestSnapshot: () => {
      snapshotRequested = true;
    },
  };
}
