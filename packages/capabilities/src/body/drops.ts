import pathfinderPackage from 'mineflayer-pathfinder';
import type { Vec3 } from 'vec3';
import type { BotRunContext } from '../body.js';
import type { SinewBot } from '../bot.js';
import type { Entity } from '../mc-types.js';
import { ABORTED, type Failure } from './failures.js';
import { settleWithin, waitFor } from './waiting.js';
import { walkTo } from './walking.js';

const { goals } = pathfinderPackage;

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

/**
 * Dropped items within `radius` of the bot (optionally of one item, or those a predicate accepts), nearest first;
 * none whose entity id is in `except` (drops that lay there before, left alone).
 */
export function dropsNear(bot: SinewBot, radius: number, item?: string | ((name: string) => boolean), except?: ReadonlySet<number>): Entity[] {
  const wanted = typeof item === 'function' ? item : item === undefined ? () => true : (name: string) => name === item;
  const me = bot.entity.position;
  return Object.values(bot.entities)
    .filter((entity) => entity.isValid !== false && entity.name === 'item' && !except?.has(entity.id) && entity.position.distanceTo(me) <= radius)
    .filter((entity) => {
      const name = droppedItemName(entity);
      // An unknown stack might be the wanted one: pick it up, acceptance counts what really arrived.
      return name === undefined || wanted(name);
    })
    .sort((a, b) => a.position.distanceTo(me) - b.position.distanceTo(me));
}

const PICKUP_WAIT_MS = 1_500;
/** How long a collected drop may take to show in the inventory (the server sends the slot after the collect). */
const ARRIVAL_WAIT_MS = 1_000;
/** How high above the feet vanilla's pickup box reaches (1.8 tall, grown 0.5), and how much a jump adds. */
const PICKUP_REACH_UP = 2.3;
const JUMP_GAIN = 1.2;

/** The result of picking up: how many drops arrived, and the ones no approach could reach (with why). */
export type PickUp = { ok: true; collected: number; unreachable: string[] };

type Approach = 'walk onto it' | 'approach from the side and jump' | 'step up over it';
const APPROACHES: readonly Approach[] = ['walk onto it', 'approach from the side and jump', 'step up over it'];

/** Whether the body can stand in a cell: two passable blocks over a solid one. */
function standable(bot: SinewBot, cell: Vec3): boolean {
  const passable = (at: Vec3) => bot.blockAt(at)?.boundingBox === 'empty';
  return passable(cell) && passable(cell.offset(0, 1, 0)) && bot.blockAt(cell.offset(0, -1, 0))?.boundingBox === 'block';
}

/**
 * A cell beside the drop's column (or under it) to stand in, from which a jump brings the pickup box up to the
 * drop: the highest, then the one nearest the drop (a drop lying at the far edge of a notch is out of reach
 * from the near side).
 */
function sideCell(bot: SinewBot, drop: Entity): Vec3 | undefined {
  const at = drop.position.floored();
  const fromDrop = (cell: Vec3) => Math.hypot(cell.x + 0.5 - drop.position.x, cell.z + 0.5 - drop.position.z);
  const cells: Vec3[] = [];
  for (const [dx, dz] of [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]] as const) {
    for (const dy of [0, -1, -2, -3]) {
      const cell = at.offset(dx, dy, dz);
      if (drop.position.y - cell.y <= PICKUP_REACH_UP + JUMP_GAIN && standable(bot, cell)) cells.push(cell);
    }
  }
  return cells.sort((a, b) => b.y - a.y || fromDrop(a) - fromDrop(b))[0];
}

/** Goes after one drop by one approach (jumping until `pickedUp` settles, at most the pickup wait); false when that approach has no way in. */
async function approach(ctx: BotRunContext, drop: Entity, how: Approach, pickedUp: Promise<boolean>): Promise<Failure | boolean> {
  const { x, y, z } = drop.position;
  if (how === 'walk onto it') return (await walkTo(ctx, new goals.GoalNear(x, y, z, 1), { budgetMs: 15_000 }))?.code === 'aborted' ? ABORTED : true;
  if (how === 'step up over it') return (await walkTo(ctx, new goals.GoalNearXZ(x, z, 0.5), { budgetMs: 10_000 }))?.code === 'aborted' ? ABORTED : true;
  const cell = sideCell(ctx.body, drop);
  if (!cell) return false;
  const failure = await walkTo(ctx, new goals.GoalBlock(cell.x, cell.y, cell.z), { budgetMs: 10_000 });
  if (failure?.code === 'aborted') return ABORTED;
  // Jumps lift the pickup box over a drop lying in a notch above head height. Jumping on until the server hands
  // it over, not once: under load a single apex can fall between the server's pickup checks.
  ctx.body.setControlState('jump', true);
  await settleWithin(ctx, pickedUp, PICKUP_WAIT_MS);
  ctx.body.setControlState('jump', false);
  return true;
}

