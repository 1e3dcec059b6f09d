import { accepted, blockKey, effectsUnmet, fail, guardFailed, guardOk, pred, type PredicateTemplate } from '@sinew/executor-contracts';
import { NEAR_BLOCK_DISTANCE } from '@sinew/executor-contracts/minecraft';
import pathfinderPackage from 'mineflayer-pathfinder';
import { Vec3 } from 'vec3';
import { z } from 'zod';
import type { SinewBot } from '../bot.js';
import { defineBotCapability, targetMemo, type BotRunContext } from '../body.js';
import { biomeAt, biomeNames } from '../body/biomes.js';
import { findBlockPositions } from '../body/block-search.js';
import { alive } from '../body/combat.js';
import { nearestEntityNamed } from '../body/entities.js';
import { ABORTED, type Failure } from '../body/failures.js';
import { CELL, SearchMemory, spiralWaypoints } from '../body/frontier.js';
import { blockIds, touchesAir } from '../body/geometry.js';
import { walkTo } from '../body/walking.js';
import { observeWorld } from '../world.js';

const { goals } = pathfinderPackage;

/** What `explore` looks for: exactly one of a block (name or suffix group), a biome or a mob. */
export const ExploreTargetSchema = z
  .strictObject({
    block: z.string().min(1).optional(),
    biome: z.string().min(1).optional(),
    mob: z.string().min(1).optional(),
  })
  .refine((t) => [t.block, t.biome, t.mob].filter((v) => v !== undefined).length === 1, { message: 'give exactly one of block, biome or mob' });

/** Arguments of `explore`. */
export const ExploreArgsSchema = z.strictObject({
  target: ExploreTargetSchema,
  /** How far from where the step starts the search may go (blocks). */
  maxRadius: z.number().int().min(16).max(256).default(64),
});
/** Parsed arguments of `explore`. */
export type ExploreArgs = z.output<typeof ExploreArgsSchema>;

/** How far the bot looks around from where it stands for anything air touches (a cave wall's ore, a mob). */
const SIGHT = 32;
/**
 * How far it sees a block open to the sky (water, sand, a tree): out to the chunks the server sent, whichever is
 * nearer. A lake 150 blocks off is in view from a hill; the near sight alone walked 424 s of spiral past one (seed 33).
 */
const FAR_SIGHT = 160;
/** How high above a far block the column must be clear (trees and plants do not hide it; a cave roof does). */
const SKY_CLEARANCE = 32;
/** Waypoints are this far apart: the sights of neighbouring waypoints overlap. */
const STEP = 24;
const WALK_BUDGET_MS = 25_000;
/** The whole search, inside the executor's deadline (expectedDurationMs × 3). */
const SEARCH_BUDGET_MS = 160_000;
/** A failed walk toward a far sighting that got this much nearer is no reason to give the spot up. */
const PROGRESS = 8;

type Sighting = { kind: 'block'; position: Vec3; name: string } | { kind: 'mob'; id: number } | { kind: 'biome'; position: Vec3 };

const sightings = targetMemo<Sighting>();
const memories = new WeakMap<object, SearchMemory>();

function memoryOf(bot: SinewBot): SearchMemory {
  const key = (bot._client as object | undefined) ?? bot;
  const memory = memories.get(key) ?? new SearchMemory();
  memories.set(key, memory);
  return memory;
}

function targetKey(target: ExploreArgs['target']): string {
  return target.block ? `block:${target.block}` : target.mob ? `mob:${target.mob}` : `biome:${target.biome}`;
}

/** The nearest biome column within sight, sampled every 4 blocks (a biome cell) at the bot's height. */
function biomeInSight(bot: SinewBot, biome: string, unreachable: Set<string>): Vec3 | undefined {
  const me = bot.entity.position.floored();
  let best: Vec3 | undefined;
  for (let dx = -SIGHT; dx <= SIGHT; dx += 4) {
    for (let dz = -SIGHT; dz <= SIGHT; dz += 4) {
      const at = me.offset(dx, 0, dz);
      if (unreachable.has(blockKey(at)) || biomeAt(bot, at) !== biome) continue;
      if (!best || at.distanceTo(me) < best.distanceTo(me)) best = at;
    }
  }
  return best;
}

/**
 * Whether nothing but air, plants, leaves and logs lies within `SKY_CLEARANCE` above a block: its column is open to
 * the sky. Fluid above hides it too (only a pond's top layer is seen), which also keeps the test to one read for the
 * many aquifer blocks deep down.
 */
function openToSky(bot: SinewBot, position: Vec3): boolean {
  for (let dy = 1; dy <= SKY_CLEARANCE; dy++) {
    const block = bot.blockAt(position.offset(0, dy, 0));
    // Above the world's top (or the loaded data): sky.
    if (!block) return true;
    const clear = block.boundingBox === 'empty' ? block.name !== 'water' && block.name !== 'lava' : block.name.endsWith('_leaves') || block.name.endsWith('_log');
    if (!clear) return false;
  }
  return true;
}

