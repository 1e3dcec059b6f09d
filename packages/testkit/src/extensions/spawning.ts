import { mulberry32 } from '@sinew/executor-contracts';
import { Vec3 } from 'vec3';
import { z } from 'zod';
import type { SquidEntity, SquidPlayer, SquidServer } from '../squid/types.js';
import type { ExtensionContext } from './context.js';
import { createLightReader, skyDarken, type LightReader } from './light.js';
import { spawnMobEntity } from './mobs.js';

/**
 * The night of vanilla's monsters in the open (clear weather): from 13 188 to 22 812 the sky is darkened by at least 8
 * of 15 (`skyDarken`), so the brightness left (≤ 7) can pass the spawn test. Spawning itself follows the light, not
 * the clock: in a cave it goes on at any hour, under torches never.
 */
export const NIGHT_START = 13_188;
export const NIGHT_END = 22_813;
/** Vanilla 1.20.4 (`NaturalSpawner`, `Mob.checkDespawn`): no spawn within 24 blocks of a player or of the world spawn… */
const VANILLA_MIN_DISTANCE = 24;
/** …a hostile beyond 128 blocks of every player vanishes; beyond 32, after 600 idle ticks, 1 in 800 per tick. */
const DESPAWN_DISTANCE = 128;
const RANDOM_DESPAWN_DISTANCE = 32;
const RANDOM_DESPAWN_IDLE_TICKS = 600;
const RANDOM_DESPAWN_CHANCE = 1 / 800;
/** Vanilla follow range (blocks) of the hostiles that have more than the monsters' 16. */
const FOLLOW_RANGE: Record<string, number> = { zombie: 35, husk: 35, drowned: 35, zombie_villager: 35 };
/** How far above and below the player a spawn column is searched (vanilla: the whole column up to the surface). */
const VERTICAL_REACH = 24;
/** A prefill round's draws per place of the cap (most fail the light test under the open sky: ~half at midnight). */
const PREFILL_DRAWS_PER_PLACE = 4;
/** The overworld's lowest block (1.18+). */
const WORLD_BOTTOM = -64;

