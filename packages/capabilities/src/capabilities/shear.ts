import { accepted, effectsUnmet, fail, formatPredicate, guardFailed, guardOk, precondMissing, pred } from '@sinew/executor-contracts';
import pathfinderPackage from 'mineflayer-pathfinder';
import { z } from 'zod';
import type { BotRunContext } from '../body.js';
import { defineBotCapability } from '../body.js';
import { isSheared, isWool, nearestAnimal } from '../body/animals.js';
import { ABORTED, thrown, type Failure } from '../body/failures.js';
import { harvestAnimals } from '../body/harvest-animals.js';
import { countItem, countMatching } from '../body/inventory.js';
import { waitFor } from '../body/waiting.js';
import { walkTo } from '../body/walking.js';
import type { Entity } from '../mc-types.js';
import { observeWorld } from '../world.js';

const { goals } = pathfinderPackage;

/** Arguments of `shear`. */
export const ShearArgsSchema = z.strictObject({
  /** The animal to shear (only sheep give wool to shears). */
  animal: z.literal('sheep').default('sheep'),
  /** How many sheep to shear: the inventory gains at least this much wool. */
  count: z.number().int().positive().max(16).default(1),
  maxDistance: z.number().positive().max(64).default(32),
});
/** Parsed arguments of `shear`. */
export type ShearArgs = z.output<typeof ShearArgsSchema>;

const SHEAR_RANGE = 2.5;
const APPROACHES = 3;
const SHEARED_WAIT_MS = 2_000;

/** Walks up to a (strolling) sheep and right-clicks it with shears until the server marks it sheared. */
async function shearOne(ctx: BotRunContext, sheep: Entity): Promise<Failure | undefined> {
  const bot = ctx.body;
  for (let approach = 0; approach < APPROACHES && sheep.position.distanceTo(bot.entity.position) > SHEAR_RANGE; approach++) {
    const { x, y, z } = sheep.position;
    const failure = await walkTo(ctx, new goals.GoalNear(x, y, z, 1.5), { budgetMs: 15_000 });
    if (failure?.code === 'aborted') return ABORTED;
  }
  if (sheep.position.distanceTo(bot.entity.position) > SHEAR_RANGE + 1) return fail.stuck(`could not get within reach of the sheep #${sheep.id}`);
  try {
    const shears = bot.inventory.items().find((item) => item.name === 'shears');
    if (!shears) return fail.precondMissing('the shears are gone', { missing: [formatPredicate(pred.hasItem('shears', 1))] });
    if (bot.heldItem?.name !== 'shears') await bot.equip(shears, 'hand');
    await bot.activateEntity(sheep);
  } catch (error) {
    return ctx.signal.aborted ? ABORTED : thrown('runner_error', `shear sheep #${sheep.id}`, error);
  }
  if (await waitFor(ctx, () => isSheared(sheep), SHEARED_WAIT_MS)) return undefined;
  return ctx.signal.aborted ? ABORTED : fail.effectsUnmet(`the server did not shear sheep #${sheep.id}`);
}

/** Shears `count` sheep (needs shears) and picks up their wool. */
export const shear = defineBotCapability({
  name: 'shear',
  version: '1.0.0',
  description: 'Shear `count` sheep that still have their wool (needs shears) and pick up the wool (1–3 each, of the sheep colour).',
  inputSchema: ShearArgsSchema,
  expectedDurationMs: 40_000,
  preconds: () => [pred.hasItem('shears', 1)],
  // `wool` is the group of every colour (`white_wool`, …), as gather's `log`.
  effects: (args) => [pred.gained('wool', args.count)],
  guard: ({ body }, args) => {
    if (countItem(body, 'shears') < 1) return precondMissing([pred.hasItem('shears', 1)]);
    return nearestAnimal(body, args.animal, args.maxDistance, (e) => !isSheared(e)) ? guardOk : guardFailed(`no unsheared sheep within ${args.maxDistance} blocks`);
  },
  observe: ({ body }) => observeWorld(body),
  run: async (ctx, args) => {
    const bot = ctx.body;
    const result = await harvestAnimals(ctx, {
      count: args.count,
      what: 'unsheared sheep',
      next: () => nearestAnimal(bot, args.animal, args.maxDistance, (e) => !isSheared(e)),
      wanted: isWool,
      act: (sheep) => shearOne(ctx, sheep),
    });
    if ('ok' in result) return result;
    return { ok: true, observables: { sheared: result.done, collected: result.collected } };
  },
  acceptance: (pre, post, args) => {
    const gained = countMatching(post.inventory, isWool) - countMatching(pre.inventory, isWool);
    return gained >= args.count ? accepted : effectsUnmet([pred.gained('wool', args.count)], `wool rose by ${gained}, not ${args.count}`);
  },
});
