import { randomUUID } from 'node:crypto';
import { Vec3 } from 'vec3';
import type { SquidEntity, SquidPlayer, SquidServer, SquidWorld } from '../squid/types.js';
import { animalState, dropLoot, grazeIfSheared, isAnimal, layEggIfDue, strollStep, type AnimalState } from './animals.js';
import type { ExtensionContext } from './context.js';
import { lineOfSight } from './sight.js';

/** How a spawned mob behaves; defaults come from the mob kind. */
export interface MobBehavior {
  /** Chase and hit players (default: true for hostile kinds). */
  hostile: boolean;
  /** Walking speed in blocks per second. */
  speed: number;
  /** Damage per hit in half-hearts. */
  attackDamage: number;
  /** Ticks between two hits. */
  attackCooldownTicks: number;
  /** Horizontal distance at which it hits. */
  reach: number;
  /** Distance within which it notices a player. */
  followRange: number;
  /** Stroll about at random when not chasing (default: false; the animals of a generated world do). */
  wander: boolean;
  /** Seed of its strolls, drops and eggs (default: from its spawn position). */
  seed: number;
}

const MELEE_DAMAGE: Record<string, number> = { zombie: 3, husk: 3, drowned: 3, zombie_villager: 3, spider: 2, cave_spider: 2, skeleton: 2, stray: 2, wither_skeleton: 5, vindicator: 8, piglin_brute: 7, zoglin: 6, hoglin: 6, enderman: 7 };

/** Vanilla maximum health (half-hearts) of common mobs; others get 20. */
const MAX_HEALTH: Record<string, number> = {
  chicken: 4, rabbit: 3, cow: 10, mooshroom: 10, pig: 10, sheep: 8, goat: 10, horse: 22, wolf: 8, cat: 10, fox: 10,
  villager: 20, zombie: 20, husk: 20, drowned: 20, skeleton: 20, stray: 20, creeper: 20, witch: 26, spider: 16,
  cave_spider: 12, enderman: 40, slime: 16, silverfish: 8, iron_golem: 100, bee: 10, squid: 10, bat: 6,
};

interface MobBrain {
  entity: SquidEntity;
  behavior: MobBehavior;
  nextAttackTick: number;
  deadSinceTick: number | null;
  busy: boolean;
  /** Strolls, eggs and loot of a passive animal (cow, pig, sheep, chicken); null for other kinds. */
  animal: AnimalState | null;
  /** The player a hostile chases, and the last tick it saw that player. */
  target: SquidPlayer | null;
  lastSeenTick: number;
  /** This tick's push out of the mobs it overlaps (vanilla's entity collision), added to its move. */
  push: Vec3;
}

/** Vanilla's `TargetGoal`: a target out of sight this many ticks is given up. */
const UNSEEN_MEMORY_TICKS = 60;
/** Eye heights (blocks) of a player and of mobs; vanilla's zombies and skeletons look from 1.74. */
const PLAYER_EYE = 1.62;
const MOB_EYE: Record<string, number> = { spider: 0.65, cave_spider: 0.45, silverfish: 0.13, endermite: 0.13, slime: 0.33 };

const brainsByServer = new WeakMap<SquidServer, Map<number, MobBrain>>();

/** Spawns a mob with the testkit's simple AI (chase the nearest player in range and hit it with a cooldown). */
export function spawnMobEntity(serv: SquidServer, kind: string, position: Vec3, overrides: Partial<MobBehavior> = {}): SquidEntity | null {
  const data = serv.registry.entitiesByName[kind];
  if (!data || data.type === 'player' || data.type === 'projectile') return null;
  const entity = serv.initEntity('mob', data.id, serv.overworld, position.clone());
  entity.uuid = randomUUID();
  entity.name = data.name;
  entity.velocity = new Vec3(0, 0, 0);
  entity.pitch = 0;
  entity.headPitch = 0;
  entity.yaw = 0;
  // No size: flying-squid's own physics skips the mob (it bounces on the ground); the AI moves it.
  entity.size = undefined;
  entity.health = MAX_HEALTH[data.name] ?? 20;
  entity.metadata = [];
  entity.onGround = true;
  entity.updateAndSpawn();
  const hostile = data.type === 'hostile' || data.category === 'Hostile mobs';
  const behavior: MobBehavior = {
    hostile,
    speed: 2.5,
    attackDamage: MELEE_DAMAGE[data.name] ?? 3,
    attackCooldownTicks: 20,
    reach: 1.6,
    followRange: 16,
    wander: false,
    seed: Math.imul(Math.floor(position.x * 2), 73856093) ^ Math.imul(Math.floor(position.z * 2), 19349663),
    ...overrides,
  };
  if (data.name === 'sheep') (entity as SquidEntity & { woolColor?: number }).woolColor ??= 0;
  const animal = isAnimal(data.name) ? animalState(serv, data.name, behavior.seed, serv.tickCount) : null;
  brainsByServer.get(serv)?.set(entity.id, { entity, behavior, nextAttackTick: 0, deadSinceTick: null, busy: false, animal, target: null, lastSeenTick: 0, push: new Vec3(0, 0, 0) });
  return entity;
}

