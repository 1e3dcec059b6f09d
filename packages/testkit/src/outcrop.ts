import { ConfigError, mulberry32 } from '@sinew/executor-contracts';
import { Vec3 } from 'vec3';
import { z } from 'zod';
import { ALREADY_SO } from './external.js';
import { embedded, parseOptions, stateOf, type TestServer } from './server.js';
import { syncAll } from './sync.js';
import { placeTree, stateIdOf, type PlacedTree } from './world.js';

const positionSchema = z.object({ x: z.number(), y: z.number(), z: z.number() });
const seedSchema = z.number().int().min(0).max(0xffffffff);

const outcropOptionsSchema = z
  .object({
    /** Centre of the bottom layer (floored); the mound rises from there on open ground. */
    at: positionSchema,
    /** Same seed, same outcrop. */
    seed: seedSchema,
    /** Edge of the bottom layer in blocks, odd or even (default 5, 3..11); each layer above is 2 narrower. */
    size: z.number().int().min(3).max(11).optional(),
    /** Coal ore blocks on exposed faces (default 4). */
    coal: z.number().int().min(0).max(32).optional(),
    /** Iron ore blocks on exposed faces (default 4). */
    iron: z.number().int().min(0).max(32).optional(),
  })
  .strict();

/** Options of {@link placeOutcrop}. */
export type OutcropOptions = z.input<typeof outcropOptionsSchema>;

/** Where the blocks of a placed outcrop are. */
export interface PlacedOutcrop {
  stone: Vec3[];
  coal: Vec3[];
  iron: Vec3[];
}

/** A stepped mound: each layer a square two narrower than the one below, corners trimmed at random. */
function moundShape(origin: Vec3, size: number, random: () => number): Vec3[] {
  const blocks: Vec3[] = [];
  for (let layer = 0, low = 0, high = size - 1; low <= high; layer++, low++, high--) {
    for (let dx = low; dx <= high; dx++) {
      for (let dz = low; dz <= high; dz++) {
        const corner = (dx === low || dx === high) && (dz === low || dz === high) && low < high;
        if (corner && random() < 0.5) continue;
        blocks.push(origin.offset(dx - Math.floor((size - 1) / 2), layer, dz - Math.floor((size - 1) / 2)));
      }
    }
  }
  return blocks;
}

/** Blocks of the shape with a face open to the air (the sides or the top; the bottom lies on the ground). */
function exposed(blocks: Vec3[]): Vec3[] {
  const taken = new Set(blocks.map((b) => b.toString()));
  const around = [new Vec3(1, 0, 0), new Vec3(-1, 0, 0), new Vec3(0, 0, 1), new Vec3(0, 0, -1), new Vec3(0, 1, 0)];
  return blocks.filter((b) => around.some((d) => !taken.has(b.plus(d).toString())));
}

function shuffled<T>(items: T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/**
 * Builds a seeded stone outcrop on open ground: a stepped mound of stone with coal and iron ore
 * on faces a bot can see and reach from outside. Same seed, same blocks.
 */
export async function placeOutcrop(server: TestServer, input: OutcropOptions): Promise<PlacedOutcrop> {
  const options = parseOptions(outcropOptionsSchema, input, 'placeOutcrop');
  const random = mulberry32(options.seed);
  const origin = new Vec3(Math.floor(options.at.x), Math.floor(options.at.y), Math.floor(options.at.z));
  const blocks = moundShape(origin, options.size ?? 5, random);
  const coalCount = options.coal ?? 4;
  const ironCount = options.iron ?? 4;
  const faces = shuffled(exposed(blocks), random);
  if (coalCount + ironCount > faces.length)
    throw ConfigError.field('placeOutcrop', [], `${coalCount} coal + ${ironCount} iron do not fit on ${faces.length} exposed blocks`);
  const coal = faces.slice(0, coalCount);
  const iron = faces.slice(coalCount, coalCount + ironCount);
  const ores = new Set([...coal, ...iron].map((b) => b.toString()));
  const stone = blocks.filter((b) => !ores.has(b.toString()));
  await placeBlocks(server, [...stone.map((p) => ({ p, name: 'stone' })), ...coal.map((p) => ({ p, name: 'coal_ore' })), ...iron.map((p) => ({ p, name: 'iron_ore' }))]);
  return { stone, coal, iron };
}

/** Sets many blocks and waits once until every bot has seen them (chat commands on an external server). */
async function placeBlocks(server: TestServer, blocks: { p: Vec3; name: string }[]): Promise<void> {
  const state = stateOf(server);
  if (state.external) {
    for (const { p, name } of blocks) await state.external.command(`setblock ${p.x} ${p.y} ${p.z} minecraft:${name}`, { accept: ALREADY_SO });
    return;
  }
  const { serv } = embedded(server, 'placeOutcrop');
  for (const { p, name } of blocks) await serv.setBlock(serv.overworld, p, stateIdOf(serv, name));
  await syncAll(serv);
}

export const techTreeOptionsSchema = z.object({ seed: seedSchema }).strict();

/** Options of {@link techTreeWorld}. */
export type TechTreeOptions = z.input<typeof techTreeOptionsSchema>;

/** What {@link techTreeWorld} placed. */
export interface TechTreeWorld {
  trees: PlacedTree[];
  outcrop: PlacedOutcrop;
}

/**
 * The `tech_tree` preset: three oak trees on one side of the spawn and a stone outcrop with
 * coal and iron ore on the other — wood, stone, fuel and ≥ 3 iron for an iron pickaxe, on the
 * superflat ground. Same seed, same world.
 */
export async function techTreeWorld(server: TestServer, input: TechTreeOptions): Promise<TechTreeWorld> {
  const { seed } = parseOptions(techTreeOptionsSchema, input, 'techTreeWorld');
  const random = mulberry32(seed);
  const base = server.spawn.floored();
  const outcropAngle = random() * 2 * Math.PI;
  const at = (angle: number, distance: number): Vec3 => base.offset(Math.round(Math.cos(angle) * distance), 0, Math.round(Math.sin(angle) * distance));
  const outcrop = await placeOutcrop(server, { at: at(outcropAngle, 9 + random() * 3), seed, size: 5, coal: 4, iron: 4 });
  const trees: PlacedTree[] = [];
  // Trunks at least 5 blocks apart, opposite the outcrop, so crowns never cut into a trunk or the stone.
  for (const offset of [-0.8, 0, 0.8]) {
    const trunk = at(outcropAngle + Math.PI + offset, 7 + random() * 2);
    trees.push(await placeTree(server, trunk, { kind: 'oak', height: 4 + Math.floor(random() * 3) }));
  }
  return { trees, outcrop };
}
