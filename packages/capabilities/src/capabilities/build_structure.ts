import { accepted, blockKey, effectsUnmet, guardFailed, guardOk, parseBlockKey, precondMissing, pred, type Vec3, Vec3Schema } from '@sinew/executor-contracts';
import pathfinderPackage from 'mineflayer-pathfinder';
import { z } from 'zod';
import type { SinewBot } from '../bot.js';
import { defineBotCapability, targetMemo } from '../body.js';
import { ABORTED } from '../body/failures.js';
import { eyeDistance, occupiedByBot, REACH, toBlockVec } from '../body/geometry.js';
import { countItem } from '../body/inventory.js';
import { isReplaceable, placeAt } from '../body/placing.js';
import { walkTo } from '../body/walking.js';
import { observeWorld } from '../world.js';

const { goals } = pathfinderPackage;

/** One block of a blueprint: where (relative to the origin) and what. */
export const BlueprintBlockSchema = z.strictObject({
  dx: z.number().int().min(-32).max(32),
  dy: z.number().int().min(-32).max(32),
  dz: z.number().int().min(-32).max(32),
  block: z.string().min(1),
});

/** Arguments of `build_structure`. */
export const BuildStructureArgsSchema = z.strictObject({
  /** Where blueprint offset 0,0,0 goes; default: two blocks east of the bot's feet. */
  origin: Vec3Schema.optional(),
  blueprint: z.array(BlueprintBlockSchema).min(1).max(512),
});
export type BuildStructureArgs = z.output<typeof BuildStructureArgsSchema>;

const origins = targetMemo<Vec3>();

function originOf(bot: SinewBot, args: BuildStructureArgs): Vec3 {
  if (args.origin) return args.origin;
  return origins.get(args) ?? origins.set(args, bot.entity.position.floored().offset(2, 0, 0));
}

/** Absolute positions of the blueprint, bottom layer first (so every block has something under it). */
export function layout(bot: SinewBot, args: BuildStructureArgs): { position: Vec3; block: string }[] {
  const origin = toBlockVec(originOf(bot, args));
  return args.blueprint
    .map(({ dx, dy, dz, block }) => ({ position: origin.offset(dx, dy, dz), block }))
    .sort((a, b) => a.position.y - b.position.y || a.position.x - b.position.x || a.position.z - b.position.z);
}

/** How many of each block a blueprint places. */
function blocksOf(blueprint: readonly { readonly block: string }[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { block } of blueprint) counts.set(block, (counts.get(block) ?? 0) + 1);
  return counts;
}

/** Places every block of a blueprint (relative positions), walking within reach as needed. */
export const buildStructure = defineBotCapability({
  name: 'build_structure',
  version: '1.0.0',
  description: 'Place the blocks of a blueprint of relative positions around an origin, bottom layer first.',
  inputSchema: BuildStructureArgsSchema,
  expectedDurationMs: 120_000,
  preconds: ({ blueprint }) =>
    Array.isArray(blueprint) ? [...blocksOf(blueprint)].map(([block, n]) => pred.hasItem(block, n)) : [pred.hasItem(pred.placeholder('block'), pred.placeholder('n'))],
  effects: () => [pred.structure('built')],
  guard: ({ body }, args) => {
    const needs = new Map<string, number>();
    for (const { position, block } of layout(body, args)) {
      const current = body.blockAt(toBlockVec(position));
      if (current?.name === block) continue;
      if (!body.registry.blocksByName[block]) return guardFailed(`${block} is not a placeable block`);
      if (current && !isReplaceable(current)) return guardFailed(`${blockKey(position)} is occupied by ${current.name}`);
      needs.set(block, (needs.get(block) ?? 0) + 1);
    }
    const missing = [...needs].filter(([block, n]) => countItem(body, block) < n).map(([block, n]) => pred.hasItem(block, n));
    return missing.length ? precondMissing(missing) : guardOk;
  },
  observe: ({ body }, args) => observeWorld(body, { positions: layout(body, args).map(({ position }) => position) }),
  run: async (ctx, args) => {
    const bot = ctx.body;
    let placed = 0;
    for (const { position, block } of layout(bot, args)) {
      if (ctx.signal.aborted) return ABORTED;
      if (bot.blockAt(toBlockVec(position))?.name === block) continue;
      if (eyeDistance(bot, position) > REACH - 0.5 || occupiedByBot(bot, position)) {
        const failure = await walkTo(ctx, new goals.GoalNear(position.x, position.y, position.z, 3), { budgetMs: 20_000 });
        if (failure?.code === 'aborted') return failure;
        if (occupiedByBot(bot, position)) {
          // Standing in the spot: step aside to any neighbouring block.
          await walkTo(ctx, new goals.GoalInvert(new goals.GoalBlock(position.x, position.y, position.z)), { budgetMs: 5_000 });
        }
      }
      const failure = await placeAt(ctx, block, position);
      if (failure) return { ...failure, reason: `${failure.reason} (after ${placed} blocks)` };
      placed += 1;
      ctx.progress(`placed ${block} at ${blockKey(position)}`);
    }
    return { ok: true, observables: { placed } };
  },
  acceptance: (_pre, post, args) => {
    const observed = Object.keys(post.blocks).flatMap((key) => parseBlockKey(key) ?? []);
    if (observed.length === 0) return effectsUnmet([pred.structure('observed')], 'no blueprint position was observed');
    // The snapshot holds exactly origin + offsets, so a default origin is recovered from the lowest corner.
    const lowest = (values: number[]) => Math.min(...values);
    const origin = args.origin
      ? toBlockVec(args.origin)
      : {
          x: lowest(observed.map((p) => p.x)) - lowest(args.blueprint.map((b) => b.dx)),
          y: lowest(observed.map((p) => p.y)) - lowest(args.blueprint.map((b) => b.dy)),
          z: lowest(observed.map((p) => p.z)) - lowest(args.blueprint.map((b) => b.dz)),
        };
    const unmet = args.blueprint
      .map(({ dx, dy, dz, block }) => ({ position: { x: origin.x + dx, y: origin.y + dy, z: origin.z + dz }, block }))
      .filter(({ position, block }) => post.blocks[blockKey(position)] !== block)
      .map(({ position, block }) => pred.blockAt(position, block));
    return unmet.length ? effectsUnmet(unmet, `${unmet.length} of ${args.blueprint.length} blocks missing`) : accepted;
  },
});