/** How far out (blocks, whole chunks) the bot has every chunk loaded around its own, in all four directions. */
function loadedRadius(bot: SinewBot): number {
  if (typeof (bot.world as Partial<SinewBot['world']> | undefined)?.getColumn !== 'function') return 0;
  const { x, z } = bot.entity.position;
  const [cx, cz] = [Math.floor(x / 16), Math.floor(z / 16)];
  let rings = 0;
  while (rings < 32 && [[1, 0], [-1, 0], [0, 1], [0, -1]].every(([dx, dz]) => bot.world.getColumn(cx + dx! * (rings + 1), cz + dz! * (rings + 1)))) rings += 1;
  return rings * 16;
}

/** How far around the bot a look surely saw: the far sight over the chunks loaded all round for a block, else the near sight. */
function sightOf(bot: SinewBot, target: ExploreArgs['target']): number {
  return target.block ? Math.max(SIGHT, Math.min(FAR_SIGHT, loadedRadius(bot))) : SIGHT;
}

/**
 * What of the target the bot sees from where it stands (skipping blocks it could not walk to): a block air touches
 * within the near sight, else one open to the sky out to the far sight.
 */
function look(bot: SinewBot, target: ExploreArgs['target'], unreachable: Set<string>): Sighting | undefined {
  if (target.mob) {
    const mob = nearestEntityNamed(bot, target.mob, SIGHT);
    return mob && alive(bot, mob) ? { kind: 'mob', id: mob.id } : undefined;
  }
  if (target.biome) {
    const position = biomeInSight(bot, target.biome, unreachable);
    return position ? { kind: 'biome', position } : undefined;
  }
  const matching = blockIds(bot, target.block!);
  const seen = (p: Vec3) => !unreachable.has(blockKey(p)) && touchesAir(bot, p);
  const position =
    findBlockPositions(bot, { matching, maxDistance: SIGHT, accept: seen })[0] ??
    findBlockPositions(bot, { matching, maxDistance: FAR_SIGHT, accept: (p) => openToSky(bot, p) && seen(p) })[0];
  const name = position && bot.blockAt(position)?.name;
  return position && name ? { kind: 'block', position, name } : undefined;
}

/** Walks up to what was seen (next to a block, onto a biome; a mob in sight is enough). False when the walk failed. */
async function approach(ctx: BotRunContext, sighting: Sighting): Promise<Failure | boolean> {
  if (sighting.kind === 'mob') return true;
  const { x, y, z } = sighting.position;
  const goal = sighting.kind === 'block' ? new goals.GoalNear(x, y, z, 2) : new goals.GoalNearXZ(x, z, 1);
  const failure = await walkTo(ctx, goal, { budgetMs: WALK_BUDGET_MS });
  if (failure?.code === 'aborted') return ABORTED;
  const me = ctx.body.entity.position;
  return sighting.kind === 'block' ? me.distanceTo(sighting.position.offset(0.5, 0.5, 0.5)) <= NEAR_BLOCK_DISTANCE : Math.hypot(me.x - x, me.z - z) <= 2;
}

