import { mulberry32 } from '@sinew/executor-contracts';
import { Vec3 } from 'vec3';
import { z } from 'zod';
import type { SquidEntity, SquidPlayer, SquidServer } from '../squid/types.js';
import type { ExtensionContext } from './context.js';
import { spawnMobEntity } from './mobs.js';

/** Night for spawning: vanilla's surface hostiles spawn from dusk (13 000) to dawn (23 000). */
export const NIGHT_START = 13_000;
export const NIGHT_END = 23_000;
/** Vanilla despawns a hostile instantly beyond 128 blocks from every player. */
const DESPAWN_DISTANCE = 128;

/** The fields of night-time hostile spawning, each with a test-friendly default (presets build on them). */
export const HostileSpawningFields = z
  .object({
    /** Kinds drawn in turn at random; each uses the testkit's chase-and-melee AI. */
    kinds: z.array(z.string().min(1)).min(1).default(['zombie', 'skeleton']),
    /** Horizontal distance from the player (vanilla: 24..128; nearer so a test sees them soon). */
    minDistance: z.number().positive().default(8),
    maxDistance: z.number().positive().default(16),
    /** Server ticks between two spawn attempts per player (vanilla tries every tick). */
    intervalTicks: z.number().int().positive().default(20),
    /** At most this many spawned hostiles alive at once per player (vanilla's cap is 70 per world). */
    cap: z.number().int().positive().default(5),
    /** Seed of the spawner's random positions and kinds (same seed, same draws). */
    seed: z.number().int().default(1),
  })
  .strict();

/** How night-time hostile spawning behaves. */
export const HostileSpawningSchema = HostileSpawningFields.refine((o) => o.maxDistance >= o.minDistance, {
  message: 'maxDistance must be ≥ minDistance',
  path: ['maxDistance'],
});

/** Options of night-time hostile spawning. */
export type HostileSpawningOptions = z.input<typeof HostileSpawningSchema>;
type Settings = z.output<typeof HostileSpawningSchema>;

/** A `hostileSpawning` value: true for the defaults, false (→ null) for off, or options. */
export const HostileSpawningInputSchema = z
  .union([z.boolean(), HostileSpawningSchema])
  .transform((v): Settings | null => (v === false ? null : v === true ? HostileSpawningSchema.parse({}) : v));

interface Spawner {
  settings: Settings | null;
  /** What startServer asked for; reset() goes back to it. */
  initial: Settings | null;
  random: () => number;
  /** Spawned mobs per player username. */
  spawned: Map<string, Set<SquidEntity>>;
}

const spawners = new WeakMap<SquidServer, Spawner>();

/** Turns hostile spawning on with these settings, or off with null (mobs already spawned stay); `initial` also makes it what reset() restores. */
export function configureHostileSpawning(serv: SquidServer, settings: Settings | null, initial = false): void {
  const spawner = spawners.get(serv);
  if (!spawner) return;
  spawner.settings = settings;
  if (initial) spawner.initial = settings;
  if (settings) spawner.random = mulberry32(settings.seed);
}

/** True from dusk to dawn (time of day in [13 000, 23 000)). */
export function isNight(time: number): boolean {
  const day = ((time % 24_000) + 24_000) % 24_000;
  return day >= NIGHT_START && day < NIGHT_END;
}

/**
 * Opt-in night-time hostile spawning: while it is night, every `intervalTicks` each survival
 * player gets one hostile on a free spot (solid below, two non-solid, non-liquid blocks) between
 * `minDistance` and `maxDistance` blocks away, up to `cap` alive; hostiles beyond 128 blocks of every player vanish.
 */
export function installSpawning(ctx: ExtensionContext): void {
  const { serv } = ctx;
  const spawner: Spawner = { settings: null, initial: null, random: mulberry32(1), spawned: new Map() };
  spawners.set(serv, spawner);
  const solid = new Set(serv.registry.blocksArray.filter((b) => b.boundingBox === 'block').map((b) => b.id));
  const liquid = new Set(['water', 'lava'].map((n) => serv.registry.blocksByName[n]?.id));
  let busy = false;
  serv.on('tick', (_delta: number, tick: number) => {
    const settings = spawner.settings;
    if (!settings || busy || tick % settings.intervalTicks !== 0) return;
    busy = true;
    spawnRound(serv, spawner, settings, { solid, liquid })
      .catch((err: unknown) => serv.emit('error', err))
      .finally(() => {
        busy = false;
      });
  });
  ctx.onReset(() => {
    spawner.spawned.clear();
    configureHostileSpawning(serv, spawner.initial);
  });
  ctx.onStop(() => {
    spawner.settings = null;
    spawner.spawned.clear();
  });
}

interface Terrain {
  solid: Set<number>;
  liquid: Set<number | undefined>;
}

async function spawnRound(serv: SquidServer, spawner: Spawner, settings: Settings, terrain: Terrain): Promise<void> {
  despawnFar(serv, spawner);
  if (!isNight(serv.time)) return;
  for (const player of serv.players) {
    if (player.disconnected || player.health <= 0 || (player.gameMode !== 0 && player.gameMode !== 2)) continue;
    const mine = spawner.spawned.get(player.username) ?? new Set<SquidEntity>();
    spawner.spawned.set(player.username, mine);
    if (mine.size >= settings.cap) continue;
    const spot = await findSpot(player, settings, spawner.random, terrain);
    if (!spot) continue;
    const kind = settings.kinds[Math.floor(spawner.random() * settings.kinds.length)] ?? 'zombie';
    const mob = spawnMobEntity(serv, kind, spot);
    if (mob) mine.add(mob);
  }
}

/** Forgets dead or removed mobs and removes living ones too far from every player. */
function despawnFar(serv: SquidServer, spawner: Spawner): void {
  for (const mobs of spawner.spawned.values()) {
    for (const mob of mobs) {
      const gone = serv.entities[mob.id] !== mob || mob.health <= 0;
      const far = serv.players.every((p) => p.position.distanceTo(mob.position) > DESPAWN_DISTANCE);
      if (!gone && far) mob.destroy();
      if (gone || far) mobs.delete(mob);
    }
  }
}

/** A random free standing spot in the ring around the player, scanning 8 blocks up and down (4 tries). */
async function findSpot(player: SquidPlayer, settings: Settings, random: () => number, terrain: Terrain): Promise<Vec3 | null> {
  const world = player.world;
  const free = async (p: Vec3): Promise<boolean> => {
    const type = await world.getBlockType(p);
    return !terrain.solid.has(type) && !terrain.liquid.has(type);
  };
  for (let attempt = 0; attempt < 4; attempt++) {
    const angle = random() * 2 * Math.PI;
    const distance = settings.minDistance + random() * (settings.maxDistance - settings.minDistance);
    const x = Math.floor(player.position.x + Math.cos(angle) * distance);
    const z = Math.floor(player.position.z + Math.sin(angle) * distance);
    const top = Math.floor(player.position.y) + 8;
    for (let y = top; y >= top - 16; y--) {
      const feet = new Vec3(x, y, z);
      if (!terrain.solid.has(await world.getBlockType(feet.offset(0, -1, 0)))) continue;
      if ((await free(feet)) && (await free(feet.offset(0, 1, 0)))) return new Vec3(x + 0.5, y, z + 0.5);
    }
  }
  return null;
}

