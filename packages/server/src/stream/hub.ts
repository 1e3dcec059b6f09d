import { randomBytes } from 'node:crypto';
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

/** Where a client wants to resume: the last seq it saw and the epoch (server start) that seq belongs to. */
export interface Resume {
  readonly since?: number | undefined;
  readonly epoch?: string | undefined;
}

interface HubLimits {
  readonly flushIntervalMs: number;
  readonly ringSize: number;
  readonly clientQueue: number;
  readonly clientHighWaterBytes: number;
}

/** With `flushIntervalMs: 0`, the gap between two flushes while events keep coming (see EventHub.#schedule). */
const BUSY_FLUSH_GAP_MS = 1;

/** A frame carries the queued envelopes up to about this many bytes, one JSON per line. */
const FRAME_BYTES = 64 * 1024;

/**
 * One WebSocket client with a bounded queue: at most `clientHighWaterBytes` are handed to the socket
 * unflushed (a single larger envelope goes alone on an idle socket); further events wait in a queue of
 * `clientQueue` entries whose oldest are dropped and counted, so a client that never reads costs a
 * bounded amount of memory. Events leave in frames of several envelopes (newline-separated).
 */
class StreamClient {
  // A queue with a moving head: dropping and taking are O(1); the array is compacted now and then.
  #queue: string[] = [];
  #head = 0;
  dropped = 0;
  // One callback for every write: when the socket flushes, what waits goes next.
  readonly #afterWrite = (error?: Error) => {
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

