import { Vec3 } from 'vec3';
import { z } from 'zod';
import { TestkitError } from './errors.js';
import { configureHostileSpawning, HostileSpawningFields, HostileSpawningSchema, NIGHT_START } from './extensions/spawning.js';
import { embedded, GROUND_Y, parseOptions, playerOf, type ServerState, type TestServer } from './server.js';
import type { SquidPlayer } from './squid/types.js';
import { setTime } from './survival.js';
import { syncAll } from './sync.js';
import { techTreeOptionsSchema, techTreeWorld } from './outcrop.js';
import { fill, placeTree, setBlock, stateIdOf, type PlacedTree } from './world.js';

const ColumnSchema = z.object({ x: z.number().int(), z: z.number().int() }).strict();
const PositionSchema = z.object({ x: z.number(), y: z.number(), z: z.number() }).strict();

/** An inclusive box of blocks. */
export interface Box {
  min: Vec3;
  max: Vec3;
}

/** One preset: its options schema and the builder that runs on validated options. */
interface Scenario<S extends z.ZodType, R> {
  options: S;
  build(server: TestServer, options: z.output<S>): Promise<R>;
}

/** Declares a preset; a new preset is one line in SCENARIOS: `name: defineScenario(OptionsSchema, build)`. */
export function defineScenario<S extends z.ZodType, R>(options: S, build: (server: TestServer, options: z.output<S>) => Promise<R>): Scenario<S, R> {
  return { options, build };
}

// ---------- no_crafting_table

const NoCraftingTableSchema = z
  .object({
    /** Trees (oak, 5 logs each) placed 5 blocks from the centre, so wood for a table is at hand. */
    trees: z.number().int().min(0).max(8).default(1),
    center: ColumnSchema.default({ x: 0, z: 0 }),
    /** Crafting tables within this horizontal radius of the centre (y 1..20) become air. */
    radius: z.number().int().min(0).max(32).default(16),
  })
  .strict();

/** No crafting table anywhere near and none in any inventory; `trees` trees to make one from. */
async function noCraftingTable(server: TestServer, o: z.output<typeof NoCraftingTableSchema>): Promise<{ trees: PlacedTree[]; removedTables: number }> {
  const { serv } = embedded(server, 'no_crafting_table');
  const table = serv.registry.blocksByName.crafting_table!.id;
  let removedTables = 0;
  for (let x = o.center.x - o.radius; x <= o.center.x + o.radius; x++)
    for (let z = o.center.z - o.radius; z <= o.center.z + o.radius; z++)
      for (let y = 1; y <= 20; y++) {
        if ((await serv.overworld.getBlockType(new Vec3(x, y, z))) !== table) continue;
        await setBlock(server, { x, y, z }, 'air');
        removedTables++;
      }
  const tableItem = serv.registry.itemsByName.crafting_table!.id;
  for (const player of serv.players)
    player.inventory.slots.forEach((item, slot) => {
      if (item?.type === tableItem) player.inventory.updateSlot(slot, null);
    });
  const trees: PlacedTree[] = [];
  for (let i = 0; i < o.trees; i++) {
    const angle = (i / Math.max(1, o.trees)) * 2 * Math.PI;
    const base = { x: o.center.x + Math.round(Math.cos(angle) * 5), y: GROUND_Y + 1, z: o.center.z + Math.round(Math.sin(angle) * 5) };
    trees.push(await placeTree(server, base, { height: 5 }));
  }
  await syncAll(serv);
  return { trees, removedTables };
}

// ---------- hostile_swarm_at_nightfall

const HostileSwarmSchema = HostileSpawningFields.omit({ cap: true })
  .extend({
    /** Hostiles alive at once per player (the spawner's cap). */
    count: z.number().int().min(1).max(50).default(5),
    /** Time of day to set (13 000 = nightfall); the daylight cycle keeps running. */
    time: z.number().int().min(0).max(23_999).default(NIGHT_START),
  })
  .strict();

/** Nightfall with hostile spawning on: up to `count` zombies/skeletons come, one per `intervalTicks`. */
async function hostileSwarmAtNightfall(server: TestServer, o: z.output<typeof HostileSwarmSchema>) {
  const { serv } = embedded(server, 'hostile_swarm_at_nightfall');
  const { count, time, ...rest } = o;
  const spawning = parseOptions(HostileSpawningSchema, { ...rest, cap: count }, 'hostile_swarm_at_nightfall');
  configureHostileSpawning(serv, spawning);
  await setTime(server, time, { daylightCycle: true });
  return { time, spawning };
}

