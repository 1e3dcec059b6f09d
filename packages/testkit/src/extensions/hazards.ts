import { Vec3 } from 'vec3';
import type { SquidPlayer, SquidServer } from '../squid/types.js';
import type { ExtensionContext } from './context.js';
import { loginSettled } from './login.js';

/** Vanilla (Java 1.20) numbers of the environmental hazards; damage in half-hearts, time in ticks. */
export const HAZARD_RULES = {
  /** Damage per lava hit; with the 10-tick damage immunity that is 4 every half second. */
  lavaDamage: 4,
  /** Lava sets the remaining burn time to at least 15 s. */
  lavaFireTicks: 300,
  /** Damage per fire-block hit (soul fire: 2), again at most once per immunity window. */
  fireBlockDamage: 1,
  soulFireBlockDamage: 2,
  /** A fire block lights a player that is not burning yet for 8 s; standing in it, the time does not run down. */
  fireBlockFireTicks: 160,
  /** Burning costs 1 every 20 ticks (not while in lava, which hurts more). */
  burnDamage: 1,
  burnIntervalTicks: 20,
  /** Hurts closer than this after the last one only count for the amount above the last. */
  immunityTicks: 10,
  /** Air supply: full at 300, −1 per tick with the eyes in water, +4 per tick out of it. */
  maxAir: 300,
  airRefillPerTick: 4,
  /** At −20 the air wraps to 0 and the player takes 2: 2 damage per second while out of air. */
  drownAirFloor: -20,
  drownDamage: 2,
  /** Eye height of a standing player. */
  eyeHeight: 1.62,
} as const;

/** Per-player exposure the hazards extension keeps. */
export interface HazardState {
  /** Remaining burn time in ticks (0: not burning). */
  fireTicks: number;
  /** Air supply in ticks (300 full). */
  air: number;
  /** Tick before which new hazard damage only counts above lastHurt. */
  immuneUntil: number;
  lastHurt: number;
  /** What the clients were last told (metadata is sent on change only). */
  sentOnFire: boolean;
  sentAir: number;
  /** What the player's bounding box touched when last looked at. */
  contact: Contact;
}

interface Contact {
  lava: boolean;
  fireDamage: number;
  water: boolean;
  eyesInWater: boolean;
}

const NO_CONTACT: Contact = { lava: false, fireDamage: 0, water: false, eyesInWater: false };

const statesByServer = new WeakMap<SquidServer, Map<SquidPlayer, HazardState>>();

/** The hazard state of a player (null before its first tick on a server with the extension). */
export function hazardStateOf(serv: SquidServer, player: SquidPlayer): HazardState | null {
  return statesByServer.get(serv)?.get(player) ?? null;
}

/** Sets a player's air supply (ticks) and tells its client; returns false if the player is unknown. */
export function setPlayerAir(serv: SquidServer, player: SquidPlayer, air: number): boolean {
  const state = hazardStateOf(serv, player);
  if (!state) return false;
  state.air = air;
  sendMetadata(player, state);
  return true;
}

/**
 * Lava, fire and water on players in survival or adventure: lava and fire blocks hurt and set the
 * player burning, burning hurts until it runs out or water puts it out, and the air supply runs
 * down with the eyes in water and drowns at 0. The "on fire" flag (metadata 0, bit 0x01) and the
 * air supply (metadata 1) reach the player's client, so mineflayer's `bot.oxygenLevel` follows.
 */
export function installHazards(ctx: ExtensionContext): void {
  const { serv } = ctx;
  const states = new Map<SquidPlayer, HazardState>();
  statesByServer.set(serv, states);
  const kinds = blockKinds(serv);
  const busy = new Set<SquidPlayer>();
  let resets = 0;

  serv.on('newPlayer', (player: SquidPlayer) => {
    // Like vanilla, the client learns its air at login (before connectBot resolves: this runs before its ping).
    void loginSettled(player).then(() => {
      if (player.disconnected) return;
      const state = { ...freshState(), sentAir: Number.NaN };
      states.set(player, state);
      sendMetadata(player, state);
    });
    player._client.once('end', () => states.delete(player));
  });
  // Rules run synchronously every tick on the latest contact (one tick old at most), so no tick is ever skipped.
  serv.on('tick', (_delta: number, tick: number) => {
    for (const [player, state] of states) {
      if (player.disconnected) continue;
      applyTick(player, state, state.contact, tick);
      if (busy.has(player)) continue;
      busy.add(player);
      const epoch = resets;
      contactOf(player, kinds)
        .then((contact) => {
          // A look started before a reset saw the world (and position) the reset replaced.
          if (epoch === resets) state.contact = contact;
        })
        .catch((err: unknown) => serv.emit('error', err))
        .finally(() => busy.delete(player));
    }
  });
  ctx.onReset(() => {
    resets++;
    for (const [player, state] of states) {
      Object.assign(state, freshState(), { sentOnFire: state.sentOnFire, sentAir: state.sentAir });
      sendMetadata(player, state);
    }
  });
  ctx.onStop(() => states.clear());
}

function freshState(): HazardState {
  const air = HAZARD_RULES.maxAir;
  return { fireTicks: 0, air, immuneUntil: 0, lastHurt: 0, sentOnFire: false, sentAir: air, contact: NO_CONTACT };
}

