import { performance } from 'node:perf_hooks';
import { Registry } from 'prom-client';
import { createBeliefBus, type BeliefBus } from '../bus/bus.js';
import type { HazardSummary } from '../bus/hazard.js';
import type { TrackView, Visibility } from '../bus/track.js';
import type { BeliefConfigInput } from '../config.js';
import type { BeliefError } from '../errors.js';
import type { Reflex } from '../reflex/reflex.js';
import type { DeltasMessage, SnapshotMessage, StreamMessage } from '../stream/schemas.js';
import { evidenceReader, type BotLike, type EvidenceOptions } from './evidence.js';
import { createBeliefMetrics, type BeliefMetrics } from './metrics.js';

/** A timer source; inject a fake one in tests (default: the global setInterval). */
export interface Scheduler {
  /** Calls `callback` every `ms`; returns a handle. */
  setInterval(callback: () => void, ms: number): unknown;
  /** Stops the interval of `handle`. */
  clearInterval(handle: unknown): void;
}

/** One ingest tick's threats and hazard summary. */
export interface TickEvent {
  readonly tickId: number;
  readonly threats: readonly TrackView[];
  readonly hazards: HazardSummary;
}

interface Events {
  message: StreamMessage;
  deltas: DeltasMessage;
  snapshot: SnapshotMessage;
  tick: TickEvent;
  error: BeliefError;
}

/** Options of `attachBelief`. */
export interface BeliefAdapterOptions {
  /** Bus config; `emitEveryTicks` defaults to emitEveryMs / ingestEveryMs. */
  readonly bus?: BeliefConfigInput;
  /** Ingest cadence (default 200 ms = 5 Hz). */
  readonly ingestEveryMs?: number;
  /** Emission cadence toward cognition (default 1000 ms = 1 Hz). */
  readonly emitEveryMs?: number;
  readonly evidence?: EvidenceOptions;
  readonly scheduler?: Scheduler;
  /** Monotonic seconds source for `sinew_belief_ingest_seconds` (default performance.now). */
  readonly now?: () => number;
  /** prom-client registry for the belief metrics (default: the executor's, else a private one). */
  readonly registry?: Registry;
  /** The executor this belief feeds: its metrics registry (what `/metrics` serves) carries the belief metrics by default. */
  readonly executor?: { readonly metrics: { readonly registry: Registry } };
  /** Read every ingest tick with the bus's threats (the reflex never waits for emission). */
  readonly reflex?: Reflex;
}

/** The belief layer attached to a bot: the bus, its cadence and its events. */
export interface BeliefAdapter {
  readonly bus: BeliefBus;
  readonly registry: Registry;
  /** Starts ingesting on the cadence (idempotent). */
  start(): void;
  /** Stops the cadence (idempotent). */
  stop(): void;
  /** Runs one ingest tick now (what the cadence calls); never throws, a throwing listener is an `error` event. */
  tick(): void;
  /** Subscribes to an adapter event; returns the unsubscribe. */
  on<K extends keyof Events>(event: K, listener: (payload: Events[K]) => void): () => void;
}

const VISIBILITIES: readonly Visibility[] = ['visible', 'inferred', 'lost'];

const globalScheduler: Scheduler = {
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};

function listenerError(source: string, error: unknown): BeliefError {
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'listener_error', message: `${source} listener threw: ${message}`, issues: [{ path: [source], message }] };
}

/**
 * Attaches a Belief Bus to a mineflayer bot: evidence from its entity table at 5 Hz (the bus orders it canonically),
 * deltas/snapshots at 1 Hz as events and metrics, the reflex fed every tick.
 */
export function attachBelief(bot: BotLike, options: BeliefAdapterOptions = {}): BeliefAdapter {
  const ingestEveryMs = options.ingestEveryMs ?? 200;
  const emitEveryMs = options.emitEveryMs ?? 1000;
  const bus = createBeliefBus({
    emitEveryTicks: Math.max(1, Math.round(emitEveryMs / ingestEveryMs)),
    ...options.bus,
  });
  const scheduler = options.scheduler ?? globalScheduler;
  const now = options.now ?? (() => performance.now() / 1000);
  const registry = options.registry ?? options.executor?.metrics.registry ?? new Registry();
  const metrics: BeliefMetrics = createBeliefMetrics(registry);
  const readEvidence = evidenceReader(options.evidence);
  const listeners: { [K in keyof Events]: Set<(payload: Events[K]) => void> } = {
    message: new Set(),
    deltas: new Set(),
    snapshot: new Set(),
    tick: new Set(),
    error: new Set(),
  };
  let handle: unknown;
  let tickId = 0;

  /** A throwing listener becomes an `error` event; it never skips the other listeners nor escapes the interval. */
  function emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    for (const listener of listeners[event]) {
      try {
        listener(payload);
      } catch (error) {
        // an `error` listener that throws is dropped here: reporting it to itself again could loop
        if (event !== 'error') emit('error', listenerError(event, error));
      }
    }
  }

  function tick(): void {
    const started = now();
    const batch = readEvidence(bot);
    if (!batch) return; // not spawned yet: no observer, no evidence
    tickId += 1;
    const result = bus.ingest(tickId, batch);
    metrics.ingestSeconds.observe(Math.max(0, now() - started));
    if (!result.ok) {
      emit('error', result.error);
      return;
    }
    const counts = bus.visibilityCounts();
    for (const visibility of VISIBILITIES) metrics.tracks.set({ visibility }, counts[visibility]);
    // views are built only for hostile tracks, and only when someone reads them
    const threats = options.reflex ? bus.threats() : undefined;
    try {
      if (threats) options.reflex?.tick(tickId, threats);
    } catch (error) {
      emit('error', listenerError('reflex', error));
    }
    for (const message of result.messages) {
      if (message.kind === 'deltas') {
        for (const d of message.deltas) metrics.deltas.inc({ type: d.type });
        emit('deltas', message);
      } else emit('snapshot', message);
      emit('message', message);
    }
    if (listeners.tick.size > 0) emit('tick', { tickId, threats: threats ?? bus.threats(), hazards: bus.hazards() });
  }

  return {
    bus,
    registry,
    start() {
      if (handle === undefined) handle = scheduler.setInterval(tick, ingestEveryMs);
    },
    stop() {
      if (handle !== undefined) scheduler.clearInterval(handle);
      handle = undefined;
    },
    tick,
    on(event, listener) {
      listeners[event].add(listener);
      return () => {
        listeners[event].delete(listener);
      };
    },
  };
}
