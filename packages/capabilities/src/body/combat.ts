import { fail } from '@sinew/executor-contracts';
import pathfinderPackage from 'mineflayer-pathfinder';
import type { BotRunContext } from '../body.js';
import type { SinewBot } from '../bot.js';
import type { Entity } from '../mc-types.js';
import { nearestHostile } from './entities.js';
import { ABORTED, type Failure } from './failures.js';
import { movementsFor } from './walking.js';

const { goals } = pathfinderPackage;

const MELEE_RANGE = 3;
const HIT_COOLDOWN_MS = 650;
// Chasing counts as progress only this long without landing a hit or closing in (a block nearer than the nearest
// since then): a loaded machine slows the approach, it does not stop it.
const CHASE_LIMIT_MS = 10_000;
const CLOSING_BLOCKS = 1;
// Hits the bot has not seen answered (hurt or death) before it gives up on the target.
const MAX_UNANSWERED_HITS = 5;
const RETARGET_MS = 500;

/** Whether the bot still sees the entity alive. */
export function alive(bot: SinewBot, entity: Entity): boolean {
  return entity.isValid !== false && bot.entities[entity.id] === entity && !bot.sinew.deadEntities.has(entity.id);
}

/** Waits `ms`; with `keepAway`, walking backwards facing the target while a hostile is closer than that. */
async function cooldown(ctx: BotRunContext, target: Entity, keepAway: number, ms: number): Promise<void> {
  if (keepAway <= 0) return ctx.sleep(ms);
  const bot = ctx.body;
  const until = ctx.now() + ms;
  bot.pathfinder.setGoal(null); // the chase's goal would walk the bot back in
  try {
    while (ctx.now() < until && !ctx.signal.aborted) {
      const close = nearestHostile(bot, keepAway) !== undefined;
      if (close) await bot.lookAt(target.position.offset(0, (target.height ?? 1.6) * 0.8, 0), true);
      bot.setControlState('back', close);
      await ctx.sleep(50);
    }
  } finally {
    bot.setControlState('back', false);
  }
}

/** How long and how hard a fight may go on. */
export interface FightLimits {
  /** Stop after this many hits (the target may still be alive). */
  readonly hits: number;
  /** The whole fight, whatever happens. */
  readonly budgetMs: number;
  /**
   * Keep hostiles farther than this (blocks; 0: stand and fight): between hits the bot backs away facing the target
   * while one is closer — a zombie hits from 1.6 blocks, the bot from 3; and while the target is out of reach with
   * another hostile within it, the burst's hits go to that one (`sideHits`) rather than chase past it; a fight whose
   * first hit finds the target out of reach and another within it fails its guard (its caller aims again).
   */
  readonly keepAway?: number;
}

/**
 * Chases `target` and hits it, once per cooldown, until it dies or `limits.hits` land: the number of hits (of them
 * `sideHits` on another hostile within reach while the target was out of it, with `keepAway`), or a
 * coded failure (a fight past its budget, hits the server never answers, a target out of reach).
 */
export async function fight(ctx: BotRunContext, target: Entity, limits: FightLimits): Promise<Failure | { hits: number; sideHits: number }> {
  const bot = ctx.body;
  let hits = 0;
  // hits that went to another hostile within reach while the target was out of it (counted in `hits` too)
  let sideHits = 0;
  const startedAt = ctx.now();
  let lastHitAt = startedAt;
  // the last time the chase came a block nearer than it had been since the last hit or nearing
  let nearest = Number.POSITIVE_INFINITY;
  let nearedAt = startedAt;
  const hurtsBefore = bot.sinew.hurtCounts.get(target.id) ?? 0;
  bot.pathfinder.setMovements(movementsFor(bot));
  let chasedAt = Number.NEGATIVE_INFINITY;
  const keepAway = limits.keepAway ?? 0;
  try {
    while (hits < limits.hits && alive(bot, target)) {
      if (ctx.signal.aborted) return ABORTED;
      if (ctx.now() - startedAt > limits.budgetMs)
        return fail.timeout(`${target.name} still alive after ${limits.budgetMs / 1000} s (${hits} hits)`);
      // Every hit that lands is answered with a hurt animation; a target that never flinches is not really there.
      const answered = (bot.sinew.hurtCounts.get(target.id) ?? 0) - hurtsBefore;
      if (hits - sideHits - answered >= MAX_UNANSWERED_HITS)
        return fail.effectsUnmet(`${hits - sideHits - answered} of ${hits - sideHits} hits on ${target.name} were not answered by the server`);
      const distance = target.position.distanceTo(bot.entity.position);
      if (distance <= nearest - CLOSING_BLOCKS) {
        nearest = distance;
        nearedAt = ctx.now();
      }
      if (distance <= MELEE_RANGE) {
        await bot.lookAt(target.position.offset(0, (target.height ?? 1.6) * 0.8, 0), true);
        bot.attack(target);
        hits += 1;
        lastHitAt = ctx.now();
        nearest = Number.POSITIVE_INFINITY;
        await cooldown(ctx, target, keepAway, HIT_COOLDOWN_MS);
      } else if (ctx.now() - Math.max(lastHitAt, nearedAt) > CHASE_LIMIT_MS) {
        return fail.stuck(`could not get within ${MELEE_RANGE} blocks of ${target.name}: ${CHASE_LIMIT_MS / 1000} s without a hit or coming ${CLOSING_BLOCKS} block nearer (at ${distance.toFixed(1)})`);
      } else if (keepAway > 0 && nearestHostile(bot, MELEE_RANGE)) {
        // another hostile is within reach and the target is not (a hit's knock-back takes it out of reach, a pack swaps its
        // front): the burst goes on at the one within reach rather than turn its back on it or stand idle
        if (hits === 0) return fail.guardFailed(`another hostile is within ${MELEE_RANGE} blocks and ${target.name} #${target.id} is not: aim at that one`);
        const other = nearestHostile(bot, MELEE_RANGE)!;
        await bot.lookAt(other.position.offset(0, (other.height ?? 1.6) * 0.8, 0), true);
        bot.attack(other);
        hits += 1;
        sideHits += 1;
        lastHitAt = ctx.now();
        await cooldown(ctx, other, keepAway, HIT_COOLDOWN_MS);
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
  return { hits, sideHits };
}
