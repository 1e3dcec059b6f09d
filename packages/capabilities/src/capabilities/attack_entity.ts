import { accepted, effectsUnmet, guardFailed, guardOk, pred } from '@sinew/executor-contracts';
import pathfinderPackage from 'mineflayer-pathfinder';
import type { Entity } from '../mc-types.js';
import { z } from 'zod';
import type { SinewBot } from '../bot.js';
import { defineBotCapability, targetMemo } from '../body.js';
import { nearestEntityNamed, nearestHostile } from '../body/entities.js';
import { ABORTED } from '../body/failures.js';
import { movementsFor } from '../body/walking.js';
import { observeWorld } from '../world.js';

const { goals } = pathfinderPackage;

/** Arguments of `attack_entity`. */
export const AttackEntityArgsSchema = z.strictObject({
  /** Entity type, mob name or username (nearest one); default: the nearest hostile mob. */
  entity: z.string().min(1).optional(),
  maxDistance: z.number().positive().max(64).default(16),
  /** Stop after this many hits; default: keep hitting until the target dies (at most 40 hits). */
  hits: z.number().int().positive().max(200).optional(),
});
export type AttackEntityArgs = z.output<typeof AttackEntityArgsSchema>;

const MELEE_RANGE = 3;
const HIT_COOLDOWN_MS = 650;
const MAX_HITS = 40;
// Chasing counts as progress only this long without landing a hit.
const CHASE_LIMIT_MS = 10_000;
// The whole fight, whatever happens: well inside the executor's deadline (expectedDurationMs × 3).
const FIGHT_BUDGET_MS = 35_000;
// Hits the bot has not seen answered (hurt or death) before it gives up on the target.
const MAX_UNANSWERED_HITS = 5;
const RETARGET_MS = 500;

const targets = targetMemo<Entity>();

function resolveTarget(bot: SinewBot, args: AttackEntityArgs): Entity | undefined {
  const known = targets.get(args);
  if (known) return known;
  const entity = args.entity ? nearestEntityNamed(bot, args.entity, args.maxDistance) : nearestHostile(bot, args.maxDistance);
  return entity ? targets.set(args, entity) : undefined;
}

function alive(bot: SinewBot, entity: Entity): boolean {
  return entity.isValid !== false && bot.entities[entity.id] === entity && !bot.sinew.deadEntities.has(entity.id);
}

/** Chases the nearest entity of a kind (default: nearest hostile) and hits it until it dies or `hits` land. */
export const attackEntity = defineBotCapability({
  name: 'attack_entity',
  version: '1.0.0',
  description: 'Chase and hit the nearest entity of a kind (default: nearest hostile) until it dies or `hits` land.',
  inputSchema: AttackEntityArgsSchema,
  expectedDurationMs: 15_000,
  safetyLevel: 'caution',
  // Which entity is known only once it is found: always a placeholder.
  effects: () => [pred.hurt(pred.placeholder('entity'))],
  guard: ({ body }, args) =>
    resolveTarget(body, args) ? guardOk : guardFailed(`no ${args.entity ?? 'hostile mob'} within ${args.maxDistance} blocks`),
  observe: ({ body }, args) => {
    const target = resolveTarget(body, args);
    return observeWorld(body, { entityIds: target ? [target.id] : [] });
  },
  run: async (ctx, args) => {
    const bot = ctx.body;
    const target = resolveTarget(bot, args);
    if (!target || !alive(bot, target)) return { ok: false, code: 'guard_failed', reason: 'the target is gone', retryable: false };
    const wanted = args.hits ?? MAX_HITS;
    let hits = 0;
    const startedAt = ctx.now();
    let lastHitAt = startedAt;
    const hurtsBefore = bot.sinew.hurtCounts.get(target.id) ?? 0;
    bot.pathfinder.setMovements(movementsFor(bot));
    let chasedAt = Number.NEGATIVE_INFINITY;
    try {
      while (hits < wanted && alive(bot, target)) {
        if (ctx.signal.aborted) return ABORTED;
        if (ctx.now() - startedAt > FIGHT_BUDGET_MS)
          return { ok: false, code: 'timeout', reason: `${target.name} still alive after ${FIGHT_BUDGET_MS / 1000} s (${hits} hits)`, retryable: true };
        // Every hit that lands is answered with a hurt animation; a target that never flinches is not really there.
        const answered = (bot.sinew.hurtCounts.get(target.id) ?? 0) - hurtsBefore;
        if (hits - answered >= MAX_UNANSWERED_HITS)
          return { ok: false, code: 'effects_unmet', reason: `${hits - answered} of ${hits} hits on ${target.name} were not answered by the server`, retryable: true };
        if (target.position.distanceTo(bot.entity.position) <= MELEE_RANGE) {
          await bot.lookAt(target.position.offset(0, (target.height ?? 1.6) * 0.8, 0), true);
          bot.attack(target);
          hits += 1;
          lastHitAt = ctx.now();
          await ctx.sleep(HIT_COOLDOWN_MS);
        } else if (ctx.now() - lastHitAt > CHASE_LIMIT_MS) {
          return { ok: false, code: 'stuck', reason: `could not get within ${MELEE_RANGE} blocks of ${target.name} for ${CHASE_LIMIT_MS / 1000} s`, retryable: true };
        } else {
          // Knock-back moves the target after every hit: re-aim at where it is now.
          if (ctx.now() - chasedAt > RETARGET_MS) {
            const { x, y, z } = target.position;
            bot.pathfinder.setGoal(new goals.GoalNear(x, y, z, 1));
            chasedAt = ctx.now();
          }
          await ctx.sleep(100);
        }
      }
    } finally {
      bot.pathfinder.setGoal(null);
      bot.clearControlStates();
    }
    return { ok: true, observables: { hits, killed: !alive(bot, target) } };
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