// ---------- lava_pit and deep_water

const PitSchema = (depth: { min: number; def: number }, radius: number) =>
  z
    .object({
      /** Centre column of the pit (default 4 blocks east of the spawn). */
      center: ColumnSchema.default({ x: 4, z: 0 }),
      /** Half-width: the pit is (2·radius+1)² blocks. */
      radius: z.number().int().min(0).max(8).default(radius),
      /** Blocks below the ground level it is dug (the superflat ground is 4 deep above bedrock). */
      depth: z.number().int().min(depth.min).max(4).default(depth.def),
    })
    .strict();

const LavaPitSchema = PitSchema({ min: 1, def: 2 }, 1).extend({
  /** A 3×3 pool of water, one deep, on the far side of the spawn (8 blocks west of the pit): somewhere to put the fire out. */
  water: z.boolean().default(true),
});
const DeepWaterSchema = PitSchema({ min: 2, def: 4 }, 2);

/** Fills a pit dug into the ground with a fluid; returns the box, the standing point at the bottom centre, and one on the rim. */
async function digPool(server: TestServer, o: z.output<ReturnType<typeof PitSchema>>, fluid: string) {
  const box: Box = {
    min: new Vec3(o.center.x - o.radius, GROUND_Y - o.depth + 1, o.center.z - o.radius),
    max: new Vec3(o.center.x + o.radius, GROUND_Y, o.center.z + o.radius),
  };
  await fill(server, box.min, box.max, fluid);
  const bottom = new Vec3(o.center.x + 0.5, box.min.y, o.center.z + 0.5);
  const rim = new Vec3(o.center.x + 0.5, GROUND_Y + 1, o.center.z - o.radius - 1.5);
  return { box, bottom, rim };
}

/** A lava pit (default 3×3, 2 deep) east of the spawn, and a water pool west of it unless `water: false`. */
async function lavaPit(server: TestServer, o: z.output<typeof LavaPitSchema>) {
  const { box, bottom, rim } = await digPool(server, o, 'lava');
  let water: Box | null = null;
  if (o.water) {
    water = { min: new Vec3(o.center.x - 9, GROUND_Y, o.center.z - 1), max: new Vec3(o.center.x - 7, GROUND_Y, o.center.z + 1) };
    await fill(server, water.min, water.max, 'water');
  }
  return { lava: box, inside: bottom, rim, water };
}

/** A water pool (default 5×5, 4 deep) east of the spawn: at the bottom the head is under water. */
async function deepWater(server: TestServer, o: z.output<typeof DeepWaterSchema>) {
  const { box, bottom, rim } = await digPool(server, o, 'water');
  return { water: box, bottom, shore: rim };
}

// ---------- flapping_corridor

const FlappingCorridorSchema = z
  .object({
    /** A block inside the corridor, where the bot stands (default: the spawn block). */
    origin: PositionSchema.default({ x: 0, y: GROUND_Y + 1, z: 0 }),
    /** Gates are this many blocks east and west of the origin. */
    halfLength: z.number().int().min(3).max(16).default(6),
    /** How far (blocks along x) from the origin the bot must go for the gate ahead to swing shut. */
    trigger: z.number().positive().default(1.5),
    /** Wall block; bedrock cannot be dug, so pathfinder has to use the gates. */
    wall: z.string().min(1).default('bedrock'),
    /** After this many swings the gates stay as they are (default: they swing forever). */
    swings: z.number().int().positive().optional(),
  })
  .strict()
  .refine((o) => o.trigger < o.halfLength - 1, { message: 'trigger must be < halfLength - 1', path: ['trigger'] });

/**
 * A 1-wide corridor along x, walled in 3 high, whose only ways out are two gates at its ends
 * leading north (+z) to the goal 3 blocks north of the origin. Each route is as long as the other;
 * as soon as the bot has gone `trigger` blocks toward one gate, that gate closes and the other opens,
 * so pathfinder re-plans to the other side, again and again: it flaps (FM-04) without progress.
 */
