/// <reference lib="dom" />

export interface Envelope {
  readonly v: number;
  readonly seq: number;
  readonly ts: number;
  readonly type: string;
  readonly data: Record<string, unknown>;
}

/** The `/api/events` WebSocket: token as a `bearer.<token>` subprotocol, resumes from the last seq after a drop. */
export class EventStream {
  #socket: WebSocket | undefined;
  #lastSeq: number | undefined;
  /** The server start our seqs belong to: after a restart the server sees another epoch and replays its whole ring. */
  #epoch: string | undefined;
  #closed = false;
  #retry: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly token: string,
    private readonly onEvent: (event: Envelope) => void,
    private readonly onState: (state: 'live' | 'offline' | 'refused') => void,
  ) {
    this.#connect();
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#socket?.close();
  }

  #connect(): void {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    // From 0 on first connect: the ring's history fills the timeline; afterwards from the last seq seen.
    const epoch = this.#epoch === undefined ? '' : `&epoch=${encodeURIComponent(this.#epoch)}`;
    const socket = new WebSocket(`${scheme}://${location.host}/api/events?since=${this.#lastSeq ?? 0}${epoch}`, ['sinew.v1', `bearer.${this.token}`]);
    this.#socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.onState('live');
    };
    socket.onmessage = (message) => {
      // A message carries one or more envelopes, one per line.
      for (const line of String(message.data).split('\n')) {
        const event = JSON.parse(line) as Envelope;
        if (event.type === 'stream.hello') this.#epoch = String(event.data.epoch);
        else this.#lastSeq = event.seq;
        this.onEvent(event);
      }
    };
    socket.onclose = () => {
      this.onState(opened ? 'offline' : 'refused');
      if (!this.#closed) this.#retry = setTimeout(() => this.#connect(), opened ? 500 : 3_000);
    };
  }
}
