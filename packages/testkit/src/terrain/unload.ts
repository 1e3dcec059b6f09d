// The memory bound of a generated world in memory: columns far from every player are dropped and generated
// again from the seed when a player comes back. Changed columns stay: in memory they exist nowhere else.
import type { SquidServer } from '../squid/types.js';

/** Ticks between two sweeps (5 s of game time). */
const SWEEP_TICKS = 100;

interface ColumnWorld {
  columns: Record<string, unknown>;
  unloadColumn(chunkX: number, chunkZ: number): void;
}

/**
 * Every 100 ticks, unloads the overworld columns further than `keepRadius` chunks (Chebyshev) from every
 * player and loaded by none, unless `dirty` lists them (changed since the last reset).
 */
export function boundColumns(serv: SquidServer, dirty: ReadonlySet<string>, keepRadius: number): void {
  const world = serv.overworld as unknown as ColumnWorld;
  serv.on('tick', (_delta: number, tick: number) => {
    if (tick % SWEEP_TICKS !== 0) return;
    const players = serv.players.filter((p) => !p.disconnected && p.world === serv.overworld);
    for (const key of Object.keys(world.columns)) {
      if (dirty.has(key)) continue;
      const [x, z] = key.split(',').map(Number) as [number, number];
      const near = players.some((p) => p.loadedChunks[key] !== undefined || Math.max(Math.abs(Math.floor(p.position.x / 16) - x), Math.abs(Math.floor(p.position.z / 16) - z)) <= keepRadius);
      if (!near) world.unloadColumn(x, z);
    }
  });
}
