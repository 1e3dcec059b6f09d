import type { Socket } from 'node:net';

interface GateLimits {
  readonly maxConnections: number;
  readonly reservedConnections: number;
  readonly reserveHeadersTimeoutMs: number;
}

interface Tracked {
  /** Admitted past the anonymous share: it must show the token in its headers. */
  readonly reserve: boolean;
  /** Has presented the valid token (its later requests on this socket need no slot of their own). */
  trusted: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Counts the server's sockets so anonymous ones cannot take every slot: they hold at most
 * `maxConnections - reservedConnections`; a socket accepted beyond that is on the reserve and has
 * `reserveHeadersTimeoutMs` to send headers with the valid token, or it is closed (a request without the
 * token gets 503 from the caller). At the cap, a new socket evicts the oldest reserve socket that has not
 * spoken yet, so silent sockets cannot hold the reserve either. Without a token there is no reserve.
 */
export class ConnectionGate {
  readonly #sockets = new Map<Socket, Tracked>();
  // Reserve sockets whose headers have not arrived, oldest first: the ones evicted at the cap.
  readonly #unheard = new Set<Socket>();
  #anonymous = 0;

  constructor(
    private readonly limits: GateLimits,
    private readonly reserveEnabled: boolean,
  ) {}

  /** A new socket (the server's 'connection' event): tracked, put on the reserve, or closed at the cap. */
  admit(socket: Socket): void {
    if (this.#sockets.size >= this.limits.maxConnections) {
      const oldest = this.#unheard.values().next();
      if (oldest.done) {
        socket.destroy();
        return;
      }
      oldest.value.destroy();
      this.#forget(oldest.value);
    }
    const reserve = this.reserveEnabled && this.#anonymous >= this.limits.maxConnections - this.limits.reservedConnections;
    const tracked: Tracked = { reserve, trusted: false, timer: undefined };
    this.#sockets.set(socket, tracked);
    if (reserve) {
      this.#unheard.add(socket);
      tracked.timer = setTimeout(() => socket.destroy(), this.limits.reserveHeadersTimeoutMs).unref();
    } else {
      this.#anonymous += 1;
    }
    socket.once('close', () => this.#forget(socket));
  }

  /** A request's headers arrived on `socket`; false when it sits on the reserve without the token (refuse it). */
  heard(socket: Socket, carriesToken: boolean): boolean {
    const tracked = this.#sockets.get(socket);
    if (!tracked) return true;
    clearTimeout(tracked.timer);
    this.#unheard.delete(socket);
    if (carriesToken && !tracked.trusted) {
      tracked.trusted = true;
      if (!tracked.reserve) this.#anonymous -= 1;
    }
    return !tracked.reserve || tracked.trusted;
  }

  #forget(socket: Socket): void {
    const tracked = this.#sockets.get(socket);
    if (!tracked) return;
    clearTimeout(tracked.timer);
    this.#sockets.delete(socket);
    this.#unheard.delete(socket);
    if (!tracked.reserve && !tracked.trusted) this.#anonymous -= 1;
  }
}
