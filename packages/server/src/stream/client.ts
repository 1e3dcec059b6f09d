import type { WebSocket } from 'ws';
import { Subscription } from './subscription.js';

/** A connected client's counters (`clients()` on the server). */
export interface StreamClientStats {
  readonly id: number;
  readonly queued: number;
  readonly dropped: number;
  readonly inflightBytes: number;
  /** The event types it subscribed to (`*`: every type, the default). */
  readonly types: '*' | readonly string[];
}

export interface HubLimits {
  readonly flushIntervalMs: number;
  readonly ringSize: number;
  readonly clientQueue: number;
  readonly clientHighWaterBytes: number;
}

/** A frame carries the queued envelopes up to about this many bytes, one JSON per line. */
export const FRAME_BYTES = 64 * 1024;

/**
 * One WebSocket client with a bounded queue: at most `clientHighWaterBytes` are handed to the socket
 * unflushed (a single larger envelope goes alone on an idle socket); further events wait in a queue of
 * `clientQueue` entries whose oldest are dropped and counted, so a client that never reads costs a
 * bounded amount of memory. Events leave in frames of several envelopes (newline-separated).
 */
export class StreamClient {
  /** The events it gets; set by the hub. */
  subscription = Subscription.ALL;
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
    return { id: this.id, queued: this.#queued, dropped: this.dropped, inflightBytes: this.#unflushed, types: this.subscription.types };
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
 * One flush's envelopes for one subscription, cut into frames of at most `limit` bytes (one envelope at least); each frame is
 * UTF-8 encoded once, the first time a client takes it, and shared by every client of that subscription that can take it.
 */
export class Batch {
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