async function flappingCorridor(server: TestServer, o: z.output<typeof FlappingCorridorSchema>) {
  const { state } = embedded(server, 'flapping_corridor');
  const c = new Vec3(Math.floor(o.origin.x), Math.floor(o.origin.y), Math.floor(o.origin.z));
  const L = o.halfLength;
  const top = c.y + 2;
  await fill(server, c.offset(-L - 1, -1, -2), c.offset(L + 1, 2, 4), 'air');
  await fill(server, c.offset(-L - 1, -1, -2), c.offset(L + 1, -1, 4), 'grass_block');
  await fill(server, { x: c.x - L - 1, y: c.y, z: c.z - 1 }, { x: c.x + L + 1, y: top, z: c.z - 1 }, o.wall);
  await fill(server, { x: c.x - L + 1, y: c.y, z: c.z + 1 }, { x: c.x + L - 1, y: top, z: c.z + 1 }, o.wall);
  for (const side of [-1, 1]) {
    await fill(server, { x: c.x + side * (L + 1), y: c.y, z: c.z }, { x: c.x + side * (L + 1), y: top, z: c.z + 1 }, o.wall);
  }
  const gates = [c.offset(-L, 0, 1), c.offset(L, 0, 1)] as const;
  const goal = c.offset(0, 0, 3);
  const swing = gateSwinger(state, c, gates, o);
  return { start: c.offset(0.5, 0, 0.5), goal, gates: [...gates], swings: swing.count, stop: swing.stop };
}

/** Closes the gate the bot heads for (and opens the other) once it is `trigger` blocks toward it. */
function gateSwinger(state: ServerState, c: Vec3, gates: readonly [Vec3, Vec3], o: z.output<typeof FlappingCorridorSchema>) {
  const serv = state.serv!;
  let closed: 0 | 1 | null = null;
  let swings = 0;
  let busy = false;
  let stopped = false;
  const wall = stateIdOf(serv, o.wall);
  const air = stateIdOf(serv, 'air');
  // Straight to the world, which sends each block to the players at once: `fill` would also wait for every client's
  // round trip, and under load that wait between opening one gate and closing the other let the bot walk on toward the
  // closing gate (a CI run saw it turn 4 blocks out, with the trigger at 1.5).
  const setGate = async (gate: Vec3, stateId: number): Promise<void> => {
    for (let y = 0; y <= 2; y++) await serv.setBlock(serv.overworld, gate.offset(0, y, 0), stateId);
  };
  const inside = (p: SquidPlayer): boolean => Math.floor(p.position.z) === c.z && Math.abs(p.position.x - (c.x + 0.5)) <= o.halfLength + 1;
  const onTick = (): void => {
    if (busy || stopped || (o.swings !== undefined && swings >= o.swings)) return;
    const player = serv.players.find((p) => !p.disconnected && inside(p));
    if (!player) return;
    const dx = player.position.x - (c.x + 0.5);
    const ahead: 0 | 1 | null = dx <= -o.trigger ? 0 : dx >= o.trigger ? 1 : null;
    if (ahead === null || ahead === closed) return;
    busy = true;
    closed = ahead;
    swings++;
    // Open the far gate first, so the re-plan the closing triggers already sees the way out.
    setGate(gates[1 - ahead]!, air)
      .then(() => setGate(gates[ahead]!, wall))
      .catch((err: unknown) => serv.emit('error', err))
      .finally(() => {
        busy = false;
      });
  };
  const stop = (): void => {
    stopped = true;
    serv.off('tick', onTick);
  };
  serv.on('tick', onTick);
  state.resetHandlers.push(stop);
  return { count: () => swings, stop };
}

// ---------- kick_mid_step

const KICK_TRIGGERS = ['dig', 'place', 'attack', 'use', 'click', 'move', 'action'] as const;
const KickMidStepSchema = z
  .object({
    /** The bot to kick. */
    username: z.string().min(1),
    /** What it must do first: start digging, place (use an item on a block), attack, use the held item (eat…), click a window slot (craft…), move, or any of them. */
    on: z.enum(KICK_TRIGGERS).optional(),
    /** Milliseconds to wait (after the trigger, or from now without one) before the kick. */
    afterMs: z.number().int().min(0).max(60_000).optional(),
    reason: z.string().min(1).default('kick_mid_step'),
  })
  .strict()
  .refine((o) => o.on !== undefined || o.afterMs !== undefined, { message: 'give `on`, `afterMs`, or both', path: ['on'] });

/** What happened to an armed kick: the trigger that fired it and when. */
export interface KickRecord {
  username: string;
  trigger: (typeof KICK_TRIGGERS)[number] | 'delay';
  /** Server tick of the kick. */
  tick: number;
}

const TRIGGER_PACKETS: Record<string, (typeof KICK_TRIGGERS)[number]> = {
  block_dig: 'dig',
  block_place: 'place',
  use_entity: 'attack',
  use_item: 'use',
  window_click: 'click',
  position: 'move',
  position_look: 'move',
};

