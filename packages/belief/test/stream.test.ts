import { describe, expect, it } from 'vitest';
import {
  applyStream,
  consumerView,
  createBeliefBus,
  initialConsumerState,
  STREAM_VERSION,
  StreamMessageSchema,
  type BeliefBus,
  type ConsumerState,
  type StreamMessage,
} from '@sinew/belief';
import { batchOf, prng, stableScene, type SceneEntity } from './helpers.js';

/** A busy scene (movers, arrivals, departures) producing many deltas; returns the bus and every message. */
function busyStream(ticks: number): { bus: BeliefBus; messages: StreamMessage[] } {
  const bus = createBeliefBus({ cooldownTicks: 5, snapshotEveryTicks: 40 });
  const rand = prng(21);
  const scene = stableScene(20, 21);
  const movers: SceneEntity[] = Array.from({ length: 10 }, (_, i) => ({
    id: 3000 + i, cls: i % 2 ? 'zombie' : 'pig', hostile: i % 2 === 1, x: 30 - i * 3, y: 64, z: 10 + i,
  }));
  const messages: StreamMessage[] = [];
  for (let tick = 1; tick <= ticks; tick += 1) {
    for (const [i, m] of movers.entries()) m.x += Math.sin((tick + i * 7) / 15) * 0.6;
    const present = scene.filter((e, i) => (tick / 30 + i) % 4 >= 1); // entities come and go
    const r = bus.ingest(tick, batchOf([...present, ...movers], rand));
    if (!r.ok) throw new Error(r.error.message);
    messages.push(...r.messages);
  }
  return { bus, messages };
}

function feed(messages: readonly StreamMessage[], state: ConsumerState = initialConsumerState()): ConsumerState {
  for (const m of messages) state = applyStream(state, m).state;
  return state;
}

describe('stream envelope and applyStream', () => {
  it('starts with a snapshot, numbers seq without holes and rebuilds the published view in order', () => {
    const { bus, messages } = busyStream(200);
    expect(messages[0]!.kind).toBe('snapshot');
    expect(messages.map((m) => m.seq)).toEqual(messages.map((_, i) => i + 1));
    expect(messages.filter((m) => m.kind === 'deltas').length).toBeGreaterThan(10);
    const state = feed(messages);
    expect(state.synced).toBe(true);
    expect(consumerView(state)).toEqual(bus.publishedView());
    expect(bus.publishedView().length).toBeGreaterThan(10);
  });

  it('a dropped delta marks a gap; the next snapshot resyncs to the same view', () => {
    const { bus, messages } = busyStream(200);
    const lastSnapshot = messages.map((m) => m.kind).lastIndexOf('snapshot');
    const dropAt = messages.findIndex((m, i) => i > 1 && m.kind === 'deltas');
    let state = initialConsumerState();
    const statuses: string[] = [];
    messages.forEach((m, i) => {
      if (i === dropAt) return;
      const r = applyStream(state, m, { reorderWindow: 3 });
      state = r.state;
      statuses.push(r.status);
      if (i === dropAt + 1) expect(r.status).toBe('buffered');
    });
    expect(statuses).toContain('gap');
    expect(statuses).toContain('resynced');
    expect(lastSnapshot).toBeGreaterThan(dropAt);
    expect(state.synced).toBe(true);
    expect(consumerView(state)).toEqual(bus.publishedView());
  });

  it('reordered deltas are buffered and applied in seq order without waiting for a snapshot', () => {
    const { bus, messages } = busyStream(200);
    const reordered = [...messages];
    for (let i = 2; i + 1 < reordered.length; i += 5) [reordered[i], reordered[i + 1]] = [reordered[i + 1]!, reordered[i]!];
    const state = feed(reordered);
    expect(consumerView(state)).toEqual(bus.publishedView());
    expect(state.seq).toBe(messages.at(-1)!.seq);
  });

  it('duplicates and late messages are stale: the view never regresses', () => {
    const { messages } = busyStream(120);
    const upTo = feed(messages.slice(0, 20));
    const before = consumerView(upTo);
    let state = upTo;
    for (const m of messages.slice(0, 20).reverse()) {
      const r = applyStream(state, m);
      expect(r.status).toBe('stale');
      state = r.state;
    }
    expect(consumerView(state)).toEqual(before);
  });

  it('deltas that arrive before the first snapshot wait for it', () => {
    const { bus, messages } = busyStream(12);
    expect(messages.map((m) => m.kind)).toEqual(['snapshot', 'deltas', 'deltas']);
    let state = initialConsumerState();
    state = applyStream(state, messages[2]!).state;
    state = applyStream(state, messages[1]!).state;
    expect(state.synced).toBe(false);
    expect(consumerView(state)).toEqual([]);
    const r = applyStream(state, messages[0]!);
    expect(r.status).toBe('resynced');
    expect(consumerView(r.state)).toEqual(bus.publishedView());
  });

  it('pivot 9: messages carry an explicit wire version; another version or an unknown field is rejected', () => {
    const { messages } = busyStream(12);
    expect(messages.every((m) => m.version === STREAM_VERSION)).toBe(true);
    expect(StreamMessageSchema.safeParse({ ...messages[0], version: 'sinew.belief/0' }).success).toBe(false);
    expect(StreamMessageSchema.safeParse({ ...messages[0], request_version: 'legacy_observation' }).success).toBe(false);
  });

  it('a foreign stream is ignored until it sends a snapshot; requestSnapshot forces one', () => {
    const { messages } = busyStream(60);
    const state = feed(messages);
    const other = createBeliefBus({ streamId: 'other' });
    const first = other.ingest(1, { observer: { x: 0, y: 64, z: 0 }, items: [] });
    const foreignDelta: StreamMessage = { ...messages.find((m) => m.kind === 'deltas')!, streamId: 'other', seq: 99 };
    expect(applyStream(state, foreignDelta).status).toBe('foreign');
    expect(first.ok && first.messages[0]?.kind).toBe('snapshot');
    other.requestSnapshot();
    const r = other.ingest(6, { observer: { x: 0, y: 64, z: 0 }, items: [] });
    expect(r.ok && r.messages.map((m) => m.kind)).toEqual(['snapshot']);
  });
});