/** Drives every spawned mob once per server tick. */
export function installMobs(ctx: ExtensionContext): void {
  const { serv } = ctx;
  const brains = new Map<number, MobBrain>();
  brainsByServer.set(serv, brains);
  const solidIds = new Set(serv.registry.blocksArray.filter((b) => b.boundingBox === 'block').map((b) => b.id));
  const solid = async (world: SquidWorld, p: Vec3): Promise<boolean> => solidIds.has(await world.getBlockType(p));
  const fluidIds = new Set(['water', 'lava'].map((name) => serv.registry.blocksByName[name]!.id));
  // Where a strolling animal may step: no fluid at its feet or below, and ground at most two blocks down.
  const dryGround = async (world: SquidWorld, p: Vec3): Promise<boolean> => {
    const feet = p.floored();
    for (let dy = 0; dy >= -3; dy--) {
      const type = await world.getBlockType(feet.offset(0, dy, 0));
      if (fluidIds.has(type)) return false;
      // A block at the feet is a step up: fine when there is head room above it.
      if (solidIds.has(type)) return dy < 0 || !solidIds.has(await world.getBlockType(feet.offset(0, 2, 0)));
    }
    return false;
  };

  // vanilla's NearestAttackableTargetGoal with mustSee: a hostile takes the nearest player it can see within its follow
  // range, and keeps it while in range until it has not seen it for 60 ticks (a zombie in a closed cave never comes)
  const sees = (mob: SquidEntity, player: SquidPlayer): boolean => {
    const world = (mob.world as unknown as { sync: { getBlockType(p: Vec3): number } }).sync;
    const probe = new Vec3(0, 0, 0);
    const typeAt = (x: number, y: number, z: number) => world.getBlockType(probe.set(x, y, z));
    return lineOfSight(typeAt, solidIds, mob.position.offset(0, MOB_EYE[mob.name ?? ''] ?? 1.74, 0), player.position.offset(0, PLAYER_EYE, 0));
  };
  const chase = (brain: MobBrain, tick: number): SquidPlayer | null => {
    const { entity, behavior } = brain;
    const kept = brain.target;
    if (kept && targetable(kept, entity) && kept.position.distanceTo(entity.position) <= behavior.followRange) {
      if (sees(entity, kept)) brain.lastSeenTick = tick;
      if (tick - brain.lastSeenTick <= UNSEEN_MEMORY_TICKS) return kept;
    }
    brain.target = nearestTarget(serv, entity, behavior.followRange, (p) => sees(entity, p));
    brain.lastSeenTick = tick;
    return brain.target;
  };

  const think = async (brain: MobBrain, tick: number): Promise<void> => {
    const { entity, behavior } = brain;
    if (serv.entities[entity.id] !== entity && entity.health > 0) {
      brains.delete(entity.id);
      return;
    }
    if (entity.health <= 0) {
      // flying-squid only plays the death animation; drop the loot, remove the body after a second.
      if (brain.deadSinceTick === null && brain.animal) dropLoot(serv, entity, brain.animal);
      brain.deadSinceTick ??= tick;
      if (tick - brain.deadSinceTick >= 20) {
        brains.delete(entity.id);
        serv.entities[entity.id] = entity;
        entity.destroy();
      }
      return;
    }
    let move = brain.push;
    const knockback = entity.velocity ?? new Vec3(0, 0, 0);
    if (Math.abs(knockback.x) + Math.abs(knockback.z) > 0.01) {
      move = move.plus(new Vec3(knockback.x / 20, 0, knockback.z / 20));
      entity.velocity = new Vec3(knockback.x * 0.6, 0, knockback.z * 0.6);
    } else if (behavior.hostile) {
      const target = chase(brain, tick);
      if (target) {
        const delta = target.position.minus(entity.position);
        const horizontal = Math.hypot(delta.x, delta.z);
        entity.yaw = toByteAngle(Math.atan2(-delta.x, delta.z));
        if (horizontal > behavior.reach) {
          const step = Math.min(behavior.speed / 20, horizontal - behavior.reach * 0.8);
          move = move.plus(new Vec3((delta.x / horizontal) * step, 0, (delta.z / horizontal) * step));
        } else if (Math.abs(delta.y) < 2 && tick >= brain.nextAttackTick) {
          brain.nextAttackTick = tick + behavior.attackCooldownTicks;
          const push = horizontal > 0 ? new Vec3((delta.x / horizontal) * 8, 6, (delta.z / horizontal) * 8) : new Vec3(0, 6, 0);
          entity._writeOthersNearby('animation', { entityId: entity.id, animation: 0 });
          target.takeDamage({ damage: behavior.attackDamage, velocity: push });
        }
      }
    } else if (brain.animal) {
      layEggIfDue(serv, entity, brain.animal, tick);
      await grazeIfSheared(serv, entity, brain.animal, tick);
      if (behavior.wander) move = move.plus(await strollStep(entity, brain.animal, tick, (p) => dryGround(entity.world, p)));
      if (move.x !== 0 || move.z !== 0) entity.yaw = toByteAngle(Math.atan2(-move.x, move.z));
    }
    const from = entity.position.clone();
    const next = await walk(entity, move, solid);
    // moved meanwhile (a teleport while this step looked at the blocks): the step was computed from a stale spot
    if (!entity.position.equals(from)) return;
    if (!next.equals(entity.position)) {
      await entity.sendPosition(next, true);
      entity._writeOthersNearby('entity_head_rotation', { entityId: entity.id, headYaw: entity.yaw });
    }
  };

  serv.on('tick', (_delta: number, tick: number) => {
    separate([...brains.values()]);
    for (const brain of brains.values()) {
      if (brain.busy) continue;
      brain.busy = true;
      think(brain, tick)
        .catch((err: unknown) => serv.emit('error', err))
        .finally(() => {
          brain.busy = false;
        });
    }
  });
  ctx.onStop(() => brains.clear());
}

