import type { Socket } from 'node:net';

interface GateLimits {
  readonly maxConnections: number;
  readonly reservedConnections: number;
  readonly reserveGraceMs: number;
}

interface Tracked {
  readonly openedAt: number;
  /** Admitted past the anonymous share: it keeps its slot only by showing the token. */
  readonly reserve: boolean;
  /** Has presented the valid token (its later requests on this socket need no slot of their own). */
  trusted: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Counts the server's sockets so anonymous ones cannot take every slot. Anonymous sockets hold at most
 * `maxConnections - reservedConnections`; a socket accepted beyond that is on the reserve: until its
 * headers carry the valid token it lives at most `reserveGraceMs`, gets one answer and is closed, and at
 * the cap the oldest such socket makes room for a newcomer — so neither silent nor slow-reading sockets can
 * hold the reserve, and the token holder always gets in. While the anonymous share is full, a socket there
 * still without headers after `reserveGraceMs` yields its slot too. Without a token there is no reserve.
 */
export class ConnectionGate {
  readonly #sockets = new Map<Socket, Tracked>();
  // Reserve sockets that have not shown the token, oldest first: evicted at the cap.
  readonly #probation = new Set<Socket>();
  // Sockets of the anonymous share whose first headers have not arrived (slow or silent), oldest first.
  readonly #unheard = new Set<Socket>();
  #anonymous = 0;

  constructor(
    private readonly limits: GateLimits,
    private readonly reserveEnabled: boolean,
  ) {}

  /** A new socket (the server's 'connection' event): counted, put on the reserve, or closed at the cap. */
  admit(socket: Socket): void {
    if (this.#sockets.size >= this.limits.maxConnections && !this.#evict(this.#probation.values().next().value)) {
      socket.destroy();
      return;
    }
    const share = this.limits.maxConnections - this.limits.reservedConnections;
    if (this.reserveEnabled && this.#anonymous >= share) this.#closeStale();
    const reserve = this.reserveEnabled && this.#anonymous >= share;
    const tracked: Tracked = { openedAt: Date.now(), reserve, trusted: false, timer: undefined };
    this.#sockets.set(socket, tracked);
    if (reserve) {
      this.#probation.add(socket);
      tracked.timer = setTimeout(() => socket.destroy(), this.limits.reserveGraceMs).unref();
    } else {
      this.#anonymous += 1;
      this.#unheard.add(socket);
    }
    socket.once('close', () => this.#forget(socket));
  }

  /** A request's headers arrived on `socket`; false when the connection must close after this answer (anonymous on the reserve). */
  heard(socket: Socket, carriesToken: boolean): boolean {
    const tracked = this.#sockets.get(socket);
    if (!tracked) return true;
    this.#unheard.delete(socket);
    if (carriesToken && !tracked.trusted) {
      tracked.trusted = true;
      clearTimeout(tracked.timer);
      this.#probation.delete(socket);
      if (!tracked.reserve) this.#anonymous -= 1;
    }
    return !tracked.reserve || tracked.trusted;
  }

  /** Under pressure a slow or silent anonymous socket keeps its slot only `reserveGraceMs`. */
  #closeStale(): void {
    const oldest = this.#unheard.values().next();
    if (oldest.done || Date.now() - this.#sockets.get(oldest.value)!.openedAt < this.limits.reserveGraceMs) return;
    this.#evict(oldest.value);
  }

  #evict(socket: Socket | undefined): boolean {
    if (socket === undefined) return false;
    socket.destroy();
    this.#forget(socket);
    return true;
  }

  #forget(socket: Socket): void {
    const tracked = this.#sockets.get(socket);
    if (!tracked) return;
    clearTimeout(tracked.timer);
    this.#sockets.delete(socket);
    this.#probation.delete(socket);
    this.#unheard.delete(socket);
    if (!tracked.reserve && !tracked.trusted) this.#anonymous -= 1;
  }
}
