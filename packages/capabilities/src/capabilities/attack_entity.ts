import { accepted, effectsUnmet, fail, guardFailed, guardOk, pred } from '@sinew/executor-contracts';
import type { Entity } from '../mc-types.js';
import { z } from 'zod';
import type { SinewBot } from '../bot.js';
import { defineBotCapability, targetMemo } from '../body.js';
import { nearestEntityNamed, nearestHostile } from '../body/entities.js';
import { alive, fight } from '../body/combat.js';
import { observeWorld } from '../world.js';

/** Arguments of `attack_entity`. */
export const AttackEntityArgsSchema = z
  .strictObject({
    /** Entity type, mob name or username (nearest one); default: the nearest hostile mob. */
    entity: z.string().min(1).optional(),
    /** This one entity (its id in `bot.entities`): a fight of several bursts keeps its target instead of the nearest of a kind. */
    entityId: z.number().int().nonnegative().optional(),
    maxDistance: z.number().positive().max(64).default(16),
    /** Stop after this many hits; default: keep hitting until the target dies (at most 40 hits). */
    hits: z.number().int().positive().max(200).optional(),
    /** Between hits, back away facing the target while a hostile is closer than this (blocks); default 0: stand and fight. */
    keepAway: z.number().nonnegative().max(3).optional(),
  })
  .refine((args) => args.entity === undefined || args.entityId === undefined, { message: 'give entity or entityId, not both', path: ['entityId'] });
export type AttackEntityArgs = z.output<typeof AttackEntityArgsSchema>;

const MAX_HITS = 40;
// The whole fight, whatever happens: well inside the executor's deadline (expectedDurationMs × 3).
const FIGHT_BUDGET_MS = 35_000;

const targets = targetMemo<Entity>();

function resolveTarget(bot: SinewBot, args: AttackEntityArgs): Entity | undefined {
  const known = targets.get(args);
  if (known) return known;
  const entity = args.entityId !== undefined ? byId(bot, args.entityId, args.maxDistance) : args.entity ? nearestEntityNamed(bot, args.entity, args.maxDistance) : nearestHostile(bot, args.maxDistance);
  return entity ? targets.set(args, entity) : undefined;
}

/** The entity with this id when the bot sees it alive within `maxDistance`. */
function byId(bot: SinewBot, id: number, maxDistance: number): Entity | undefined {
  const entity = bot.entities[id];
  return entity && alive(bot, entity) && entity.position.distanceTo(bot.entity.position) <= maxDistance ? entity : undefined;
}

/** Why no target was found: the id's entity gone, dead or too far, or none of the kind near. */
function missingTarget(bot: SinewBot, args: AttackEntityArgs): string {
  if (args.entityId === undefined) return `no ${args.entity ?? 'hostile mob'} within ${args.maxDistance} blocks`;
  const entity = bot.entities[args.entityId];
  if (!entity || !alive(bot, entity)) return `entity #${args.entityId} is not alive in view (dead or gone)`;
  const distance = entity.position.distanceTo(bot.entity.position).toFixed(1);
  return `${entity.name ?? entity.username ?? 'entity'} #${args.entityId} is ${distance} blocks away, beyond maxDistance ${args.maxDistance}`;
}

/** Chases one entity (by id, else the nearest of a kind, else the nearest hostile) and hits it until it dies or `hits` land. */
export const attackEntity = defineBotCapability({
  name: 'attack_entity',
  version: '1.0.0',
  description: 'Chase and hit one entity (`entityId`), or the nearest of a kind (default: nearest hostile), until it dies or `hits` land.',
  inputSchema: AttackEntityArgsSchema,
  expectedDurationMs: 15_000,
  safetyLevel: 'caution',
  // Which entity is known only once it is found: always a placeholder.
  effects: () => [pred.hurt(pred.placeholder('entity'))],
  guard: ({ body }, args) => (resolveTarget(body, args) ? guardOk : guardFailed(missingTarget(body, args))),
  observe: ({ body }, args) => {
    const target = resolveTarget(body, args);
    return observeWorld(body, { entityIds: target ? [target.id] : [] });
  },
  run: async (ctx, args) => {
    const bot = ctx.body;
    const target = resolveTarget(bot, args);
    if (!target || !alive(bot, target)) return fail.guardFailed('the target is gone');
    const result = await fight(ctx, target, { hits: args.hits ?? MAX_HITS, budgetMs: FIGHT_BUDGET_MS, keepAway: args.keepAway ?? 0 });
    if ('ok' in result) return result;
    const { hits, sideHits } = result;
    return { ok: true, observables: { target: target.id, hits, sideHits, killed: !alive(bot, target) } };
  },
  acceptance: (pre, post) => {
    const [id, before] = Object.entries(pre.entities ?? {})[0] ?? [];
    if (!id || !before) return effectsUnmet([pred.hurt(pred.placeholder('entity'))], 'no target was observed before the attack');
    if (before.dead) return effectsUnmet([pred.hurt({ name: before.name, id })], `${before.name} #${id} was already dead before the attack`);
    const after = post.entities?.[id];
    // Out of range or despawned is not killed: only a death the bot saw counts.
    if (!after) return effectsUnmet([pred.hurt({ name: before.name, id })], `${before.name} #${id}: target no longer observed (not seen dying)`);
    if (after.dead) return accepted;
    if (before.health !== undefined && after.health !== undefined && after.health < before.health) return accepted;
    if ((after.hurts ?? 0) > (before.hurts ?? 0)) return accepted;
    return effectsUnmet([pred.hurt({ name: before.name, id })], `${before.name} #${id} was not hurt`);
  },
});
