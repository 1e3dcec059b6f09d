import { accepted, effectsUnmet, fail, guardFailed, guardOk, pred, type Vec3, Vec3Schema } from '@sinew/executor-contracts';
import pathfinderPackage from 'mineflayer-pathfinder';
import type { Entity } from '../mc-types.js';
import { z } from 'zod';
import type { SinewBot } from '../bot.js';
import { defineBotCapability, targetMemo } from '../body.js';
import { nearestEntityNamed, nearestHostile } from '../body/entities.js';
import { fleeRoute, type Cell } from '../body/flee-route.js';
import { FLUIDS } from '../body/staircase.js';
import { walkTo } from '../body/walking.js';
import { observeWorld } from '../world.js';

const { goals } = pathfinderPackage;
type Goal = InstanceType<(typeof pathfinderPackage.goals)['Goal']>;

/** Arguments of `flee`. */
export const FleeArgsSchema = z
  .strictObject({
    /** Run from this position (with `entityId`: where that entity was last seen, fled from only if it is not in view). */
    from: Vec3Schema.optional(),
    /** Run from the nearest entity of this type, mob name or username; default (no `from`): the nearest hostile. */
    entity: z.string().min(1).optional(),
    /**
     * Run from this one entity (its id in `bot.entities`) where it is as it moves, not from where it stood when the
     * flee was asked: a chaser fled from as a fixed point is run past (the survival traces: a flee from a zombie's
     * spot 7.7 blocks off ended 19 blocks on, 5.9 from the zombie itself).
     */
    entityId: z.number().int().nonnegative().optional(),
    distance: z.number().positive().max(64).default(12),
  })
  .refine((args) => args.entity === undefined || args.entityId === undefined, { message: 'give entity or entityId, not both', path: ['entityId'] });
export type FleeArgs = z.output<typeof FleeArgsSchema>;

type Threat = { kind: 'position'; position: Vec3 } | { kind: 'entity'; entity: Entity };

const threats = targetMemo<Threat>();
const THREAT_SEARCH = 32;
const MAX_LEGS = 4;
/** Hostiles this near shape the way out besides the threat fled from: a run away from one must not lead into another. */
const CROWD_BLOCKS = 16;
const AVOID = new Set(['fire', 'soul_fire', 'cactus', 'magma_block', 'sweet_berry_bush', 'powder_snow', 'campfire', 'soul_campfire']);
/** Flees within this long of the last one make a chain: their routes lean back toward where the chain began. */
const CHAIN_MS = 20_000;
/** Per bot connection: where its chain of flees began (the work it was at) and when its last flee ended. */
const chains = new WeakMap<object, { home: Vec3; lastMs: number }>();

function resolveThreat(bot: SinewBot, args: FleeArgs): Threat | undefined {
  const known = threats.get(args);
  if (known) return known;
  const tracked = args.entityId === undefined ? undefined : bot.entities[args.entityId];
  if (tracked && tracked !== bot.entity && tracked.isValid !== false && !bot.sinew.deadEntities.has(tracked.id) && tracked.position.distanceTo(bot.entity.position) <= THREAT_SEARCH)
    return threats.set(args, { kind: 'entity', entity: tracked });
  if (args.from) return threats.set(args, { kind: 'position', position: args.from });
  // the entity asked for is gone and no `from` says where it was: nothing to flee from
  if (args.entityId !== undefined) return undefined;
  const entity = args.entity ? nearestEntityNamed(bot, args.entity, THREAT_SEARCH) : nearestHostile(bot, THREAT_SEARCH);
  return entity ? threats.set(args, { kind: 'entity', entity }) : undefined;
}

function horizontal(a: Vec3, b: Vec3): number {
  return Math.hypot(a.x - b.x, a.z - b.z);
}

/** Reads the bot's world for `fleeRoute`: unloaded ground counts as a wall. */
function cellReader(bot: SinewBot): (x: number, y: number, z: number) => Cell {
  const probe = bot.entity.position.clone();
  return (x, y, z) => {
    const block = bot.blockAt(probe.set(x, y, z), false);
    if (!block) return 'solid';
    if (FLUIDS.has(block.name) || AVOID.has(block.name)) return 'avoid';
    return block.boundingBox === 'block' ? 'solid' : 'open';
  };
}

/** Where the hostiles near the bot stand, besides `from` (the threat fled from). */
function crowd(bot: SinewBot, from: Vec3): Vec3[] {
  const self = bot.entity.position;
  const near = Object.values(bot.entities).filter((e) => e !== bot.entity && e.type === 'hostile' && e.isValid !== false && e.position.distanceTo(self) <= CROWD_BLOCKS);
  return [from, ...near.map((e) => e.position).filter((p) => p.x !== from.x || p.y !== from.y || p.z !== from.z)];
}

