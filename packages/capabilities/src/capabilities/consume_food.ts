import { accepted, effectsUnmet, fail, formatPredicate, guardFailed, guardOk, precondMissing, pred } from '@sinew/executor-contracts';
import type { Item } from '../mc-types.js';
import { z } from 'zod';
import type { SinewBot } from '../bot.js';
import { defineBotCapability } from '../body.js';
import { ABORTED, thrown } from '../body/failures.js';
import { observeWorld } from '../world.js';

/** Arguments of `consume_food`. */
export const ConsumeFoodArgsSchema = z.strictObject({
  /** The food to eat; default: the best food held (most hunger and saturation, harmful foods last). */
  item: z.string().min(1).optional(),
});
export type ConsumeFoodArgs = z.output<typeof ConsumeFoodArgsSchema>;

const MAX_FOOD = 20;

/** Foods with a bad side effect (poison, hunger, nausea, a random teleport): eaten only when nothing else is held. */
const HARMFUL = new Set(['rotten_flesh', 'spider_eye', 'poisonous_potato', 'pufferfish', 'chicken', 'suspicious_stew', 'chorus_fruit']);

/**
 * The food stack to eat: the named one, else the best held: harmless before harmful, then by what it restores
 * (hunger points plus saturation, minecraft-data's `effectiveQuality`: cooked beef 20.8 before bread 11).
 */
export function pickFood(bot: SinewBot, item?: string): Item | undefined {
  const foods = bot.registry.foodsByName;
  const candidates = bot.inventory.items().filter((stack) => (item ? stack.name === item : foods[stack.name] !== undefined));
  const value = (stack: Item) => (HARMFUL.has(stack.name) ? -100 : 0) + (foods[stack.name]?.effectiveQuality ?? 0);
  return candidates.sort((a, b) => value(b) - value(a))[0];
}

/** Eats one food item from the inventory. */
export const consumeFood = defineBotCapability({
  name: 'consume_food',
  version: '1.0.0',
  description: 'Eat a food item from the inventory (default: the one restoring the most hunger and saturation, harmful foods last).',
  inputSchema: ConsumeFoodArgsSchema,
  expectedDurationMs: 8_000,
  preconds: (args) => [pred.hasItem(args.item ?? { class: 'food' })],
  effects: () => [pred.foodRose()],
  guard: ({ body }, args) => {
    if (args.item && !body.registry.foodsByName[args.item]) return guardFailed(`${args.item} is not food`);
    if (!pickFood(body, args.item)) return precondMissing([pred.hasItem(args.item ?? { class: 'food' })]);
    if (body.food >= MAX_FOOD) return guardFailed('not hungry: food is full');
    return guardOk;
  },
  observe: ({ body }) => observeWorld(body),
  run: async (ctx, args) => {
    const bot = ctx.body;
    const food = pickFood(bot, args.item);
    if (!food) return fail.precondMissing('no food', { missing: [formatPredicate(pred.hasItem(args.item ?? { class: 'food' }))] });
    let stopped: () => void = () => undefined;
    const aborted = new Promise<void>((resolve) => (stopped = resolve));
    // Stop raising the food to the mouth at once: mineflayer's consume only settles when eating finishes.
    const onAbort = () => {
      bot.deactivateItem();
      stopped();
    };
    try {
      if (bot.heldItem?.name !== food.name) await bot.equip(food, 'hand');
      if (ctx.signal.aborted) return ABORTED;
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      const eating = bot.consume();
      eating.catch(() => undefined); // its late rejection after an abort is not ours to report
      await Promise.race([eating, aborted]);
      return ctx.signal.aborted ? ABORTED : { ok: true, observables: { ate: food.name } };
    } catch (error) {
      return ctx.signal.aborted ? ABORTED : thrown('runner_error', `eat ${food.name}`, error);
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
    }
  },
  acceptance: (pre, post) =>
    post.food > pre.food ? accepted : effectsUnmet([pred.foodRose()], `food did not rise (${pre.food} → ${post.food})`),
});
