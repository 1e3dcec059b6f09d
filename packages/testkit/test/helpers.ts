import type { TestServer } from '../src/index.js';

/**
 * Resolves true once check() holds (read now and on every server tick), false after `ticks` server ticks. The budget is
 * counted in the server's ticks, not in milliseconds: what these tests wait for (fire, air, mobs, drops, packets the
 * next tick sends) comes with the ticks, and a loaded machine's slower ticks stretch the wait with them (a 5 s wall
 * budget for the air to refill, 75 ticks of work, ran out at load 12).
 */
export function waitFor(server: TestServer, check: () => boolean, ticks: number): Promise<boolean> {
  const serv = server.serv!;
  return new Promise((resolve) => {
    if (check()) return resolve(true);
    let left = ticks;
    const onTick = (): void => {
      const held = check();
      if (!held && --left > 0) return;
      serv.removeListener('tick', onTick);
      resolve(held);
    };
    serv.on('tick', onTick);
  });
}

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