/** Body width of a zombie-sized mob (vanilla 0.6): mobs closer than this push each other apart. */
const MOB_WIDTH = 0.6;
/** Most a mob is pushed per tick (vanilla's push is 0.05 blocks per tick per overlapping pair). */
const MAX_PUSH = 0.05;

/**
 * Vanilla's entity collision between mobs: two living mobs whose bodies overlap push each other apart, so a pack that
 * spawned together spreads out as it walks instead of walking as one stack (that hit as one mob of five times the damage).
 */
function separate(brains: readonly MobBrain[]): void {
  for (const brain of brains) brain.push = new Vec3(0, 0, 0);
  for (let i = 0; i < brains.length; i += 1) {
    const a = brains[i]!;
    for (let j = i + 1; j < brains.length; j += 1) {
      const b = brains[j]!;
      if (a.entity.health <= 0 || b.entity.health <= 0 || a.entity.world !== b.entity.world) continue;
      const dx = b.entity.position.x - a.entity.position.x;
      const dz = b.entity.position.z - a.entity.position.z;
      const dy = b.entity.position.y - a.entity.position.y;
      const apart = Math.hypot(dx, dz);
      if (apart >= MOB_WIDTH || Math.abs(dy) >= 1.8) continue;
      // on top of each other: a direction from the pair's ids, the same on every run
      const angle = apart > 1e-3 ? Math.atan2(dz, dx) : ((a.entity.id * 7919 + b.entity.id * 104729) % 360) * (Math.PI / 180);
      const amount = Math.min(MAX_PUSH, (MOB_WIDTH - apart) / 2);
      const push = new Vec3(Math.cos(angle) * amount, 0, Math.sin(angle) * amount);
      a.push = a.push.minus(push);
      b.push = b.push.plus(push);
    }
  }
}

/** Moves horizontally if the way is free (stepping up one block), then falls onto the ground. */
async function walk(entity: SquidEntity, move: Vec3, solid: (w: SquidWorld, p: Vec3) => Promise<boolean>): Promise<Vec3> {
  const world = entity.world;
  let pos = entity.position.clone();
  if (move.x !== 0 || move.z !== 0) {
    const ahead = pos.plus(move);
    const feet = ahead.floored();
    if (!(await solid(world, feet)) && !(await solid(world, feet.offset(0, 1, 0)))) pos = ahead;
    else if (!(await solid(world, feet.offset(0, 1, 0))) && !(await solid(world, feet.offset(0, 2, 0)))) pos = new Vec3(ahead.x, feet.y + 1, ahead.z);
  }
  // Gravity, at most one block per tick.
  const below = new Vec3(Math.floor(pos.x), Math.floor(pos.y - 0.01), Math.floor(pos.z));
  if (pos.y > -64 && !(await solid(world, below))) pos = new Vec3(pos.x, Math.max(below.y, pos.y - 1), pos.z);
  else if (pos.y !== Math.floor(pos.y) && (await solid(world, below))) pos = new Vec3(pos.x, below.y + 1, pos.z);
  return pos;
}

/** A survival or adventure player, alive, in the mob's world. */
function targetable(player: SquidPlayer, mob: SquidEntity): boolean {
  return !player.disconnected && player.health > 0 && player.world === mob.world && player.gameMode !== 1 && player.gameMode !== 3;
}

/** The nearest targetable player within `range` that the mob can see. */
function nearestTarget(serv: SquidServer, mob: SquidEntity, range: number, sees: (p: SquidPlayer) => boolean): SquidPlayer | null {
  const candidates = serv.players
    .filter((p) => targetable(p, mob) && p.position.distanceTo(mob.position) <= range)
    .sort((a, b) => a.position.distanceTo(mob.position) - b.position.distanceTo(mob.position));
  return candidates.find(sees) ?? null;
}

function toByteAngle(radians: number): number {
  const degrees = (radians * 180) / Math.PI;
  let b = Math.floor(((degrees % 360) * 256) / 360);
  if (b < -128) b += 256;
  else if (b > 127) b -= 256;
  return b;
}
