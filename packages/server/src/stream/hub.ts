import type { WebSocket } from 'ws';

/** Version of the event envelope; bumped on any incompatible change of `{ v, seq, ts, type, data }`. */
export const EVENT_STREAM_VERSION = 1;

/** One event on `/api/events`. `seq` increases by one per event; `stream.hello` repeats the last seq. */
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
  readonly ringSize: number;
  readonly clientQueue: number;
  readonly clientHighWaterBytes: number;
}

/**
 * One WebSocket client with a bounded queue: at most `clientHighWaterBytes` are handed to the socket
 * unflushed; further events wait in a queue of `clientQueue` entries whose oldest are dropped and
 * counted, so a client that never reads costs a bounded amount of memory.
 */
class StreamClient {
  readonly #queue: string[] = [];
  #inflight = 0;
  dropped = 0;
  readonly #afterWrite = (bytes: number) => (error?: Error) => {
    this.#inflight -= bytes;
    if (!error) this.#drain();
  };

  constructor(
    readonly id: number,
    private readonly socket: WebSocket,
    private readonly limits: HubLimits,
    private readonly onDrop: () => void,
  ) {}

  send(text: string): void {
    if (this.#queue.length === 0 && this.#inflight < this.limits.clientHighWaterBytes) {
      this.#write(text);
      return;
    }
    if (this.#queue.length >= this.limits.clientQueue) {
      this.#queue.shift();
      this.dropped += 1;
      this.onDrop();
    }
    this.#queue.push(text);
  }

  stats(): StreamClientStats {
    return { id: this.id, queued: this.#queue.length, dropped: this.dropped, inflightBytes: this.#inflight };
  }

  #write(text: string): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    const bytes = Buffer.byteLength(text);
    this.#inflight += bytes;
    this.socket.send(text, this.#afterWrite(bytes));
  }

  #drain(): void {
    while (this.#queue.length > 0 && this.#inflight < this.limits.clientHighWaterBytes) this.#write(this.#queue.shift()!);
  }
}

/**
 * The event hub: numbers events, keeps the last `ringSize` for resumes, fans out to clients. Events
 * published in one turn of the event loop are serialized and sent together on the next (setImmediate),
 * so the executor's emit costs one array push.
 */
export class EventHub {
  #seq = 0;
  readonly #ring: { seq: number; text: string }[] = [];
  #ringStart = 0;
  readonly #clients = new Map<number, StreamClient>();
  #nextClient = 1;
  #pending: { type: string; data: unknown; ts: number }[] = [];
  #scheduled = false;
  #dropped = 0;

  constructor(
    private readonly limits: HubLimits,
    private readonly now: () => number = Date.now,
    private readonly onDrop: () => void = () => {},
  ) {}

  /** Queues an event for every client and the resume ring. */
  publish(type: string, data: unknown): void {
    this.#pending.push({ type, data, ts: this.now() });
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.flush());
  }

  /** Numbers, serializes and sends what was published since the last flush (also called on close). */
  flush(): void {
    this.#scheduled = false;
    const pending = this.#pending;
    if (pending.length === 0) return;
    this.#pending = [];
    for (const event of pending) {
      const envelope: EventEnvelope = { v: EVENT_STREAM_VERSION, seq: ++this.#seq, ts: event.ts, type: event.type, data: event.data };
      const text = safeStringify(envelope);
      this.#remember(envelope.seq, text);
      for (const client of this.#clients.values()) client.send(text);
    }
  }

  /** Attaches a socket; with `since`, first replays the ring's events after that seq (a `stream.hello` says how many were missed). */
  attach(socket: WebSocket, since: number | undefined): number {
    this.flush();
    const id = this.#nextClient++;
    const client = new StreamClient(id, socket, this.limits, () => {
      this.#dropped += 1;
      this.onDrop();
    });
    this.#clients.set(id, client);
    socket.once('close', () => this.#clients.delete(id));
    const replay = since === undefined ? [] : this.#after(since);
    const oldest = this.#ring[this.#ringStart]?.seq ?? this.#seq + 1;
    const missed = since === undefined ? 0 : Math.max(0, Math.min(oldest, this.#seq + 1) - since - 1);
    const hello: EventEnvelope = {
      v: EVENT_STREAM_VERSION,
      seq: this.#seq,
      ts: this.now(),
      type: 'stream.hello',
      data: { version: EVENT_STREAM_VERSION, lastSeq: this.#seq, since: since ?? null, replayed: replay.length, missed, ringSize: this.limits.ringSize },
    };
    client.send(JSON.stringify(hello));
    for (const text of replay) client.send(text);
    return id;
  }

  get lastSeq(): number {
    return this.#seq;
  }

  get droppedTotal(): number {
    return this.#dropped;
  }

  clients(): StreamClientStats[] {
    return [...this.#clients.values()].map((c) => c.stats());
  }

  #remember(seq: number, text: string): void {
    if (this.#ring.length < this.limits.ringSize) {
      this.#ring.push({ seq, text });
      return;
    }
    this.#ring[this.#ringStart] = { seq, text };
    this.#ringStart = (this.#ringStart + 1) % this.limits.ringSize;
  }

  #after(since: number): string[] {
    const out: string[] = [];
    const size = this.#ring.length;
    for (let i = 0; i < size; i += 1) {
      const entry = this.#ring[(this.#ringStart + i) % size]!;
      if (entry.seq > since) out.push(entry.text);
    }
    return out;
  }
}

/** Serializes an envelope; data that cannot be serialized (a cycle, a BigInt) is replaced by a note, never thrown. */
function safeStringify(envelope: EventEnvelope): string {
  try {
    return JSON.stringify(envelope);
  } catch (error) {
    return JSON.stringify({ ...envelope, data: { unserializable: error instanceof Error ? error.message : String(error) } });
  }
}