/** The fields of hostile spawning, vanilla by default; a test may bring them nearer or faster (presets build on them). */
export const HostileSpawningFields = z
  .object({
    /** Kinds drawn in turn at random; each uses the testkit's chase-and-melee AI. */
    kinds: z.array(z.string().min(1)).min(1).default(['zombie', 'skeleton']),
    /**
     * Horizontal ring around the player where spawn columns are drawn. A spot must also be more than `minDistance`
     * blocks (3D) from every player and at least that far from the world spawn (vanilla: 24 for both). Vanilla tries
     * out to 128, but a hostile beyond 32 blocks never comes for the player and soon despawns: 32 keeps the cap filled
     * with the ones that matter. A smaller `minDistance` is a test's shortcut, not vanilla.
     */
    minDistance: z.number().positive().default(VANILLA_MIN_DISTANCE),
    maxDistance: z.number().positive().max(DESPAWN_DISTANCE).default(RANDOM_DESPAWN_DISTANCE),
    /** Server ticks between two spawn rounds per player (vanilla tries every tick in every chunk). */
    intervalTicks: z.number().int().positive().default(20),
    /** Columns tried per round; each spot found must pass vanilla's light test, so most fail on a lit or moonlit surface. */
    tries: z.number().int().positive().max(64).default(8),
    /** At most this many spawned hostiles alive at once per player (vanilla's cap is 70 per world). */
    cap: z.number().int().positive().default(5),
    /** Seed of the spawner's random positions and kinds (same seed, same draws). */
    seed: z.number().int().default(1),
    /**
     * Where the cap is spread. `ring` (the default): every draw lands in the ring, so the whole cap stands near the
     * player and a kill is replaced within a round or two — far harsher than vanilla. `vanilla`: draws spread over
     * vanilla's spawn area (more than `minDistance` and up to 128 blocks away; 1.20.4's monster cap is 70 per player,
     * `cap: 70`); a draw beyond `maxDistance` is a far mob that holds a place of the cap, never comes for the player
     * and despawns at vanilla's odds (idle 600 ticks, then 1 in 800 per tick), so it is only counted, not spawned. Far
     * ground is taken to be open sky for the light test.
     */
    area: z.enum(['ring', 'vanilla']).default('ring'),
    /**
     * The night so far: the first round after this configuration (and after each reset() that restores it) draws until
     * the cap is full (at most 4 × `cap` draws) instead of `tries`, each draw under the same rules (distance, light). Vanilla
     * tries every chunk on every tick, so its cap is full long before midnight: a bot that arrives at midnight meets the
     * night's mobs already standing about at vanilla's density, not the first seconds of an empty night.
     */
    prefill: z.boolean().default(false),
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
  /** Since when (server tick) each spawned mob has had no player within 32 blocks. */
  idleSince: Map<SquidEntity, number>;
  /** Per player username, the server tick at which each counted far mob (`area: 'vanilla'`) despawns. */
  far: Map<string, number[]>;
  /** The next round fills the cap (`prefill`). */
  prefillPending: boolean;
}

const spawners = new WeakMap<SquidServer, Spawner>();

/** Turns hostile spawning on with these settings, or off with null (mobs already spawned stay); `initial` also makes it what reset() restores. */
export function configureHostileSpawning(serv: SquidServer, settings: Settings | null, initial = false): void {
  const spawner = spawners.get(serv);
  if (!spawner) return;
  spawner.settings = settings;
  spawner.prefillPending = settings?.prefill ?? false;
  if (initial) spawner.initial = settings;
  if (settings) spawner.random = mulberry32(settings.seed);
}

/**
 * Opt-in hostile spawning by vanilla 1.20.4's rules: every `intervalTicks`, `tries` columns in the ring around each
 * survival player; in a column a random standing spot within 24 blocks up or down (an opaque full block below, two
 * blocks without collision or fluid); the spot must be more than `minDistance` from every player and from the world
 * spawn, and dark (`Monster.isDarkEnoughToSpawn`: sky light ≤ a draw of 0..31, no block light at all, the brightness
 * the sky leaves at this hour ≤ a draw of 0..7). Up to `cap` alive per player; far hostiles despawn as vanilla's do.
 */
export function installSpawning(ctx: ExtensionContext): void {
  const { serv } = ctx;
  const spawner: Spawner = { settings: null, initial: null, random: mulberry32(1), spawned: new Map(), idleSince: new Map(), far: new Map(), prefillPending: false };
  spawners.set(serv, spawner);
  const blocks = serv.registry.blocksArray;
  const terrain: Terrain = {
    // what a hostile may stand on: an opaque full block (not glass, leaves, slabs…), never bedrock or a barrier
    floor: new Set(blocks.filter((b) => b.boundingBox === 'block' && !b.transparent && b.name !== 'bedrock' && b.name !== 'barrier').map((b) => b.id)),
    solid: new Set(blocks.filter((b) => b.boundingBox === 'block').map((b) => b.id)),
    liquid: new Set(['water', 'lava'].map((n) => serv.registry.blocksByName[n]?.id)),
    light: createLightReader(serv),
  };
  let busy = false;
  serv.on('tick', (_delta: number, tick: number) => {
    const settings = spawner.settings;
    if (!settings || busy || tick % settings.intervalTicks !== 0) return;
    busy = true;
    spawnRound(serv, spawner, settings, terrain)
      .catch((err: unknown) => serv.emit('error', err))
      .finally(() => {
        busy = false;
      });
  });
  // Nothing spawns while reset() awaits the world (a mob spawned then would outlive the reset): paused at its start,
  // back to what startServer asked for at its end.
  ctx.onReset(() => {
    spawner.spawned.clear();
    spawner.idleSince.clear();
    spawner.far.clear();
    configureHostileSpawning(serv, null);
    return () => configureHostileSpawning(serv, spawner.initial);
  });
  ctx.onStop(() => {
    spawner.settings = null;
    spawner.spawned.clear();
    spawner.idleSince.clear();
    spawner.far.clear();
  });
}

interface Terrain {
  floor: Set<number>;
  solid: Set<number>;
  liquid: Set<number | undefined>;
  light: LightReader;
}

async function spawnRound(serv: SquidServer, spawner: Spawner, settings: Settings, terrain: Terrain): Promise<void> {
  despawnFar(serv, spawner, settings.intervalTicks);
  const worldSpawn = await serv.getSpawnPoint(serv.overworld);
  // Turned off, reconfigured or paused by reset() meanwhile: this round's settings no longer hold.
  if (spawner.settings !== settings) return;
  const tries = spawner.prefillPending ? settings.cap * PREFILL_DRAWS_PER_PLACE : settings.tries;
  spawner.prefillPending = false;
  const darken = skyDarken(serv.time);
  for (const player of serv.players) {
    if (player.disconnected || player.health <= 0 || (player.gameMode !== 0 && player.gameMode !== 2)) continue;
    const mine = spawner.spawned.get(player.username) ?? new Set<SquidEntity>();
    spawner.spawned.set(player.username, mine);
    const far = (spawner.far.get(player.username) ?? []).filter((despawnAt) => despawnAt > serv.tickCount);
    spawner.far.set(player.username, far);
    for (let t = 0; t < tries && mine.size + far.length < settings.cap; t += 1) {
      // the angle first, then the distance: the ring's draws come in the order they always did (same seed, same spots)
      const angle = spawner.random() * 2 * Math.PI;
      const distance = drawDistance(settings, spawner.random);
      if (distance > settings.maxDistance) {
        if (darkEnough({ sky: 15, block: 0 }, darken, spawner.random)) far.push(serv.tickCount + farLifetimeTicks(spawner.random));
        continue;
      }
      const spot = findSpot(player, angle, distance, spawner.random, terrain);
      if (!spot || !spawnable(serv, spot, { settings, worldSpawn, darken, random: spawner.random, terrain })) continue;
      const kind = settings.kinds[Math.floor(spawner.random() * settings.kinds.length)] ?? 'zombie';
      const followRange = FOLLOW_RANGE[kind];
      const mob = spawnMobEntity(serv, kind, spot, followRange ? { followRange } : {});
      if (mob) mine.add(mob);
    }
  }
}

/** Forgets dead or removed mobs; removes living ones beyond 128 blocks of every player, or idle beyond 32 at vanilla's odds. */
function despawnFar(serv: SquidServer, spawner: Spawner, elapsedTicks: number): void {
  const odds = 1 - (1 - RANDOM_DESPAWN_CHANCE) ** elapsedTicks;
  for (const mobs of spawner.spawned.values()) {
    for (const mob of mobs) {
      const gone = serv.entities[mob.id] !== mob || mob.health <= 0;
      const nearest = Math.min(...serv.players.map((p) => (p.world === mob.world ? p.position.distanceTo(mob.position) : Infinity)));
      if (nearest <= RANDOM_DESPAWN_DISTANCE) spawner.idleSince.delete(mob);
      else if (!spawner.idleSince.has(mob)) spawner.idleSince.set(mob, serv.tickCount);
      const idle = serv.tickCount - (spawner.idleSince.get(mob) ?? serv.tickCount);
      const far = nearest > DESPAWN_DISTANCE || (idle > RANDOM_DESPAWN_IDLE_TICKS && spawner.random() < odds);
      if (!gone && far) mob.destroy();
      if (gone || far) {
        mobs.delete(mob);
        spawner.idleSince.delete(mob);
      }
    }
  }
}

/**
 * How far from the player a draw lands: across the ring (`area: 'ring'`), or evenly over vanilla's spawn area, the
 * disc out to 128 blocks without its inner `minDistance` (`area: 'vanilla'`: most draws land beyond the ring).
 */
function drawDistance(settings: Settings, random: () => number): number {
  const { minDistance, maxDistance } = settings;
  if (settings.area === 'ring') return minDistance + random() * (maxDistance - minDistance);
  return Math.sqrt(minDistance ** 2 + random() * (DESPAWN_DISTANCE ** 2 - minDistance ** 2));
}

/** Ticks a far mob lives: vanilla's 600 idle ticks, then a 1 in 800 chance per tick (a geometric draw). */
function farLifetimeTicks(random: () => number): number {
  return RANDOM_DESPAWN_IDLE_TICKS + Math.ceil(Math.log(1 - random()) / Math.log(1 - RANDOM_DESPAWN_CHANCE));
}

/** The column at `angle` and `distance` from the player, and in it a random standing spot within `VERTICAL_REACH` (null: none). */
function findSpot(player: SquidPlayer, angle: number, distance: number, random: () => number, terrain: Terrain): Vec3 | null {
  const world = (player.world as unknown as { sync: { getBlockType(p: Vec3): number } }).sync;
  const x = Math.floor(player.position.x + Math.cos(angle) * distance);
  const z = Math.floor(player.position.z + Math.sin(angle) * distance);
  const base = Math.floor(player.position.y);
  const spots: Vec3[] = [];
  const open = (type: number) => !terrain.solid.has(type) && !terrain.liquid.has(type);
  const lowest = Math.max(WORLD_BOTTOM + 1, base - VERTICAL_REACH);
  let below = world.getBlockType(new Vec3(x, lowest - 1, z));
  let feet = world.getBlockType(new Vec3(x, lowest, z));
  for (let y = lowest; y <= base + VERTICAL_REACH; y += 1) {
    const head = world.getBlockType(new Vec3(x, y + 1, z));
    if (terrain.floor.has(below) && open(feet) && open(head)) spots.push(new Vec3(x, y, z));
    [below, feet] = [feet, head];
  }
  const spot = spots[Math.floor(random() * spots.length)];
  return spot ? new Vec3(spot.x + 0.5, spot.y, spot.z + 0.5) : null;
}

interface SpawnCheck {
  settings: Settings;
  worldSpawn: Vec3;
  darken: number;
  random: () => number;
  terrain: Terrain;
}

/** Far enough from every player and the world spawn, and dark enough (vanilla's `Monster.isDarkEnoughToSpawn`). */
function spawnable(serv: SquidServer, spot: Vec3, check: SpawnCheck): boolean {
  const { minDistance } = check.settings;
  if (spot.distanceTo(check.worldSpawn) < minDistance) return false;
  if (serv.players.some((p) => !p.disconnected && p.position.distanceTo(spot) <= minDistance)) return false;
  return darkEnough(check.terrain.light.at(serv.overworld, spot, 0), check.darken, check.random);
}

/** Vanilla's `Monster.isDarkEnoughToSpawn`: sky light ≤ a draw of 0..31, no block light, the brightness left ≤ a draw of 0..7. */
function darkEnough(light: { sky: number; block: number }, darken: number, random: () => number): boolean {
  if (light.sky > Math.floor(random() * 32)) return false;
  if (light.block > 0) return false;
  return Math.max(light.sky - darken, light.block) <= Math.floor(random() * 8);
}