/** Looks, walks up to a sighting or on to the next waypoint of the spiral, until found, out of ground or out of time. */
async function search(ctx: BotRunContext, args: ExploreArgs): Promise<Failure | Sighting> {
  const bot = ctx.body;
  const key = targetKey(args.target);
  const memory = memoryOf(bot);
  // Mobs walk about: ground searched for one earlier may hold one now.
  if (args.target.mob) memory.forget(key);
  const unreachable = new Set<string>();
  const startedAt = ctx.now();
  const waypoints = spiralWaypoints(bot.entity.position, STEP, args.maxRadius, (p) => memory.isSearched(key, p.x, p.z));
  let visited = 0;
  for (let next = 0; ; ) {
    const sighting = look(bot, args.target, unreachable);
    if (sighting) {
      const spot = sighting.kind === 'mob' ? undefined : sighting.position;
      const away = spot ? bot.entity.position.distanceTo(spot) : 0;
      if (spot && away > SIGHT) ctx.progress(`explore ${key}: in view ${Math.round(away)} blocks away at ${blockKey(spot)}`);
      const reached = await approach(ctx, sighting);
      if (reached === ABORTED) return ABORTED;
      if (reached === true) return sighting;
      // A mob in sight is always reached; a spot no walk reached is not looked at again, unless the walk toward a far
      // one got on (the next look, nearer, may see a way to it or another spot).
      if (spot && (away <= SIGHT || away - bot.entity.position.distanceTo(spot) < PROGRESS)) unreachable.add(blockKey(spot));
      if (ctx.now() - startedAt <= SEARCH_BUDGET_MS) continue;
    }
    // Ground counts searched out to the sight less one cell, so a cell at the sight's edge is looked at again.
    memory.markSearched(key, bot.entity.position.x, bot.entity.position.z, sightOf(bot, args.target) - CELL);
    const waypoint = waypoints.slice(next).find((p) => !memory.isSearched(key, p.x, p.z));
    if (!waypoint || ctx.now() - startedAt > SEARCH_BUDGET_MS) {
      const why = waypoint ? `the ${SEARCH_BUDGET_MS / 1000} s search budget ran out` : `searched every waypoint within ${args.maxRadius} blocks`;
      // Out of time with ground left: a retry goes on outward from here (the memory skips what was searched).
      return fail.effectsUnmet(`not_found: no ${key} in sight; ${why} (${visited} visited)`, { retryable: waypoint !== undefined });
    }
    next = waypoints.indexOf(waypoint) + 1;
    const failure = await walkTo(ctx, new goals.GoalNearXZ(waypoint.x, waypoint.z, 3), { budgetMs: WALK_BUDGET_MS });
    if (failure?.code === 'aborted') return ABORTED;
    visited += 1;
    // Unreachable (water, a cliff): counted searched as far as the bot could see it from here.
    memory.markSearched(key, waypoint.x, waypoint.z, 0);
    ctx.progress(`explore ${key}: waypoint ${visited} at ${waypoint.x},${waypoint.z}${failure ? ` (${failure.code})` : ''}`);
  }
}

/** The effect a target declares: the block near (`near_block:<block>`), the mob in sight (`seen_mob:<mob>`) or the biome (`in_biome:<biome>`). */
function exploreEffects(target: ExploreArgs['target'] | { placeholder: string }): PredicateTemplate[] {
  if ('placeholder' in target) return [pred.nearBlock(pred.placeholder('block'))];
  if (target.block) return [pred.nearBlock(target.block)];
  return [target.mob ? pred.seenMob(target.mob) : pred.inBiome(target.biome ?? '')];
}

/** Finds a block, biome or mob not in view: a bounded spiral search that remembers the ground it searched. */
export const explore = defineBotCapability({
  name: 'explore',
  version: '1.0.0',
  description: 'Find a block, biome or mob not in view (an expanding spiral that skips ground already searched) and end next to it, in it, or in sight of it.',
  inputSchema: ExploreArgsSchema,
  expectedDurationMs: 60_000,
  effects: (args) => exploreEffects(args.target),
  guard: ({ body }, { target }) => {
    if (target.block && blockIds(body, target.block).length === 0) return guardFailed(`"${target.block}" is neither a block name nor a block group`);
    if (target.mob && !body.registry.entitiesByName[target.mob]) return guardFailed(`unknown mob ${target.mob}`);
    if (target.biome && ![...biomeNames(body).values()].includes(target.biome)) return guardFailed(`unknown biome ${target.biome}`);
    return guardOk;
  },
  observe: ({ body }, args) => {
    const seen = sightings.get(args);
    return observeWorld(body, { positions: seen?.kind === 'block' ? [seen.position] : [], entityIds: seen?.kind === 'mob' ? [seen.id] : [] });
  },
  run: async (ctx, args) => {
    const found = await search(ctx, args);
    if ('ok' in found) return found;
    sightings.set(args, found);
    return { ok: true, observables: { found: found.kind === 'mob' ? `${args.target.mob} #${found.id}` : blockKey(found.position) } };
  },
  acceptance: (_pre, post, args) => {
    const seen = sightings.get(args);
    const unmet = exploreEffects(args.target);
    if (!seen) return effectsUnmet(unmet, 'nothing was found');
    const me = new Vec3(post.position.x, post.position.y, post.position.z);
    if (seen.kind === 'mob') return post.entities?.[String(seen.id)] && !post.entities[String(seen.id)]!.dead ? accepted : effectsUnmet(unmet, `${args.target.mob} #${seen.id} is out of sight`);
    if (seen.kind === 'biome') return Math.hypot(me.x - seen.position.x, me.z - seen.position.z) <= 3 ? accepted : effectsUnmet(unmet, `the bot is not in the ${args.target.biome} it found`);
    const name = post.blocks[blockKey(seen.position)];
    const near = me.distanceTo(seen.position.offset(0.5, 0.5, 0.5)) <= NEAR_BLOCK_DISTANCE + 0.5;
    return name === seen.name && near ? accepted : effectsUnmet(unmet, `no ${args.target.block} near the bot at ${blockKey(post.position)} (${name ?? 'unobserved'} at ${blockKey(seen.position)})`);
  },
});