/** Items the bot carries, all kinds together. */
function itemTotal(bot: SinewBot): number {
  return bot.inventory.items().reduce((total, stack) => total + stack.count, 0);
}

/** Waits for the server to hand a drop over (vanilla pickup delay ≈ 0.5 s); the caller reports the hand-over as progress. */
function awaitPickup(ctx: BotRunContext, drop: Entity): { done: Promise<boolean>; cancel(): void } {
  const bot = ctx.body;
  let finish: (ok: boolean) => void = () => undefined;
  const done = new Promise<boolean>((resolve) => {
    const onCollect = (collector: Entity, collected: Entity) => {
      if (collector === bot.entity && collected.id === drop.id) finish(true);
    };
    const onGone = (entity: Entity) => {
      if (entity.id === drop.id) finish(true);
    };
    finish = (ok) => {
      bot.removeListener('playerCollect', onCollect);
      bot.removeListener('entityGone', onGone);
      resolve(ok);
    };
    bot.on('playerCollect', onCollect);
    bot.on('entityGone', onGone);
  });
  return { done, cancel: () => finish(false) };
}

/**
 * Goes after each drop in turn until none is left (or `maxDrops`, default 16): walk onto it, else approach from the
 * side and jump (a drop in a notch above head height), else step up over it. A drop no approach reaches is
 * listed as unreachable, never waited on until a watchdog fires; drops in `except` are left alone. Shared with `gather`.
 */
export async function pickUpDrops(
  ctx: BotRunContext,
  radius: number,
  item?: string | ((name: string) => boolean),
  options: { readonly maxDrops?: number; readonly except?: ReadonlySet<number> } = {},
): Promise<Failure | PickUp> {
  let collected = 0;
  const tried = new Map<number, number>();
  const unreachable: string[] = [];
  for (let dropsLeft = options.maxDrops ?? 16; dropsLeft > 0; ) {
    if (ctx.signal.aborted) return ABORTED;
    const drop = dropsNear(ctx.body, radius, item, options.except).find((entity) => (tried.get(entity.id) ?? 0) < APPROACHES.length);
    if (!drop) break;
    const attempt = tried.get(drop.id) ?? 0;
    tried.set(drop.id, attempt + 1);
    const how = APPROACHES[attempt]!;
    const itemsBefore = itemTotal(ctx.body);
    const pickup = awaitPickup(ctx, drop);
    const went = await approach(ctx, drop, how, pickup.done);
    if (went === ABORTED) return pickup.cancel(), ABORTED;
    ctx.progress(`drop ${drop.id}: ${how}`);
    // Collected means arrived: acceptance reads the inventory, which the server updates after the collect itself.
    // The hand-over is progress of its own: the two waits together (2.5 s) sit too close to the stuck window (3 s)
    // for a loaded machine, whose timers fire late.
    const handedOver = went === true && (await settleWithin(ctx, pickup.done, PICKUP_WAIT_MS)) === true;
    if (handedOver) ctx.progress(`drop ${drop.id} handed over`);
    const gotIt = handedOver && (await waitFor(ctx, () => itemTotal(ctx.body) > itemsBefore, ARRIVAL_WAIT_MS));
    pickup.cancel();
    if (gotIt) collected += 1;
    ctx.progress(`drop ${drop.id} ${gotIt ? 'collected' : `missed (${how})`}`);
    if (gotIt) dropsLeft -= 1;
    else if (attempt + 1 >= APPROACHES.length) {
      dropsLeft -= 1;
      const { x, y, z } = drop.position;
      unreachable.push(`${droppedItemName(drop) ?? 'item'} at ${x.toFixed(1)},${y.toFixed(1)},${z.toFixed(1)}`);
    }
  }
  return { ok: true, collected, unreachable };
}
