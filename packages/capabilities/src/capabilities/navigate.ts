import { accepted, effectsUnmet, fail, guardFailed, guardOk, parseBlockKey, pred, type Vec3, Vec3Schema } from '@sinew/executor-contracts';
import pathfinderPackage from 'mineflayer-pathfinder';
import type { Entity } from '../mc-types.js';
import { z } from 'zod';
import type { SinewBot } from '../bot.js';
import { defineBotCapability, targetMemo } from '../body.js';
import { nearestEntityNamed } from '../body/entities.js';
import type { Failure } from '../body/failures.js';
import { nearestBlock } from '../body/geometry.js';
import { walkTo } from '../body/walking.js';
import { climbLadder, RecoveryOptionsSchema, tracingCells } from '../recovery.js';
import { observeWorld, type ObservedWorld } from '../world.js';

const { goals } = pathfinderPackage;

/** Arguments of `navigate`. */
export const NavigateArgsSchema = z
  .strictObject({
    position: Vec3Schema.optional(),
    /** Walk to the nearest block of this name (or suffix group, e.g. `log`). */
    block: z.string().min(1).optional(),
    /** Walk to the nearest entity of this type, mob name or username. */
    entity: z.string().min(1).optional(),
    range: z.number().nonnegative().default(2),
    /** How far to search for `block`/`entity`. */
    maxDistance: z.number().positive().max(256).default(64),
    /** On stuck or flapping, the recovery ladder runs (re-plan around the segment, approach from another side); this allows its optional rungs. */
    recovery: RecoveryOptionsSchema.prefault({}),
  })
  .refine((args) => [args.position, args.block, args.entity].filter((v) => v !== undefined).length === 1, {
    message: 'give exactly one of position, block or entity',
  });
export type NavigateArgs = z.output<typeof NavigateArgsSchema>;

type Target = { kind: 'position'; position: Vec3 } | { kind: 'block'; position: Vec3 } | { kind: 'entity'; entity: Entity };

const targets = targetMemo<Target>();

function resolveTarget(bot: SinewBot, args: NavigateArgs): Target | undefined {
  const known = targets.get(args);
  if (known && (known.kind !== 'entity' || known.entity.isValid !== false)) return known;
  if (args.position) return targets.set(args, { kind: 'position', position: args.position });
  if (args.block) {
    const block = nearestBlock(bot, args.block, args.maxDistance);
    return block ? targets.set(args, { kind: 'block', position: block.position }) : undefined;
  }
  const entity = nearestEntityNamed(bot, args.entity!, args.maxDistance);
  return entity ? targets.set(args, { kind: 'entity', entity }) : undefined;
}

function targetPosition(target: Target): Vec3 {
  return target.kind === 'entity' ? target.entity.position : target.position;
}

/** Distance the acceptance allows: pathfinder's GoalNear measures whole blocks, the body stands off-centre; plus any widening the plan allowed. */
function allowed(args: NavigateArgs): number {
  return args.range + 1 + args.recovery.widenBlocks;
}

function distance(a: Vec3, b: Vec3): number {
  return Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
}

function blockCentre(position: Vec3): Vec3 {
  return { x: Math.floor(position.x) + 0.5, y: Math.floor(position.y), z: Math.floor(position.z) + 0.5 };
}

/** Walks to a position, the nearest block of a kind, or the nearest entity, with FM-04 flap detection. */
export const navigate = defineBotCapability({
  name: 'navigate',
  version: '1.0.0',
  description: 'Walk to a position, the nearest block of a kind, or the nearest entity (within range).',
  inputSchema: NavigateArgsSchema,
  expectedDurationMs: 30_000,
  effects: (args) => [pred.at(args.position ?? pred.placeholder('target'))],
  guard: ({ body }, args) => {
    if (resolveTarget(body, args)) return guardOk;
    return guardFailed(
      args.block ? `no ${args.block} within ${args.maxDistance} blocks` : `no entity "${args.entity}" within ${args.maxDistance} blocks`,
    );
  },
  observe: ({ body }, args): ObservedWorld => {
    const target = resolveTarget(body, args);
    if (target?.kind === 'entity') return observeWorld(body, { entityIds: [target.entity.id] });
    return observeWorld(body, target ? { positions: [targetPosition(target)] } : {});
  },
  run: async (ctx, args) => {
    const bot = ctx.body;
    const target = resolveTarget(bot, args);
    if (!target) return fail.guardFailed('navigation target vanished');
    const goal =
      target.kind === 'entity'
        ? new goals.GoalFollow(target.entity, args.range)
        : new goals.GoalNear(target.position.x, target.position.y, target.position.z, args.range);
    // Not a pathfinder "dynamic" goal: those never emit goal_reached, so goto would never resolve; GoalFollow
    // re-plans on its own as the entity moves (hasChanged).
    const goalAt = () => (target.kind === 'entity' ? target.entity.position : blockCentre(target.position));
    const walked = await tracingCells(ctx, () => walkTo(ctx, goal));
    // pathfinder's goto resolves on an empty computed path without having arrived: read the position.
    const short = walked.result ? 0 : distance(bot.entity.position, goalAt());
    const failure: Failure | undefined =
      walked.result ?? (short > allowed(args) ? fail.stuck(`pathfinder stopped ${short.toFixed(1)} blocks from the goal`) : undefined);
    let ladder: unknown[] | undefined;
    if (failure?.code === 'stuck') {
      const climbed = await climbLadder(ctx, { goal: targetPosition(target), range: args.range, recovery: args.recovery, visited: walked.visited }, failure);
      if (climbed.failure) return climbed.failure;
      ladder = climbed.ladder;
    } else if (failure) return failure;
    const left = distance(bot.entity.position, goalAt());
    if (left > allowed(args)) {
      return fail.stuck(`recovery reached the goal's side but stopped ${left.toFixed(1)} blocks from it`, { retryable: false });
    }
    return { ok: true, observables: { distance: Number(left.toFixed(2)), ...(ladder ? { ladder } : {}) } };
  },
  acceptance: (_pre, post, args) => {
    let goalAt: Vec3 | undefined;
    if (args.position) goalAt = blockCentre(args.position);
    else if (args.block) {
      const block = parseBlockKey(Object.keys(post.blocks)[0] ?? '');
      if (block) goalAt = blockCentre(block);
    } else {
      const entity = Object.values(post.entities ?? {})[0];
      // A dead entity is no target to stand next to.
      if (entity && !entity.dead) goalAt = entity.position;
    }
    if (!goalAt) return effectsUnmet([pred.at(pred.placeholder('target'))], 'the navigation target is no longer observed');
    const left = distance(post.position, goalAt);
    return left <= allowed(args)
      ? accepted
      : effectsUnmet([pred.at(goalAt)], `bot is ${left.toFixed(1)} blocks from the target (range ${args.range})`);
  },
});
