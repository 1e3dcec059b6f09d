import { accepted, effectsUnmet, guardOk, precondMissing } from '@sinew/executor-contracts';
import { z } from 'zod';
import { ABORTED, countItem, defineBotCapability, thrown } from '../body.js';
import { EquipmentSlotSchema, observeWorld } from '../world.js';

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
  preconds: ['has_item:<item>:1'],
  effects: ['equipped:<destination>=<item>'],
  guard: ({ body }, args) => (countItem(body, args.item) > 0 ? guardOk : precondMissing([`has_item:${args.item}:1`])),
  observe: ({ body }) => observeWorld(body, { equipment: true }),
  run: async (ctx, args) => {
    const bot = ctx.body;
    const stack = bot.inventory.items().find((item) => item.name === args.item);
    if (!stack) return { ok: false, code: 'precond_missing', reason: `no ${args.item}`, missing: [`has_item:${args.item}:1`], retryable: false };
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
      : effectsUnmet([`equipped:${args.destination}=${args.item}`], `${args.destination} holds ${worn ?? 'nothing'}`);
  },
});
