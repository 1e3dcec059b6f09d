import { fail } from '@sinew/executor-contracts';
import type { BotRunContext } from '../body.js';
import type { Entity } from '../mc-types.js';
import { dropsNear, pickUpDrops } from './drops.js';
import type { Failure } from './failures.js';
import { waitFor } from './waiting.js';

const DROP_APPEAR_MS = 1_500;
const DROP_RADIUS = 8;

/**
 * One round per animal until `count` rounds succeeded: find the next animal (`next`), act on it (`act`: kill,
 * shear…), then wait for its drops and pick up those `wanted` accepts (the `collect_drops` walk). Progress after
 * each round; a round that fails ends the step with its failure.
 */
export async function harvestAnimals(
  ctx: BotRunContext,
  options: {
    readonly count: number;
    readonly what: string;
    readonly next: () => Entity | undefined;
    readonly act: (target: Entity) => Promise<Failure | undefined>;
    readonly wanted: (item: string) => boolean;
  },
): Promise<Failure | { done: number; collected: number }> {
  let done = 0;
  let collected = 0;
  while (done < options.count) {
    const target = options.next();
    if (!target) return fail.effectsUnmet(`no ${options.what} left in range after ${done} of ${options.count}`, { retryable: false });
    const failure = await options.act(target);
    if (failure) return failure;
    done += 1;
    await waitFor(ctx, () => dropsNear(ctx.body, DROP_RADIUS, options.wanted).length > 0, DROP_APPEAR_MS);
    const picked = await pickUpDrops(ctx, DROP_RADIUS, options.wanted);
    if (!picked.ok) return picked;
    collected += picked.collected;
    ctx.progress(`${options.what} ${done}/${options.count}: picked up ${picked.collected} drops`);
  }
  return { done, collected };
}
