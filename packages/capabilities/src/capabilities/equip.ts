import { accepted, effectsUnmet, fail, formatPredicate, guardOk, precondMissing, pred } from '@sinew/executor-contracts';
import { z } from 'zod';
import { defineBotCapability } from '../body.js';
import { ABORTED, thrown } from '../body/failures.js';
import { countItem } from '../body/inventory.js';
import { EquipmentSlotSchema, observeWorld } from '../world.js';

/** Arguments of `equip`. */
export const EquipArgsSchema = z.strictObject({
  item: z.string().min(1),
  destination: EquipmentSlotSchema.default('hand'),
});
export type EquipArgs = z.output<typeof EquipArgsSchema>;

/** Holds or wears an item from the inventory. */
export const equip = defineBotCapability({
  name: 'equip',
  version: '1.0.0',
  description: 'Hold an item in a hand or wear it (head, torso, legs, feet).',
  inputSchema: EquipArgsSchema,
  expectedDurationMs: 5_000,
  preconds: (args) => [pred.hasItem(args.item)],
  effects: (args) => [pred.equipped(args.destination, args.item)],
  guard: ({ body }, args) => (countItem(body, args.item) > 0 ? guardOk : precondMissing([pred.hasItem(args.item)])),
  observe: ({ body }) => observeWorld(body, { equipment: true }),
  run: async (ctx, args) => {
    const bot = ctx.body;
    const stack = bot.inventory.items().find((item) => item.name === args.item);
    if (!stack) return fail.precondMissing(`no ${args.item}`, { missing: [formatPredicate(pred.hasItem(args.item))] });
    try {
      await bot.equip(stack, args.destination);
      return ctx.signal.aborted ? ABORTED : { ok: true };
    } catch (error) {
      return ctx.signal.aborted ? ABORTED : thrown('runner_error', `equip ${args.item} to ${args.destination}`, error);
    }
  },
  acceptance: (_pre, post, args) => {
    const worn = post.equipment?.[args.destination];
    return worn === args.item
      ? accepted
      : effectsUnmet([pred.equipped(args.destination, args.item)], `${args.destination} holds ${worn ?? 'nothing'}`);
  },
});