/**
 * This leg's goal: to the end of the open direction that passes farthest from every hostile near (a gap between
 * them) and most away from their weighted centroid; with no open direction, anywhere `distance` from the threat.
 */
function legGoal(bot: SinewBot, from: Vec3, distance: number, home: Vec3): Goal {
  const route = fleeRoute(cellReader(bot), bot.entity.position, crowd(bot, from), distance + 2, home);
  if (route) return new goals.GoalNear(route.end.x, route.end.y, route.end.z, 1);
  // Away along the ground, as acceptance measures: a 3D goal was met 10.8 blocks out from a skeleton 9 below (seed 1).
  return new goals.GoalInvert(new goals.GoalNearXZ(from.x, from.z, distance + 2));
}

/** Runs away from a position or the nearest threat until at least `distance` blocks separate them. */
export const flee = defineBotCapability({
  name: 'flee',
  version: '1.0.0',
  description: 'Run from a position or the nearest threat (default: nearest hostile) until `distance` blocks away.',
  inputSchema: FleeArgsSchema,
  expectedDurationMs: 20_000,
  safetyLevel: 'caution',
  effects: (args) => [pred.distanceFromThreat(args.distance)],
  guard: ({ body }, args) =>
    resolveThreat(body, args) ? guardOk : guardFailed(`no ${args.entityId !== undefined ? `entity #${args.entityId}` : (args.entity ?? 'hostile mob')} to flee from within ${THREAT_SEARCH} blocks`),
  observe: ({ body }, args) => {
    const threat = resolveThreat(body, args);
    const snapshot = observeWorld(body, { entityIds: threat?.kind === 'entity' ? [threat.entity.id] : [] });
    // Positional threats are recorded as a pseudo-entity so acceptance reads both kinds alike.
    if (threat?.kind === 'position') snapshot.entities = { from: { name: 'position', position: threat.position } };
    return snapshot;
  },
  run: async (ctx, args) => {
    const bot = ctx.body;
    const threat = resolveThreat(bot, args);
    if (!threat) return fail.guardFailed('nothing to flee from');
    const where = () => (threat.kind === 'entity' ? threat.entity.position : threat.position);
    // a flee soon after the last one is the same chase (a following pack): its routes lean back toward where it began
    const key = (bot._client as object | undefined) ?? bot;
    const chain = chains.get(key);
    const home = chain && ctx.now() - chain.lastMs <= CHAIN_MS ? chain.home : bot.entity.position.clone();
    // each leg as it went (seconds, blocks walked, how it ended): a flee that ends short says why in its observables
    const legs: string[] = [];
    try {
      for (let leg = 0; leg < MAX_LEGS; leg += 1) {
        const from = where();
        if (horizontal(bot.entity.position, from) >= args.distance) break;
        const [startedAt, start] = [ctx.now(), bot.entity.position.clone()];
        const failure = await walkTo(ctx, legGoal(bot, from, args.distance, home), { budgetMs: 15_000 });
        legs.push(`${((ctx.now() - startedAt) / 1000).toFixed(1)} s ${start.distanceTo(bot.entity.position).toFixed(1)} blocks ${failure ? `${failure.code}: ${failure.reason.slice(0, 60)}` : 'reached'}`);
        if (failure?.code === 'aborted') return failure;
        if (failure && leg === MAX_LEGS - 1) return failure;
      }
    } finally {
      chains.set(key, { home, lastMs: ctx.now() });
    }
    const left = horizontal(bot.entity.position, where());
    return { ok: true, observables: { distance: Number(left.toFixed(1)), legs } };
  },
  acceptance: (pre, post, args) => {
    const before = Object.values(pre.entities ?? {})[0]?.position;
    const threatAfter = Object.values(post.entities ?? {})[0];
    const after = threatAfter?.dead ? undefined : threatAfter?.position;
    // A threat entity that vanished (despawned, died) is as good as outrun.
    if (!after) return Object.keys(pre.entities ?? {}).length ? accepted : effectsUnmet([pred.distanceFromThreat()], 'no threat observed');
    const startDistance = before ? horizontal(pre.position, before) : 0;
    const endDistance = horizontal(post.position, after);
    if (endDistance >= args.distance) return accepted;
    return effectsUnmet(
      [pred.distanceFromThreat(args.distance)],
      `threat still ${endDistance.toFixed(1)} blocks away (was ${startDistance.toFixed(1)}, wanted ≥ ${args.distance})`,
    );
  },
});