/** One tick of exposure, in vanilla's order: extinguish, air, burning, lava, fire blocks. */
function applyTick(player: SquidPlayer, state: HazardState, contact: Contact, tick: number): void {
  const R = HAZARD_RULES;
  const vulnerable = (player.gameMode === 0 || player.gameMode === 2) && player.health > 0;
  if (!vulnerable) {
    state.fireTicks = 0;
    state.air = Math.min(R.maxAir, state.air + R.airRefillPerTick);
    sendMetadata(player, state);
    return;
  }
  if (contact.water) state.fireTicks = 0;
  if (contact.eyesInWater) {
    state.air -= 1;
    if (state.air <= R.drownAirFloor) {
      state.air = 0;
      hurt(player, state, R.drownDamage, tick);
    }
  } else {
    state.air = Math.min(R.maxAir, state.air + R.airRefillPerTick);
  }
  if (state.fireTicks > 0) {
    if (state.fireTicks % R.burnIntervalTicks === 0 && !contact.lava) hurt(player, state, R.burnDamage, tick);
    state.fireTicks -= 1;
  }
  if (contact.lava) {
    state.fireTicks = Math.max(state.fireTicks, R.lavaFireTicks);
    hurt(player, state, R.lavaDamage, tick);
  }
  if (contact.fireDamage > 0 && !contact.water) {
    // Vanilla adds back the tick burnt this tick: standing in fire, the 8 s only start on leaving it.
    state.fireTicks = state.fireTicks === 0 ? R.fireBlockFireTicks : state.fireTicks + 1;
    hurt(player, state, contact.fireDamage, tick);
  }
  if (player.health <= 0) Object.assign(state, { fireTicks: 0, air: R.maxAir });
  sendMetadata(player, state);
}

/** Vanilla damage immunity: within 10 ticks of a hurt only the amount above it applies. */
function hurt(player: SquidPlayer, state: HazardState, amount: number, tick: number): void {
  if (player.health <= 0) return;
  let dealt = amount;
  if (tick < state.immuneUntil) {
    if (amount <= state.lastHurt) return;
    dealt = amount - state.lastHurt;
  } else {
    state.immuneUntil = tick + HAZARD_RULES.immunityTicks;
  }
  state.lastHurt = amount;
  player.takeDamage({ damage: dealt, sound: 'entity.player.hurt', animation: true });
}

/** Sends the shared flags (on fire, crouching) and the air supply when they changed. */
function sendMetadata(player: SquidPlayer, state: HazardState): void {
  const onFire = state.fireTicks > 0;
  const metadata: { key: number; type: string; value: number }[] = [];
  if (onFire !== state.sentOnFire) {
    const crouching = (player as SquidPlayer & { crouching?: boolean }).crouching === true;
    const flags = (onFire ? 0x01 : 0) | (crouching ? 0x02 : 0);
    metadata.push({ key: 0, type: 'byte', value: flags });
    player._writeOthersNearby('entity_metadata', { entityId: player.id, metadata: [{ key: 0, type: 'byte', value: flags }] });
    state.sentOnFire = onFire;
  }
  if (state.air !== state.sentAir) {
    metadata.push({ key: 1, type: 'int', value: Math.max(0, state.air) });
    state.sentAir = state.air;
  }
  if (metadata.length > 0 && !player.disconnected) player._client.write('entity_metadata', { entityId: player.id, metadata });
}

interface BlockKinds {
  lava: Set<number>;
  water: Set<number>;
  fire: Map<number, number>;
}

function blockKinds(serv: SquidServer): BlockKinds {
  const ids = (names: string[]): number[] => names.flatMap((n) => (serv.registry.blocksByName[n] ? [serv.registry.blocksByName[n].id] : []));
  const fire = new Map<number, number>();
  for (const id of ids(['fire'])) fire.set(id, HAZARD_RULES.fireBlockDamage);
  for (const id of ids(['soul_fire'])) fire.set(id, HAZARD_RULES.soulFireBlockDamage);
  return {
    lava: new Set(ids(['lava'])),
    water: new Set(ids(['water', 'bubble_column', 'kelp', 'kelp_plant', 'seagrass', 'tall_seagrass'])),
    fire,
  };
}

/** Which hazards the player's bounding box (0.6 × 1.8, shrunk by 0.001 as vanilla does) touches. */
async function contactOf(player: SquidPlayer, kinds: BlockKinds): Promise<Contact> {
  const p = player.position;
  const e = 0.3 - 0.001;
  const contact: Contact = { lava: false, fireDamage: 0, water: false, eyesInWater: false };
  for (let x = Math.floor(p.x - e); x <= Math.floor(p.x + e); x++) {
    for (let y = Math.floor(p.y + 0.001); y <= Math.floor(p.y + 1.8 - 0.001); y++) {
      for (let z = Math.floor(p.z - e); z <= Math.floor(p.z + e); z++) {
        const type = await player.world.getBlockType(new Vec3(x, y, z));
        if (kinds.lava.has(type)) contact.lava = true;
        else if (kinds.water.has(type)) contact.water = true;
        else contact.fireDamage = Math.max(contact.fireDamage, kinds.fire.get(type) ?? 0);
      }
    }
  }
  const eyes = new Vec3(Math.floor(p.x), Math.floor(p.y + HAZARD_RULES.eyeHeight), Math.floor(p.z));
  contact.eyesInWater = contact.water && kinds.water.has(await player.world.getBlockType(eyes));
  return contact;
}