/**
 * Arms a kick: the bot is disconnected on its next dig/place/attack/use/click/move (or any of them), or after
 * a delay, or a delay after the trigger (so it is mid-step). `kicked` resolves with the record, or
 * null if cancelled first or the server stopped.
 */
async function kickMidStep(server: TestServer, o: z.output<typeof KickMidStepSchema>) {
  const { state, serv } = embedded(server, 'kick_mid_step');
  const player = playerOf(serv, o.username);
  const from = player.position.clone();
  let timer: NodeJS.Timeout | undefined;
  let settle: (record: KickRecord | null) => void = () => undefined;
  const kicked = new Promise<KickRecord | null>((resolve) => {
    settle = resolve;
  });
  const done = (record: KickRecord | null): void => {
    player._client.off('packet', onPacket);
    clearTimeout(timer);
    settle(record);
  };
  const kick = (trigger: KickRecord['trigger']): void => {
    done({ username: o.username, trigger, tick: serv.tickCount });
    player.kick(o.reason);
  };
  const onPacket = (data: { status?: number; mouse?: number; x?: number; z?: number }, meta: { name: string }): void => {
    const trigger = TRIGGER_PACKETS[meta.name];
    if (!trigger || (o.on !== 'action' && o.on !== trigger)) return;
    if (trigger === 'dig' && data.status !== 0) return;
    if (trigger === 'attack' && data.mouse !== 1) return;
    if (trigger === 'move' && Math.hypot((data.x ?? from.x) - from.x, (data.z ?? from.z) - from.z) < 0.1) return;
    player._client.off('packet', onPacket);
    if (o.afterMs === undefined) kick(trigger);
    else timer = setTimeout(() => kick(trigger), o.afterMs);
  };
  if (o.on) player._client.on('packet', onPacket);
  else timer = setTimeout(() => kick('delay'), o.afterMs);
  player._client.once('end', () => done(null));
  state.resetHandlers.push(() => done(null));
  state.ctx?.onStop(() => done(null));
  return { kicked, cancel: () => done(null) };
}

// ---------- the table

/** Every named preset. Add one with a line: `name: defineScenario(OptionsSchema, build)`. */
export const SCENARIOS = {
  no_crafting_table: defineScenario(NoCraftingTableSchema, noCraftingTable),
  hostile_swarm_at_nightfall: defineScenario(HostileSwarmSchema, hostileSwarmAtNightfall),
  lava_pit: defineScenario(LavaPitSchema, lavaPit),
  deep_water: defineScenario(DeepWaterSchema, deepWater),
  flapping_corridor: defineScenario(FlappingCorridorSchema, flappingCorridor),
  kick_mid_step: defineScenario(KickMidStepSchema, kickMidStep),
  tech_tree: defineScenario(techTreeOptionsSchema, techTreeWorld),
};

/** Names of the presets. */
export type ScenarioName = keyof typeof SCENARIOS;
/** Options a preset accepts (all optional except kick_mid_step's username). */
export type ScenarioOptions<N extends ScenarioName> = z.input<(typeof SCENARIOS)[N]['options']>;
/** What a preset returns (positions it built, handles). */
export type ScenarioResult<N extends ScenarioName> = Awaited<ReturnType<(typeof SCENARIOS)[N]['build']>>;

/**
 * Builds a named world for a test in one call (on top of the current world: call `reset` first
 * for a clean slate). An unknown name throws `unknown_scenario` listing the known ones; bad options a `ConfigError` (`invalid_config`).
 */
export async function applyScenario<N extends ScenarioName>(server: TestServer, name: N, ...rest: ScenarioArgs<N>): Promise<ScenarioResult<N>> {
  if (!Object.hasOwn(SCENARIOS, name))
    throw new TestkitError('unknown_scenario', `no scenario named ${JSON.stringify(name)}; known: ${Object.keys(SCENARIOS).join(', ')}`);
  const preset = SCENARIOS[name] as unknown as Scenario<z.ZodType, ScenarioResult<N>>;
  const options = parseOptions(preset.options, rest[0], `applyScenario.${name}`);
  return preset.build(server, options);
}

/** Options are required only where a preset has a required field. */
type ScenarioArgs<N extends ScenarioName> = {} extends ScenarioOptions<N> ? [options?: ScenarioOptions<N>] : [options: ScenarioOptions<N>];
