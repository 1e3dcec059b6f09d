import { randomBytes } from 'node:crypto';
import type { WebSocket } from 'ws';
import { Batch, FRAME_BYTES, StreamClient, type HubLimits, type StreamClientStats } from './client.js';
import { envelope, EVENT_STREAM_VERSION } from './envelope.js';
import { Subscription, type StreamError } from './subscription.js';

export { EVENT_STREAM_VERSION, type EventEnvelope } from './envelope.js';
export type { StreamClientStats } from './client.js';

/** Where a client wants to resume: the last seq it saw and the epoch (server start) that seq belongs to. */
export interface Resume {
  readonly since?: number | undefined;
  readonly epoch?: string | undefined;
}

/** With `flushIntervalMs: 0`, the gap between two flushes while events keep coming (see EventHub.#schedule). */
const BUSY_FLUSH_GAP_MS = 1;

/**
 * The event hub: numbers events, keeps the last `ringSize` for resumes (every type: a client resumes with the
 * default subscription), fans out to clients. The executor's emit costs a seq, a timestamp and four array
 * stores (no object, no closure per event): the ring holds the raw payloads. At each flush (the next
 * event-loop turn, or `flushIntervalMs`) the clients are taken group by group — one group per distinct
 * subscription — and an envelope is serialized once, the first time a group wants its type (a type nobody
 * subscribed to is never serialized); each group's batch is cut into frames encoded once and shared by its
 * clients. A batch never outgrows the ring nor a client's queue: the `min(ringSize, clientQueue)`-th pending
 * event flushes first.
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
  /** The clients by subscription key: those of one group share their batch. */
  readonly #groups = new Map<string, { readonly subscription: Subscription; readonly members: Set<StreamClient> }>();
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

  /**
   * Stores an event in the resume ring; the next flush sends it to every client. `stamp` is its time when the publisher
   * read the hub's clock already (a step's `endedAt`): a clock read is a third of what an event costs with no client.
   */
  publish(type: string, data: unknown, stamp: number = this.now()): void {
    const size = this.limits.ringSize;
    if (this.#seq - this.#sent >= this.#batchLimit) this.flush();
    const slot = this.#seq % size;
    this.#seq += 1;
    this.#types[slot] = type;
    this.#data[slot] = data;
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
    const limit = Math.min(FRAME_BYTES, this.limits.clientHighWaterBytes);
    for (const { subscription, members } of this.#groups.values()) {
      const texts = this.#textsFor(subscription, from, to);
      if (texts.length === 0) continue;
      const batch = new Batch(texts, limit);
      for (const client of members) client.take(batch);
    }
  }

  /** The envelopes of seqs `from..to` a subscription wants. */
  #textsFor(subscription: Subscription, from: number, to: number): string[] {
    const texts: string[] = [];
    if (subscription === Subscription.ALL) {
      for (let seq = from; seq <= to; seq += 1) texts.push(this.#text(seq));
      return texts;
    }
    const size = this.limits.ringSize;
    for (let seq = from; seq <= to; seq += 1) if (subscription.wants(this.#types[(seq - 1) % size]!)) texts.push(this.#text(seq));
    return texts;
  }

  /**
   * From the next event on, `id` gets only the types `subscription` names: what was published before goes out
   * under its previous one, then `stream.subscribed` ({ types, lastSeq }) says where the new one starts.
   */
  subscribe(id: number, subscription: Subscription): void {
    const client = this.#clients.get(id);
    if (client === undefined) return;
    this.flush();
    this.#leave(client);
    this.#join(client, subscription);
    this.#tell(client, 'stream.subscribed', { types: subscription.types, lastSeq: this.#seq });
  }

  /** Answers a client's message that was refused (`stream.error`); its subscription stays. */
  refuse(id: number, refusal: StreamError): void {
    const client = this.#clients.get(id);
    if (client !== undefined) this.#tell(client, 'stream.error', refusal);
  }

  /** A control envelope (seq = the last seq published) for one client, whatever it subscribed to. */
  #tell(client: StreamClient, type: string, data: unknown): void {
    client.enqueue(envelope(this.#seq, this.now(), type, data));
    client.drain();
  }

  #join(client: StreamClient, subscription: Subscription): void {
    const group = this.#groups.get(subscription.key);
    if (group) group.members.add(client);
    else this.#groups.set(subscription.key, { subscription, members: new Set([client]) });
    client.subscription = subscription;
  }

  #leave(client: StreamClient): void {
    const group = this.#groups.get(client.subscription.key);
    group?.members.delete(client);
    if (group?.members.size === 0) this.#groups.delete(client.subscription.key);
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
    this.#join(client, Subscription.ALL);
    socket.once('close', () => {
      this.#clients.delete(id);
      this.#leave(client);
    });
    const { since } = resume;
    const newEpoch = since !== undefined && ((resume.epoch !== undefined && resume.epoch !== this.epoch) || since > this.#seq);
    const from = newEpoch ? 0 : since;
    const oldest = this.#seq - Math.min(this.#seq, this.limits.ringSize) + 1;
    const first = from === undefined ? this.#seq + 1 : Math.max(oldest, from + 1);
    const missed = from === undefined ? 0 : Math.max(0, oldest - from - 1);
    const replayed = Math.max(0, this.#seq - first + 1);
    const data = { version: EVENT_STREAM_VERSION, epoch: this.epoch, lastSeq: this.#seq, since: since ?? null, newEpoch, replayed, missed, ringSize: this.limits.ringSize, ...(newEpoch ? { snapshot: this.snapshot() } : {}) };
    client.enqueue(envelope(this.#seq, this.now(), 'stream.hello', data));
    // A new client has the default subscription (every type): the replay is whole.
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

