// Passive animals as vanilla keeps them: they stroll at random on the ground, drop their loot when killed,
// give wool to shears, graze (a sheared sheep's wool grows back) and (chickens) lay eggs. The random draws come from each animal's own seeded stream.
import { mulberry32 } from '@sinew/executor-contracts';
import { Vec3 } from 'vec3';
import { z } from 'zod';
import type { SquidEntity, SquidItem, SquidPlayer, SquidServer, SquidWorld } from '../squid/types.js';
import type { ExtensionContext } from './context.js';

/** Dye colours by id, as wool item names start (`white_wool` … `black_wool`). */
const DYE_COLORS = ['white', 'orange', 'magenta', 'light_blue', 'yellow', 'lime', 'pink', 'gray', 'light_gray', 'cyan', 'purple', 'blue', 'brown', 'green', 'red', 'black'] as const;
/** The sheared flag in a sheep's wool byte. */
const SHEARED = 0x10;

type LootEntry = readonly [item: string, min: number, max: number];
/** Vanilla loot tables of the passive animals (no looting; the wool of a sheep is added unless it is sheared). */
const LOOT: Readonly<Record<string, readonly LootEntry[]>> = {
  cow: [['beef', 1, 3], ['leather', 0, 2]],
  pig: [['porkchop', 1, 3]],
  sheep: [['mutton', 1, 2]],
  chicken: [['chicken', 1, 1], ['feather', 0, 2]],
};

/** Vanilla's RandomStrollGoal: on average one stroll every 120 ticks, to a spot up to 10 blocks away. */
const STROLL_CHANCE = 1 / 120;
const STROLL_RADIUS = 10;
/** A stroll ends after this long even if the spot was not reached (blocked, or a cliff on the way). */
const STROLL_TICKS = 200;
/** Strolling speed in blocks per tick (vanilla animals walk about a block a second). */
const STROLL_SPEED = 0.05;

/** Vanilla's egg timer: 6000 to 12000 ticks (5 to 10 minutes). */
const EGG_INTERVAL_TICKS = 6000;
/** Vanilla's EatBlockGoal: an adult sheep starts grazing one tick in 1000, and eats for 40 ticks. */
const GRAZE_CHANCE = 1 / 1000;
const GRAZE_TICKS = 40;

/** Options of the animals on a server. */
export const AnimalsSchema = z.strictObject({
  /** A chicken lays an egg every `eggIntervalTicks` to twice that (vanilla 6000: 5 to 10 minutes). */
  eggIntervalTicks: z.number().int().positive().default(EGG_INTERVAL_TICKS),
  /** The chance per tick that a sheared sheep on grass starts grazing (vanilla 1/1000); its wool is back 40 ticks later. */
  grazeChance: z.number().min(0).max(1).default(GRAZE_CHANCE),
});
type AnimalSettings = z.output<typeof AnimalsSchema>;

const settingsByServer = new WeakMap<SquidServer, AnimalSettings>();

/** The wandering, egg and drop state of one passive animal. */
export interface AnimalState {
  random: () => number;
  stroll: { target: Vec3; untilTick: number } | null;
  nextEggTick: number | null;
  /** When a grazing sheep has eaten the grass under it (null: not grazing). */
  grazedAtTick: number | null;
}

/** True for the kinds this file gives a life: the ones with a loot table. */
export function isAnimal(kind: string): boolean {
  return LOOT[kind] !== undefined;
}

/** A new animal's state; its draws are a pure function of `seed`. */
export function animalState(serv: SquidServer, kind: string, seed: number, tick: number): AnimalState {
  const random = mulberry32(seed);
  const interval = settingsByServer.get(serv)?.eggIntervalTicks ?? EGG_INTERVAL_TICKS;
  return { random, stroll: null, nextEggTick: kind === 'chicken' ? tick + interval + Math.floor(random() * interval) : null, grazedAtTick: null };
}

/** Sets the animals' options of a running server. */
export function configureAnimals(serv: SquidServer, options: AnimalSettings): void {
  settingsByServer.set(serv, options);
}

/** Spawns an item stack on the ground at `position`, flung a little by `random`. */
function dropItem(serv: SquidServer, world: SquidWorld, position: Vec3, item: string, count: number, random: () => number): void {
  const itemId = serv.registry.itemsByName[item]?.id;
  if (itemId === undefined || count <= 0) return;
  const velocity = new Vec3(random() * 2 - 1, 2, random() * 2 - 1);
  serv.spawnObject(serv.registry.entitiesByName.item!.id, world, position.offset(0, 0.5, 0), { velocity, itemId, itemCount: count, pickupTime: 500, deathTime: 5 * 60 * 1000 });
}

/** Drops what vanilla drops when this animal is killed, whatever the weapon. */
export function dropLoot(serv: SquidServer, entity: SquidEntity & { woolColor?: number }, state: AnimalState): void {
  const name = entity.name ?? '';
  for (const [item, min, max] of LOOT[name] ?? []) dropItem(serv, entity.world, entity.position, item, min + Math.floor(state.random() * (max - min + 1)), state.random);
  if (name === 'sheep' && entity.woolColor !== undefined && (entity.woolColor & SHEARED) === 0) dropItem(serv, entity.world, entity.position, woolOf(entity.woolColor), 1, state.random);
}

