import { accepted, effectsUnmet, fail, guardFailed, guardOk, pred } from '@sinew/executor-contracts';
import { z } from 'zod';
import { defineBotCapability } from '../body.js';
import { dropsNear, pickUpDrops } from '../body/drops.js';
import { observeWorld } from '../world.js';

/** Arguments of `collect_drops`. */
export const CollectDropsArgsSchema = z.strictObject({
  /** Only pick up this item; default: every drop in the radius. */
  item: z.string().min(1).optional(),
  radius: z.number().positive().max(64).default(8),
});
export type CollectDropsArgs = z.output<typeof CollectDropsArgsSchema>;

/** Picks up the item drops lying around the bot. */
export const collectDrops = defineBotCapability({
  name: 'collect_drops',
  version: '1.0.0',
  description: 'Walk over the dropped items near the bot (optionally only one item) to pick them up.',
  inputSchema: CollectDropsArgsSchema,
  expectedDurationMs: 30_000,
  effects: (args) => [pred.gained(args.item ?? { class: 'any' })],
  guard: ({ body }, args) =>
    dropsNear(body, args.radius, args.item).length > 0
      ? guardOk
      : guardFailed(`no ${args.item ?? 'item'} drops within ${args.radius} blocks`),
  observe: ({ body }) => observeWorld(body),
  run: async (ctx, args) => {
    const result = await pickUpDrops(ctx, args.radius, args.item);
    if (!result.ok) return result;
    if (result.collected === 0 && result.unreachable.length > 0) {
      const reason = `unreachable: ${result.unreachable.join('; ')} (walked onto it, approached from the side and jumped, stepped up)`;
      return fail.effectsUnmet(reason, { retryable: false });
    }
    return { ok: true, observables: { collected: result.collected } };
  },
  acceptance: (pre, post, args) => {
    const count = (inventory: Record<string, number>) =>
      args.item === undefined ? Object.values(inventory).reduce((a, b) => a + b, 0) : (inventory[args.item] ?? 0);
    const before = count(pre.inventory);
    const after = count(post.inventory);
    return after > before
      ? accepted
      : effectsUnmet([pred.gained(args.item ?? { class: 'any' })], `inventory count of ${args.item ?? 'items'} did not grow (${before} → ${after})`);
  },
});
