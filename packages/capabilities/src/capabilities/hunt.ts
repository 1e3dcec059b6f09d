import { accepted, effectsUnmet, fail, guardFailed, guardOk, pred } from '@sinew/executor-contracts';
import { z } from 'zod';
import { defineBotCapability } from '../body.js';
import { dropOf, HUNTED_ANIMALS, MEAT_OF, nearestAnimal } from '../body/animals.js';
import { alive, fight } from '../body/combat.js';
import { harvestAnimals } from '../body/harvest-animals.js';
import { observeWorld } from '../world.js';

/** Arguments of `hunt`. */
export const HuntArgsSchema = z.strictObject({
  /** The animal to hunt for its meat (and leather, feathers, wool). */
  animal: z.enum(HUNTED_ANIMALS),
  /** How many animals to kill: the inventory gains at least this much raw meat. */
  count: z.number().int().positive().max(8).default(1),
  maxDistance: z.number().positive().max(64).default(32),
});
/** Parsed arguments of `hunt`. */
export type HuntArgs = z.output<typeof HuntArgsSchema>;

const HITS_PER_ANIMAL = 40;
const FIGHT_BUDGET_MS = 30_000;

/** Kills `count` animals of a kind for food and picks up what they drop (`attack_entity` is for threats). */
export const hunt = defineBotCapability({
  name: 'hunt',
  version: '1.0.0',
  description: 'Kill `count` animals of a kind (cow, pig, sheep, chicken) and pick up their drops: raw meat, leather, feathers, wool.',
  inputSchema: HuntArgsSchema,
  expectedDurationMs: 60_000,
  // The meat is a function of the animal: beef, porkchop, mutton, chicken.
  effects: (args) => [pred.gained(typeof args.animal === 'string' ? MEAT_OF[args.animal] : pred.placeholder('meat'), args.count)],
  guard: ({ body }, args) => (nearestAnimal(body, args.animal, args.maxDistance) ? guardOk : guardFailed(`no ${args.animal} within ${args.maxDistance} blocks`)),
  observe: ({ body }) => observeWorld(body),
  run: async (ctx, args) => {
    const bot = ctx.body;
    const result = await harvestAnimals(ctx, {
      count: args.count,
      what: args.animal,
      next: () => nearestAnimal(bot, args.animal, args.maxDistance),
      wanted: dropOf(args.animal),
      act: async (target) => {
        const fought = await fight(ctx, target, { hits: HITS_PER_ANIMAL, budgetMs: FIGHT_BUDGET_MS });
        if ('ok' in fought) return fought;
        return alive(bot, target) ? fail.effectsUnmet(`${args.animal} still alive after ${fought.hits} hits`) : undefined;
      },
    });
    if ('ok' in result) return result;
    return { ok: true, observables: { killed: result.done, collected: result.collected } };
  },
  acceptance: (pre, post, args) => {
    const meat = MEAT_OF[args.animal];
    const gained = (post.inventory[meat] ?? 0) - (pre.inventory[meat] ?? 0);
    return gained >= args.count ? accepted : effectsUnmet([pred.gained(meat, args.count)], `${meat} rose by ${gained}, not ${args.count}`);
  },
});