function woolOf(color: number): string {
  return `${DYE_COLORS[color & 0x0f] ?? 'white'}_wool`;
}

/** Lays an egg when a chicken's time has come, and draws the next time. */
export function layEggIfDue(serv: SquidServer, entity: SquidEntity, state: AnimalState, tick: number): void {
  if (state.nextEggTick === null || tick < state.nextEggTick) return;
  const interval = settingsByServer.get(serv)?.eggIntervalTicks ?? EGG_INTERVAL_TICKS;
  state.nextEggTick = tick + interval + Math.floor(state.random() * interval);
  dropItem(serv, entity.world, entity.position, 'egg', 1, state.random);
}

/**
 * A sheared sheep standing on grass now and then grazes (drawn only while sheared, so a woolly sheep's strolls are
 * the same draws as before): 40 ticks later the grass under it is dirt and its wool is back. Vanilla sheep also graze
 * with their wool on; here that would only turn grass to dirt.
 */
export async function grazeIfSheared(serv: SquidServer, entity: SquidEntity & { woolColor?: number; sendMetadata?(m: unknown[]): void }, state: AnimalState, tick: number): Promise<void> {
  if (entity.woolColor === undefined || (entity.woolColor & SHEARED) === 0) return;
  const below = entity.position.floored().offset(0, -1, 0);
  const grass = serv.registry.blocksByName.grass_block!.id;
  if (state.grazedAtTick === null) {
    if (state.random() < (settingsByServer.get(serv)?.grazeChance ?? GRAZE_CHANCE) && (await entity.world.getBlockType(below)) === grass) state.grazedAtTick = tick + GRAZE_TICKS;
    return;
  }
  if (tick < state.grazedAtTick) return;
  state.grazedAtTick = null;
  // It walked off the grass while eating (or someone dug it): nothing eaten, the wool stays off.
  if ((await entity.world.getBlockType(below)) !== grass) return;
  await serv.setBlock(entity.world, below, serv.registry.blocksByName.dirt!.defaultState!);
  entity.woolColor &= ~SHEARED;
  entity.sendMetadata?.([]);
}

/**
 * This tick's step of a random stroll (zero when idle): now and then a spot within 10 blocks is chosen and
 * walked to; `safe` says whether a next position is dry ground with no fall of more than a block or two.
 */
export async function strollStep(entity: SquidEntity, state: AnimalState, tick: number, safe: (p: Vec3) => Promise<boolean>): Promise<Vec3> {
  const none = new Vec3(0, 0, 0);
  if (!state.stroll) {
    if (state.random() >= STROLL_CHANCE) return none;
    const angle = state.random() * 2 * Math.PI;
    const distance = 1 + state.random() * (STROLL_RADIUS - 1);
    state.stroll = { target: entity.position.offset(Math.cos(angle) * distance, 0, Math.sin(angle) * distance), untilTick: tick + STROLL_TICKS };
  }
  const delta = state.stroll.target.minus(entity.position);
  const horizontal = Math.hypot(delta.x, delta.z);
  if (horizontal < 0.2 || tick > state.stroll.untilTick) {
    state.stroll = null;
    return none;
  }
  const step = Math.min(STROLL_SPEED, horizontal);
  const move = new Vec3((delta.x / horizontal) * step, 0, (delta.z / horizontal) * step);
  if (!(await safe(entity.position.plus(move)))) {
    state.stroll = null;
    return none;
  }
  return move;
}

/** Shears on a sheep that still has its wool: 1 to 3 wool of its colour, the sheep sheared, the shears worn by one use. */
function shear(serv: SquidServer, player: SquidPlayer, target: SquidEntity & { woolColor?: number; sendMetadata(m: unknown[]): void }): void {
  const slot = 36 + player.heldItemSlot;
  const held = player.inventory.slots[slot] as (SquidItem & { durabilityUsed?: number; maxDurability?: number }) | null | undefined;
  if (held?.name !== 'shears' || target.name !== 'sheep' || target.health <= 0) return;
  const color = target.woolColor ?? 0;
  if (color & SHEARED) return;
  target.woolColor = color | SHEARED;
  target.sendMetadata([]);
  const used = (held.durabilityUsed ?? 0) + 1;
  if (used >= (held.maxDurability ?? Infinity)) player.inventory.updateSlot(slot, null);
  else {
    held.durabilityUsed = used;
    player.inventory.updateSlot(slot, held);
  }
  const random = mulberry32(target.id ^ serv.tickCount);
  dropItem(serv, target.world, target.position, woolOf(color), 1 + Math.floor(random() * 3), random);
}

/** Right-clicking an animal with shears shears it; the animals' options start at their defaults. */
export function installAnimals(ctx: ExtensionContext): void {
  const { serv } = ctx;
  configureAnimals(serv, AnimalsSchema.parse({}));
  serv.on('newPlayer', (player: SquidPlayer) => {
    player._client.on('use_entity', ({ mouse, target, hand }: { mouse: number; target: number; hand?: number }) => {
      const entity = serv.entities[target];
      if (mouse === 0 && (hand ?? 0) === 0 && entity) shear(serv, player, entity as Parameters<typeof shear>[2]);
    });
  });
}
