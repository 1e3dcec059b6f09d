import type { WebSocket } from 'ws';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventHub } from '../src/stream/hub.js';

/**
 * A socket whose writes complete only when the test says so (a kernel buffer that is full until then):
 * it records each frame and the bytes written and not yet acknowledged.
 */
class HeldSocket {
  readonly OPEN = 1;
  readonly readyState = 1;
  readonly frames: string[] = [];
  unacknowledged = 0;
  peak = 0;
  #pending: (() => void)[] = [];

  send(data: Buffer | string, _options: unknown, done: (error?: Error) => void): void {
    const bytes = Buffer.byteLength(data);
    this.frames.push(String(data));
    this.unacknowledged += bytes;
    this.peak = Math.max(this.peak, this.unacknowledged);
    this.#pending.push(() => {
      this.unacknowledged -= bytes;
      done();
    });
  }

  get bufferedAmount(): number {
    return this.unacknowledged;
  }

  once(): void {}

  /** Completes every write so far (each completion may write more); false when nothing was pending. */
  acknowledge(): boolean {
    const pending = this.#pending.splice(0);
    for (const complete of pending) complete();
    return pending.length > 0;
  }

  seqs(): number[] {
    return this.frames.flatMap((frame) => frame.split('\n').map((line) => (JSON.parse(line) as { seq: number }).seq));
  }
}

const limits = { flushIntervalMs: 10, ringSize: 1024, clientQueue: 32, clientHighWaterBytes: 4096 };
const pad = 'x'.repeat(900); // an envelope of about 1 KB: four fit under the high-water mark

function hubWith(socket: HeldSocket): EventHub {
  const hub = new EventHub(limits, () => 0);
  hub.attach(socket as unknown as WebSocket);
  socket.acknowledge(); // stream.hello
  return hub;
}

describe('EventHub: frames under each client high-water mark', () => {
  it('sends a batch bigger than the high-water mark in frames under it; a client that keeps up loses nothing', () => {
    const socket = new HeldSocket();
    const hub = hubWith(socket);
    // the socket completes each write between two events; the hub flushes every clientQueue events or at n % 50
    for (let n = 1; n <= 200; n += 1) {
      hub.publish('flood', { n, pad });
      socket.acknowledge();
      if (n % 50 === 0) hub.flush();
    }
    while (socket.acknowledge());
    expect(socket.seqs().slice(1)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(socket.peak).toBeLessThanOrEqual(limits.clientHighWaterBytes);
    expect(hub.clients()[0]).toMatchObject({ queued: 0, dropped: 0, inflightBytes: 0 });
  });

  it('holds a client that never reads at the high-water mark and clientQueue events, dropping the oldest', () => {
    const socket = new HeldSocket();
    const hub = hubWith(socket);
    for (let n = 1; n <= 200; n += 1) hub.publish('flood', { n, pad });
    hub.flush();
    const sent = socket.seqs().length - 1;
    expect(sent).toBeGreaterThan(0);
    expect(socket.peak).toBeLessThanOrEqual(limits.clientHighWaterBytes);
    expect(hub.clients()[0]).toMatchObject({ queued: limits.clientQueue, dropped: 200 - sent - limits.clientQueue, inflightBytes: socket.unacknowledged });
    while (socket.acknowledge());
    // what was kept is the newest: the sent head, then the last clientQueue events
    expect(socket.seqs().slice(1 + sent)).toEqual(Array.from({ length: limits.clientQueue }, (_, i) => 200 - limits.clientQueue + 1 + i));
  });

  it('sends an envelope larger than the high-water mark alone, once the socket is idle', () => {
    const socket = new HeldSocket();
    const hub = hubWith(socket);
    hub.publish('small', { n: 1 });
    hub.publish('big', { pad: 'y'.repeat(2 * limits.clientHighWaterBytes) });
    hub.publish('small', { n: 3 });
    hub.flush();
    expect(socket.frames).toHaveLength(2); // hello, then the first event alone: the big one does not fit beside it
    while (socket.acknowledge());
    expect(socket.frames.slice(1).map((frame) => frame.split('\n').length)).toEqual([1, 1, 1]);
    expect(socket.seqs().slice(1)).toEqual([1, 2, 3]);
  });
});

describe('EventHub: flushIntervalMs 0', () => {
  afterEach(() => vi.useRealTimers());

  it('sends an event after a quiet spell at the next turn, and events that keep coming at most once per millisecond', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate'] });
    let now = 1000;
    const socket = new HeldSocket();
    const hub = new EventHub({ ...limits, flushIntervalMs: 0, clientHighWaterBytes: 1 << 20 }, () => now);
    hub.attach(socket as unknown as WebSocket);
    socket.frames.length = 0; // stream.hello
    hub.publish('a', 1);
    vi.advanceTimersByTime(0); // the next turn
    expect(socket.seqs()).toEqual([1]);
    // Turn after turn within the millisecond that flush went out in: nothing more is written before the next one.
    for (const data of [2, 3, 4]) {
      hub.publish('b', data);
      vi.advanceTimersByTime(0);
    }
    expect(socket.seqs()).toEqual([1]);
    now += 1;
    vi.advanceTimersByTime(1);
    expect(socket.frames).toHaveLength(2);
    expect(socket.seqs()).toEqual([1, 2, 3, 4]);
    // Later, in a millisecond no flush went out in: the next turn again.
    now += 5;
    hub.publish('c', 5);
    vi.advanceTimersByTime(0);
    expect(socket.seqs()).toEqual([1, 2, 3, 4, 5]);
  });
});
