import type { DeltasMessage, StreamMessage, TrackSummary } from './schemas.js';

/** A consumer's rebuilt view of the stream; immutable, replaced by each `applyStream`. */
export interface ConsumerState {
  readonly streamId: string | undefined;
  /** Seq of the last message applied. */
  readonly seq: number;
  readonly tickId: number;
  /** True once a snapshot was applied and no gap has been seen since. */
  readonly synced: boolean;
  /** True when the reorder window overflowed or a foreign stream spoke: ask the producer for a snapshot. */
  readonly needsSnapshot: boolean;
  readonly tracks: ReadonlyMap<number, TrackSummary>;
  /** Out-of-order deltas waiting for their predecessors (bounded by the reorder window). */
  readonly buffered: readonly DeltasMessage[];
}

/** What applying one stream message did (applied, resynced from a snapshot, buffered, or refused and why). */
export type ApplyStatus = 'applied' | 'resynced' | 'buffered' | 'stale' | 'gap' | 'foreign';

/** Options of applying stream messages to a consumer view. */
export interface ApplyOptions {
  /** Deltas held while waiting for a missing seq before declaring a gap (default 8). */
  readonly reorderWindow?: number;
}

/** The state before any message: not synced, empty view. */
export function initialConsumerState(): ConsumerState {
  return {
    streamId: undefined,
    seq: 0,
    tickId: 0,
    synced: false,
    needsSnapshot: false,
    tracks: new Map(),
    buffered: [],
  };
}

function applyDeltas(tracks: Map<number, TrackSummary>, message: DeltasMessage): void {
  for (const d of message.deltas) {
    if (d.type === 'track_lost') tracks.delete(d.trackId);
    else tracks.set(d.trackId, d.track);
  }
}

/** Applies buffered deltas that now follow on without a hole. */
function drain(state: ConsumerState): ConsumerState {
  let { seq, tickId } = state;
  let tracks: Map<number, TrackSummary> | undefined;
  const rest: DeltasMessage[] = [];
  for (const m of state.buffered) {
    if (m.seq <= seq) continue;
    if (m.seq === seq + 1 && state.synced) {
      tracks ??= new Map(state.tracks);
      applyDeltas(tracks, m);
      seq = m.seq;
      tickId = m.tickId;
    } else rest.push(m);
  }
  return { ...state, seq, tickId, tracks: tracks ?? state.tracks, buffered: rest };
}

/**
 * Applies one stream message and returns the new state: snapshot first, then deltas in seq order;
 * duplicates and older messages are ignored (no regress), early ones wait in a bounded buffer, and a
 * hole that outlives the window marks the view unsynced until the next snapshot (no hallucination).
 */
export function applyStream(
  state: ConsumerState,
  message: StreamMessage,
  options: ApplyOptions = {},
): { readonly state: ConsumerState; readonly status: ApplyStatus } {
  const window = options.reorderWindow ?? 8;
  if (state.streamId !== undefined && message.streamId !== state.streamId) {
    if (message.kind !== 'snapshot') return { state: { ...state, needsSnapshot: true }, status: 'foreign' };
    state = initialConsumerState();
  }
  if (message.kind === 'snapshot') {
    if (message.seq <= state.seq) return { state, status: 'stale' };
    const next = drain({
      streamId: message.streamId,
      seq: message.seq,
      tickId: message.tickId,
      synced: true,
      needsSnapshot: false,
      tracks: new Map(message.tracks.map((t) => [t.trackId, t])),
      buffered: state.buffered,
    });
    return { state: next, status: 'resynced' };
  }
  if (message.seq <= state.seq) return { state, status: 'stale' };
  if (state.buffered.some((m) => m.seq === message.seq)) return { state, status: 'stale' };
  if (state.synced && message.seq === state.seq + 1) {
    const tracks = new Map(state.tracks);
    applyDeltas(tracks, message);
    const next = drain({ ...state, seq: message.seq, tickId: message.tickId, tracks });
    return { state: next, status: 'applied' };
  }
  const buffered = [...state.buffered, message].sort((a, b) => a.seq - b.seq);
  if (buffered.length > window) {
    // the hole is not going to fill: drop the view's claim to be current and wait for a snapshot
    return {
      state: {
        ...state,
        streamId: message.streamId,
        synced: false,
        needsSnapshot: true,
        buffered: buffered.slice(buffered.length - window),
      },
      status: 'gap',
    };
  }
  return { state: { ...state, streamId: message.streamId, buffered }, status: 'buffered' };
}

/** The consumer's view as a list sorted by track id (comparable with `BeliefBus.publishedView()`). */
export function consumerView(state: ConsumerState): TrackSummary[] {
  return [...state.tracks.values()].sort((a, b) => a.trackId - b.trackId);
}
