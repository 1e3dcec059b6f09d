import type { TestServer } from '../src/index.js';

/** One drop of a player's server-side health: the server tick it was seen on and by how much. */
export interface HealthDrop {
  tick: number;
  amount: number;
}

/**
 * Watches players' server-side health once per server tick and records every drop
 * (ticks, not wall time: a loaded machine slows the server, not the rules it counts in ticks).
 */
export function watchHurts(server: TestServer, usernames: readonly string[]) {
  const serv = server.serv!;
  const drops = new Map<string, HealthDrop[]>(usernames.map((u) => [u, []]));
  const last = new Map<string, number>(usernames.map((u) => [u, serv.getPlayer(u)!.health]));
  let tick = serv.tickCount;
  const waiters = new Set<() => void>();
  const onTick = (_delta: number, now: number): void => {
    tick = now;
    for (const username of usernames) {
      const health = serv.getPlayer(username)?.health ?? 0;
      const before = last.get(username)!;
      if (health < before) drops.get(username)!.push({ tick: now, amount: before - health });
      last.set(username, health);
    }
    for (const waiter of [...waiters]) waiter();
  };
  serv.on('tick', onTick);
  /** Resolves true once check() holds, false after `ticks` more server ticks. */
  const until = (check: () => boolean, ticks: number): Promise<boolean> =>
    new Promise((resolve) => {
      const end = tick + ticks;
      const waiter = (): void => {
        if (!check() && tick < end) return;
        waiters.delete(waiter);
        resolve(check());
      };
      waiters.add(waiter);
      waiter();
    });
  return {
    hurts: (username: string) => drops.get(username)!.map((d) => d.tick),
    drops: (username: string) => drops.get(username)!,
    /** Forgets the drops recorded so far. */
    clear: () => {
      for (const list of drops.values()) list.length = 0;
    },
    now: () => tick,
    until,
    stop: () => serv.off('tick', onTick),
  };
}