  /** Takes a flush: its shared frames while nothing waits and each fits under the high-water mark, the rest through the queue. */
  take(batch: Batch): void {
    let frame = 0;
    for (; frame < batch.frames && this.#queued === 0 && this.#fits(batch.bytes(frame)); frame += 1) this.#send(batch.frame(frame));
    if (frame === batch.frames) return;
    for (let i = batch.first(frame); i < batch.texts.length; i += 1) this.enqueue(batch.texts[i]!);
    this.drain();
  }

  /** Writes queued envelopes, in frames that fit under the high-water mark (an idle socket takes at least one envelope). */
  drain(): void {
    const queue = this.#queue;
    while (this.#head < queue.length) {
      const unflushed = this.#unflushed;
      const budget = Math.min(FRAME_BYTES, this.limits.clientHighWaterBytes - unflushed);
      let end = this.#head;
      let bytes = -1; // no newline before the first envelope
      for (; end < queue.length; end += 1) {
        const next = bytes + 1 + Buffer.byteLength(queue[end]!);
        if (next > budget && !(end === this.#head && unflushed === 0)) break;
        bytes = next;
      }
      if (end === this.#head) break;
      const frame = queue.slice(this.#head, end).join('\n');
      this.#head = end;
      this.#send(frame);
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
    return { id: this.id, queued: this.#queued, dropped: this.dropped, inflightBytes: this.#unflushed };
  }

  /** Bytes handed to the socket and not yet flushed to the kernel: what a write the kernel took at once leaves out. */
  get #unflushed(): number {
    return this.socket.bufferedAmount;
  }

  #fits(bytes: number): boolean {
    const unflushed = this.#unflushed;
    return unflushed === 0 || unflushed + bytes <= this.limits.clientHighWaterBytes;
  }

  #send(frame: Buffer | string): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.socket.send(frame, { binary: false }, this.#afterWrite);
  }
}

/**
 * One flush's envelopes cut into frames of at most `limit` bytes (one envelope at least); each frame is
 * UTF-8 encoded once, the first time a client takes it, and shared by every client that can take it.
 */
class Batch {
  // frame i holds texts[starts[i]] up to texts[starts[i + 1]] (exclusive); sizes[i] is its byte length
  readonly #starts: number[] = [];
  readonly #sizes: number[] = [];
  readonly #encoded: (Buffer | undefined)[] = [];

  constructor(
    readonly texts: readonly string[],
    limit: number,
  ) {
    let size = -1;
    for (let i = 0; i < texts.length; i += 1) {
      const bytes = Buffer.byteLength(texts[i]!);
      if (i === 0 || size + 1 + bytes > limit) {
        if (i > 0) this.#sizes.push(size);
        this.#starts.push(i);
        size = -1;
      }
      size += 1 + bytes;
    }
    this.#sizes.push(size);
  }

  get frames(): number {
    return this.#starts.length;
  }

  first(frame: number): number {
    return this.#starts[frame]!;
  }

  bytes(frame: number): number {
    return this.#sizes[frame]!;
  }

  frame(frame: number): Buffer {
    const end = this.#starts[frame + 1] ?? this.texts.length;
    return (this.#encoded[frame] ??= frameOf(this.texts, this.#starts[frame]!, end, this.#sizes[frame]!));
  }
}

/**
 * The event hub: numbers events, keeps the last `ringSize` for resumes, fans out to clients. The
 * executor's emit costs a seq, a timestamp and four array stores (no object, no closure per event):
 * the ring holds the raw payloads; envelopes are serialized once, only when a client listens, in one
 * batch per flush (the next event-loop turn, or `flushIntervalMs`), cut into frames encoded once and
 * shared by the clients. A batch never outgrows the ring nor a client's queue: the
 * `min(ringSize, clientQueue)`-th pending event flushes first.
 */
export class EventHub {
  #seq = 0;
  /** The last seq handed to the clients. */
  #sent = 0;
  // The ring, as parallel arrays indexed by (seq - 1) % ringSize; a text is built the first time a client needs it.
  readonly #types: string[] = [];
  readonly #data: unknown[] = [];
  readonly #stamps: number[] = [];
  readonly #texts: (string | undefined)[] = [];
  readonly #clients = new Map<number, StreamClient>();
  #nextClient = 1;
  #timer: ReturnType<typeof setTimeout> | ReturnType<typeof setImmediate> | undefined;
  readonly #flush = () => this.flush();
  /** When (hub clock, ms) the last batch went to the clients. */
  #flushedAt = Number.NaN;
  /** Whether `#timer` is an Immediate (else a Timeout). */
  #immediate = false;
  // A batch fits the ring and a client's queue: what an in-sync client cannot write at once waits there, none dropped.
  readonly #batchLimit: number;
  /** This hub's seq space: a fresh id per server start, so a seq from before a restart is never taken for one of ours. */
  readonly epoch = randomBytes(8).toString('hex');
  /** Receives every envelope as it is published (the `record` file); unset, publishing serializes nothing. */
  #recorder: ((text: string) => void) | undefined;

  constructor(
    private readonly limits: HubLimits,
    private readonly now: () => number = Date.now,
    private readonly onDrop: () => void = () => {},
    /** The current state a client from another epoch gets in its hello (its seqs mean nothing here). */
    private readonly snapshot: () => unknown = () => null,
  ) {
    this.#batchLimit = Math.min(limits.ringSize, limits.clientQueue);
  }

  /** Stores an event in the resume ring; the next flush sends it to every client. */
  publish(type: string, data: unknown): void {
    const size = this.limits.ringSize;
    if (this.#seq - this.#sent >= this.#batchLimit) this.flush();
    const slot = this.#seq % size;
    this.#seq += 1;
    this.#types[slot] = type;
    this.#data[slot] = data;
    const stamp = this.now();
    this.#stamps[slot] = stamp;
    this.#texts[slot] = undefined;
    if (this.#recorder) this.#recorder(this.#text(this.#seq));
    // Nobody listens: nothing to send, nothing to schedule (a client attaching later resumes with `?since=`).
    if (this.#clients.size === 0) this.#sent = this.#seq;
    else if (this.#timer === undefined) this.#schedule(stamp);
  }

  /**
   * The next flush: after `flushIntervalMs`, or with 0 at the next event-loop turn — unless a flush already went
   * out this millisecond (events arrive turn after turn), then at the next one: a socket write per client per
   * turn cost more than the steps it reported (`npm run bench server`), and the burst's latency grows by ≤ 1 ms.
   */
  #schedule(stamp: number): void {
    const interval = this.limits.flushIntervalMs;
    this.#immediate = interval === 0 && stamp !== this.#flushedAt;
    if (this.#immediate) this.#timer = setImmediate(this.#flush);
    else this.#timer = interval > 0 ? setTimeout(this.#flush, interval).unref() : setTimeout(this.#flush, BUSY_FLUSH_GAP_MS);
  }

  /** Sends what was published since the last flush: shared frames per client (also called on attach, close and `lastSeq`). */
  flush(): void {
    this.#cancelTimer();
    const from = this.#sent + 1;
    const to = this.#seq;
    if (from > to) return;
    this.#sent = to;
    if (this.#clients.size === 0) return;
    this.#flushedAt = this.now();
    const texts: string[] = [];
    for (let seq = from; seq <= to; seq += 1) texts.push(this.#text(seq));
    const batch = new Batch(texts, Math.min(FRAME_BYTES, this.limits.clientHighWaterBytes));
    for (const client of [...this.#clients.values()]) client.take(batch);
  }

  /**
   * Attaches a socket; with `since`, first replays the ring's events after that seq (a `stream.hello` says
   * how many were missed). A `since` of another epoch — named, or beyond our last seq (the server restarted)
   * — replays the whole ring and carries a snapshot: `missed` then counts this epoch's events that left it.
   */
  attach(socket: WebSocket, resume: Resume = {}): number {
    this.flush();
    const id = this.#nextClient++;
    const client = new StreamClient(id, socket, this.limits, this.onDrop);
    this.#clients.set(id, client);
    socket.once('close', () => this.#clients.delete(id));
    const { since } = resume;
    const newEpoch = since !== undefined && ((resume.epoch !== undefined && resume.epoch !== this.epoch) || since > this.#seq);
    const from = newEpoch ? 0 : since;
    const oldest = this.#seq - Math.min(this.#seq, this.limits.ringSize) + 1;
    const first = from === undefined ? this.#seq + 1 : Math.max(oldest, from + 1);
    const missed = from === undefined ? 0 : Math.max(0, oldest - from - 1);
    const replayed = Math.max(0, this.#seq - first + 1);
    const data = { version: EVENT_STREAM_VERSION, epoch: this.epoch, lastSeq: this.#seq, since: since ?? null, newEpoch, replayed, missed, ringSize: this.limits.ringSize, ...(newEpoch ? { snapshot: this.snapshot() } : {}) };
    client.enqueue(envelope(this.#seq, this.now(), 'stream.hello', data));
    for (let seq = first; seq <= this.#seq; seq += 1) client.enqueue(this.#text(seq));
    client.drain();
    return id;
  }

  /** Sends every envelope published from now on to `recorder` as its JSON line. */
  record(recorder: (text: string) => void): void {
    this.#recorder = recorder;
  }

  /** An envelope outside the numbered stream (seq 0): a recording's header. */
  header(type: string, data: unknown): string {
    return envelope(0, this.now(), type, data);
  }

  get lastSeq(): number {
    this.flush();
    return this.#seq;
  }

  clients(): StreamClientStats[] {
    return [...this.#clients.values()].map((c) => c.stats());
  }

  /** The envelope of a seq still in the ring, serialized once. */
  #text(seq: number): string {
    const slot = (seq - 1) % this.limits.ringSize;
    return (this.#texts[slot] ??= envelope(seq, this.#stamps[slot]!, this.#types[slot]!, this.#data[slot]));
  }

  #cancelTimer(): void {
    const timer = this.#timer;
    if (timer === undefined) return;
    // clearImmediate must never see a Timeout (it would unlink it from the immediate queue's count).
    if (this.#immediate) clearImmediate(timer as ReturnType<typeof setImmediate>);
    else clearTimeout(timer as ReturnType<typeof setTimeout>);
    this.#timer = undefined;
  }
}

/** Envelopes `texts[start..end)` one per line (`bytes` long), UTF-8 encoded straight into one buffer (no joined string to flatten and copy). */
function frameOf(texts: readonly string[], start: number, end: number, bytes: number): Buffer {
  const frame = Buffer.allocUnsafe(bytes);
  let offset = frame.write(texts[start]!, 0);
  for (let i = start + 1; i < end; i += 1) {
    frame[offset++] = 0x0a;
    offset += frame.write(texts[i]!, offset);
  }
  return frame;
}

// `,"type":"…","data":` per event type, built once.
const typeHeads = new Map<string, string>();

/**
 * `{ v, seq, ts, type, data }` as JSON, written around one `JSON.stringify` of the payload (no envelope
 * object); a payload that cannot be serialized (a cycle, a BigInt) becomes a note, never a throw.
 */
function envelope(seq: number, ts: number, type: string, data: unknown): string {
  let typeHead = typeHeads.get(type);
  if (typeHead === undefined) typeHeads.set(type, (typeHead = `,"type":${JSON.stringify(type)}`));
  let json: string | undefined;
  try {
    json = JSON.stringify(data);
  } catch (error) {
    json = JSON.stringify({ unserializable: error instanceof Error ? error.message : String(error) });
  }
  const head = '{"v":' + EVENT_STREAM_VERSION + ',"seq":' + seq + ',"ts":' + ts + typeHead;
  return json === undefined ? head + '}' : head + ',"data":' + json + '}';
}
