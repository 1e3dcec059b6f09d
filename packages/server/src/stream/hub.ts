import type { WebSocket } from 'ws';

/** Version of the event envelope; bumped on any incompatible change of `{ v, seq, ts, type, data }`. */
export const EVENT_STREAM_VERSION = 1;

/**
 * One event on `/api/events`. `seq` increases by one per event; `stream.hello` repeats the last seq.
 * A WebSocket message carries one or more envelopes, one JSON object per line.
 */
export interface EventEnvelope<Type extends string = string, Data = unknown> {
  readonly v: typeof EVENT_STREAM_VERSION;
  readonly seq: number;
  readonly ts: number;
  readonly type: Type;
  readonly data: Data;
}

/** A connected client's counters (`clients()` on the server). */
export interface StreamClientStats {
  readonly id: number;
  readonly queued: number;
  readonly dropped: number;
  readonly inflightBytes: number;
}

interface HubLimits {
  readonly flushIntervalMs: number;
  readonly ringSize: number;
  readonly clientQueue: number;
  readonly clientHighWaterBytes: number;
}

/** A frame carries the queued envelopes up to about this many bytes, one JSON per line. */
const FRAME_BYTES = 64 * 1024;

/**
 * One WebSocket client with a bounded queue: at most `clientHighWaterBytes` are handed to the socket
 * unflushed; further events wait in a queue of `clientQueue` entries whose oldest are dropped and
 * counted, so a client that never reads costs a bounded amount of memory. Queued events leave in
 * frames of several envelopes (newline-separated): one socket write per client per flush.
 */
