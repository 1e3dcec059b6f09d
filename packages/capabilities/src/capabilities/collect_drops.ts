import { accepted, effectsUnmet, guardFailed, guardOk } from '@sinew/executor-contracts';
import pathfinderPackage from 'mineflayer-pathfinder';
import type { Entity } from '../mc-types.js';
import { z } from 'zod';
import type { SinewBot } from '../bot.js';
import { ABORTED, defineBotCapability, pause, walkTo, type BotRunContext, type Failure } from '../body.js';
import { observeWorld } from '../world.js';

const { goals } = pathfinderPackage;

export const CollectDropsArgsSchema = z.strictObject({
  /** Only pick up this item; default: every drop in the radius. */
  item: z.string().min(1).optional(),
  radius: z.number().positive().max(64).default(8),
});
export type CollectDropsArgs = z.output<typeof CollectDropsArgsSchema>;

/** Item name of a dropped-item entity, or undefined when the server did not say (or it is no item drop). */
export function droppedItemName(entity: Entity): string | undefined {
  if (entity.name !== 'item') return undefined;
  try {
    return entity.getDroppedItem()?.name ?? undefined;
  } catch {
    // Servers that send no item metadata (flying-squid) leave the stack unknown.
    return undefined;
  }
}

/** Dropped items within `radius` of the bot (optionally of one item, or those a predicate accepts), nearest first. */
export function dropsNear(bot: SinewBot, radius: number, item?: string | ((name: string) => boolean)): Entity[] {
  const wanted = typeof item === 'function' ? item : item === undefined ? () => true : (name: string) => name === item;
  const me = bot.entity.position;
  return Object.values(bot.entities)
    .filter((entity) => entity.isValid !== false && entity.name === 'item' && entity.position.distanceTo(me) <= radius)
    .filter((entity) => {
      const name = droppedItemName(entity);
      // An unknown stack might be the wanted one: pick it up, acceptance counts what really arrived.
      return name === undefined || wanted(name);
    })
    .sort((a, b) => a.position.distanceTo(me) - b.position.distanceTo(me));
}

const PICKUP_WAIT_MS = 1_500;
const MAX_ATTEMPTS = 2;

/** Walks onto each drop in turn until none is left (or `maxDrops`); shared with `gather`. */
export async function pickUpDrops(
  ctx: BotRunContext,
  radius: number,
  item?: string | ((name: string) => boolean),
  maxDrops = 16,
): Promise<Failure | { ok: true; collected: number }> {
  const bot = ctx.body;
  let collected = 0;
  // A drop missed once (the server's pickup tick can lag under load) is walked onto once more.
  const attempts = new Map<number, number>();
  let dropsLeft = maxDrops;
  while (dropsLeft > 0) {
    if (ctx.signal.aborted) return ABORTED;
    const drop = dropsNear(bot, radius, item).find((entity) => (attempts.get(entity.id) ?? 0) < MAX_ATTEMPTS);
    if (!drop) break;
    const attempt = attempts.get(drop.id) ?? 0;
    attempts.set(drop.id, attempt + 1);
    let stopWaiting = (): void => undefined;
    const pickedUp = new Promise<boolean>((resolve) => {
      const onCollect = (collector: Entity, collectedEntity: Entity) => {
        if (collector !== bot.entity || collectedEntity.id !== drop.id) return;
        done(true);
      };
      const onGone = (entity: Entity) => {
        if (entity.id === drop.id) done(true);
      };
      const done = (ok: boolean) => {
        bot.removeListener('playerCollect', onCollect);
        bot.removeListener('entityGone', onGone);
        resolve(ok);
      };
      bot.on('playerCollect', onCollect);
      bot.on('entityGone', onGone);
      stopWaiting = () => done(false);
    });
    // Within a block of the drop: the server hands it to a player whose feet are within 1.75 blocks.
    const { x, y, z } = drop.position;
    const goal = attempt === 0 ? new goals.GoalNear(x, y, z, 1) : new goals.GoalNearXZ(x, z, 0.5);
    const failure = await walkTo(ctx, goal, { budgetMs: 15_000 });
    if (failure?.code === 'aborted') {
      stopWaiting();
      return failure;
    }
    // Standing on the drop; the server hands it over within a tick or two (vanilla pickup delay ≈ 0.5 s).
    const gotIt = await Promise.race([pickedUp, pause(PICKUP_WAIT_MS * (attempt + 1), ctx.signal).then(() => false)]);
    stopWaiting();
    if (gotIt) collected += 1;
    ctx.progress(`drop ${drop.id} ${gotIt ? 'collected' : 'missed'}`);
    if (gotIt || attempt + 1 >= MAX_ATTEMPTS) dropsLeft -= 1;
  }
  return { ok: true, collected };
}

/** Picks up the item drops lying around the bot. */
export const collectDrops = defineBotCapability({
  name: 'collect_drops',
  version: '1.0.0',
  description: 'Walk over the dropped items near the bot (optionally only one item) to pick them up.',
  inputSchema: CollectDropsArgsSchema,
  expectedDurationMs: 30_000,
  effects: ['has_item:<item>'],
  guard: ({ body }, args) =>
    dropsNear(body, args.radius, args.item).length > 0
      ? guardOk
      : guardFailed(`no ${args.item ?? 'item'} drops within ${args.radius} blocks`),
  observe: ({ body }) => observeWorld(body),
  run: async (ctx, args) => {
    const result = await pickUpDrops(ctx, args.radius, args.item);
    if (!result.ok) return result;
    return { ok: true, observables: { collected: result.collected } };
  },
  acceptance: (pre, post, args) => {
    const count = (inventory: Record<string, number>) =>
      args.item === undefined ? Object.values(inventory).reduce((a, b) => a + b, 0) : (inventory[args.item] ?? 0);
    const before = count(pre.inventory);
    const after = count(post.inventory);
    return after > before
      ? accepted
      : effectsUnmet([`has_item:${args.item ?? 'any'}`], `inventory count of ${args.item ?? 'items'} did not grow (${before} → ${after})`);
  },
});