class StreamClient {
  // A queue with a moving head: dropping and taking are O(1); the array is compacted now and then.
  #queue: string[] = [];
  #head = 0;
  #inflight = 0;
  dropped = 0;
  readonly #afterWrite = (bytes: number) => (error?: Error) => {
    this.#inflight -= bytes;
    if (!error) this.drain();
  };

  constructor(
    readonly id: number,
    private readonly socket: WebSocket,
    private readonly limits: HubLimits,
    private readonly onDrop: () => void,
  ) {}

  get #queued(): number {
    return this.#queue.length - this.#head;
  }

  /** Queues one serialized envelope (sent by the next `drain()`). */
  enqueue(text: string): void {
    if (this.#queued >= this.limits.clientQueue) {
      this.#head += 1;
      this.dropped += 1;
      this.onDrop();
    }
    this.#queue.push(text);
  }

  /** True when nothing waits and the socket is under its high-water mark: a shared frame can go out as is. */
  get inSync(): boolean {
    return this.#head === this.#queue.length && this.#inflight < this.limits.clientHighWaterBytes;
  }

  /** Sends a frame already encoded for every in-sync client (one UTF-8 encoding per flush, not per client). */
  sendShared(frame: Buffer): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.#inflight += frame.length;
    this.socket.send(frame, { binary: false }, this.#afterWrite(frame.length));
  }

  /** Writes queued envelopes, in frames, while the socket is under its high-water mark. */
  drain(): void {
    const queue = this.#queue;
    while (this.#head < queue.length && this.#inflight < this.limits.clientHighWaterBytes) {
      let end = this.#head;
      let bytes = 0;
      while (end < queue.length && (end === this.#head || bytes + queue[end]!.length < FRAME_BYTES)) bytes += queue[end++]!.length + 1;
      const frame = queue.slice(this.#head, end).join('\n');
      this.#head = end;
      this.#write(frame);
    }
    if (this.#head === queue.length) {
      this.#queue = [];
      this.#head = 0;
    } else if (this.#head > 4096 && this.#head * 2 > queue.length) {
      this.#queue = queue.slice(this.#head);
      this.#head = 0;
    }
  }

  stats(): StreamClientStats {
    return { id: this.id, queued: this.#queued, dropped: this.dropped, inflightBytes: this.#inflight };
  }

  #write(text: string): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    const bytes = Buffer.byteLength(text);
    this.#inflight += bytes;
    this.socket.send(text, this.#afterWrite(bytes));
  }
}

/** A ring entry; its text is built the first time a client needs it, then shared. */
interface Entry {
  readonly seq: number;
  readonly ts: number;
  readonly type: string;
  readonly data: unknown;
  text?: string;
}

/**
 * The event hub: numbers events, keeps the last `ringSize` for resumes, fans out to clients. Events
 * are batched for `flushIntervalMs` (the executor's emit costs one array push), serialized once when a
 * client needs them (never while nobody listens) and sent as one frame per client per flush.
 */
export class EventHub {
  #seq = 0;
  readonly #ring: Entry[] = [];
  #ringStart = 0;
  readonly #clients = new Map<number, StreamClient>();
  #nextClient = 1;
  #pending: { type: string; data: unknown; ts: number }[] = [];
  #timer: ReturnType<typeof setTimeout> | ReturnType<typeof setImmediate> | undefined;
  readonly #flush = () => this.flush();

  constructor(
    private readonly limits: HubLimits,
    private readonly now: () => number = Date.now,
    private readonly onDrop: () => void = () => {},
  ) {}

  /** Queues an event for every client and the resume ring. */
  publish(type: string, data: unknown): void {
    this.#pending.push({ type, data, ts: this.now() });
    if (this.#timer !== undefined) return;
    const interval = this.limits.flushIntervalMs;
    this.#timer = interval === 0 ? setImmediate(this.#flush) : setTimeout(this.#flush, interval).unref();
  }

  /** Numbers, stores and sends what was published since the last flush (also called on attach and close). */
  flush(): void {
    const timer = this.#timer;
    if (timer !== undefined) {
      if (this.limits.flushIntervalMs === 0) clearImmediate(timer as ReturnType<typeof setImmediate>);
      else clearTimeout(timer as ReturnType<typeof setTimeout>);
    }
    this.#timer = undefined;
    const pending = this.#pending;
    if (pending.length === 0) return;
    this.#pending = [];
    const clients = [...this.#clients.values()];
    const texts: string[] = [];
    for (const event of pending) {
      const entry: Entry = { seq: ++this.#seq, ts: event.ts, type: event.type, data: event.data };
      this.#remember(entry);
      if (clients.length > 0) texts.push(serialize(entry));
    }
    if (texts.length === 0) return;
    let shared: Buffer | undefined;
    for (const client of clients) {
      if (client.inSync) client.sendShared((shared ??= Buffer.from(texts.join('\n'))));
      else {
        for (const text of texts) client.enqueue(text);
        client.drain();
      }
    }
  }

  /** Attaches a socket; with `since`, first replays the ring's events after that seq (a `stream.hello` says how many were missed). */
  attach(socket: WebSocket, since: number | undefined): number {
    this.flush();
    const id = this.#nextClient++;
    const client = new StreamClient(id, socket, this.limits, this.onDrop);
    this.#clients.set(id, client);
    socket.once('close', () => this.#clients.delete(id));
    const replay = since === undefined ? [] : this.#after(since);
    const oldest = this.#ring[this.#ringStart]?.seq ?? this.#seq + 1;
    const missed = since === undefined ? 0 : Math.max(0, Math.min(oldest, this.#seq + 1) - since - 1);
    const hello: Entry = {
      seq: this.#seq,
      ts: this.now(),
      type: 'stream.hello',
      data: { version: EVENT_STREAM_VERSION, lastSeq: this.#seq, since: since ?? null, replayed: replay.length, missed, ringSize: this.limits.ringSize },
    };
    client.enqueue(serialize(hello));
    for (const entry of replay) client.enqueue(serialize(entry));
    client.drain();
    return id;
  }

  get lastSeq(): number {
    this.flush();
    return this.#seq;
  }

  clients(): StreamClientStats[] {
    return [...this.#clients.values()].map((c) => c.stats());
  }

  #remember(entry: Entry): void {
    if (this.#ring.length < this.limits.ringSize) {
      this.#ring.push(entry);
      return;
    }
    this.#ring[this.#ringStart] = entry;
    this.#ringStart = (this.#ringStart + 1) % this.limits.ringSize;
  }

  #after(since: number): Entry[] {
    const out: Entry[] = [];
    const size = this.#ring.length;
    for (let i = 0; i < size; i += 1) {
      const entry = this.#ring[(this.#ringStart + i) % size]!;
      if (entry.seq > since) out.push(entry);
    }
    return out;
  }
}

/** The entry's envelope as JSON (cached); data that cannot be serialized (a cycle, a BigInt) becomes a note, never a throw. */
function serialize(entry: Entry): string {
  if (entry.text !== undefined) return entry.text;
  const envelope: EventEnvelope = { v: EVENT_STREAM_VERSION, seq: entry.seq, ts: entry.ts, type: entry.type, data: entry.data };
  try {
    entry.text = JSON.stringify(envelope);
  } catch (error) {
    entry.text = JSON.stringify({ ...envelope, data: { unserializable: error instanceof Error ? error.message : String(error) } });
  }
  return entry.text;
}
