import type { PredicateEvaluator } from '@sinew/bt-runtime';
import { type ItemRef, type Predicate, type PredicateKind } from '@sinew/executor-contracts';
import { NEAR_BLOCK_DISTANCE } from '@sinew/executor-contracts/minecraft';
import type { Bot } from 'mineflayer';
import { biomeAt } from './body/biomes.js';
import { alive } from './body/combat.js';
import { nearestEntityNamed } from './body/entities.js';
import { outOfFluid } from './body/fluids.js';
import { blockMatcher, eyeDistance, isAir, nearestBlock, REACH, toBlockVec } from './body/geometry.js';
import type { SinewBot } from './bot.js';

/** What gains are measured against: the inventory counts, height and food before the step's first attempt. */
interface Baseline {
  readonly items: ReadonlyMap<string, number>;
  readonly y: number;
  readonly food: number;
}

const KINDS: readonly PredicateKind[] = ['has_item', 'near_block', 'within_reach', 'at', 'air_at', 'block_at', 'equipped', 'rose', 'food_rose', 'out_of', 'seen_mob', 'in_biome', 'below_y'];

/** How far a mob counts as seen (`seen_mob`): the distance `explore` looks for one. */
const MOB_SIGHT = 32;

/**
 * The predicate evaluator for a mineflayer bot: checks step `preconds`/`effects` on the live bot
 * (inventory, blocks around, position, held items, food, fluids around the body, mobs in sight, the biome and
 * height of its feet). Pass it as `createExecutor({ predicates })`.
 *
 * @example
 * const executor = createExecutor({ registry: createStandardRegistry(), body: bot, predicates: minecraftPredicates });
 */
export const minecraftPredicates: PredicateEvaluator<SinewBot> = {
  kinds: KINDS,
  baseline: (bot) => ({ items: inventoryCounts(bot), y: bot.entity.position.y, food: bot.food }) satisfies Baseline,
  holds: (predicate, bot, baseline) => holds(predicate, bot, baseline as Baseline | undefined),
};

function holds(predicate: Predicate, bot: Bot, baseline: Baseline | undefined): boolean {
  switch (predicate.kind) {
    case 'has_item': {
      const have = countRef(inventoryCounts(bot), bot, predicate.item);
      if (predicate.mode === 'at_least') return have >= predicate.count;
      return baseline !== undefined && have - countRef(baseline.items, bot, predicate.item) >= predicate.count;
    }
    case 'near_block':
      return nearestBlock(bot, predicate.block, NEAR_BLOCK_DISTANCE) !== undefined;
    case 'within_reach':
      return 'x' in predicate.position && eyeDistance(bot, predicate.position) <= REACH;
    case 'at':
      return 'x' in predicate.position && toBlockVec(bot.entity.position).equals(toBlockVec(predicate.position));
    case 'air_at':
      return 'x' in predicate.position && isAir(bot.blockAt(toBlockVec(predicate.position))?.name);
    case 'block_at': {
      if (!('x' in predicate.position)) return false;
      const name = bot.blockAt(toBlockVec(predicate.position))?.name;
      return name !== undefined && blockMatcher(bot, predicate.block)(name);
    }
    case 'equipped':
      return equippedName(bot, predicate.destination) === predicate.item;
    case 'rose':
      return baseline !== undefined && bot.entity.position.y - baseline.y >= predicate.blocks;
    case 'food_rose':
      return baseline !== undefined && bot.food > baseline.food;
    case 'out_of':
      return outOfFluid(bot, predicate.fluid);
    case 'seen_mob': {
      const mob = nearestEntityNamed(bot as SinewBot, predicate.mob, MOB_SIGHT);
      return mob !== undefined && alive(bot as SinewBot, mob);
    }
    case 'in_biome':
      return biomeAt(bot, bot.entity.position.floored()) === predicate.biome;
    case 'below_y':
      return Math.floor(bot.entity.position.y) <= predicate.y;
    default:
      return false;
  }
}

function inventoryCounts(bot: Bot): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of bot.inventory.items()) counts.set(item.name, (counts.get(item.name) ?? 0) + item.count);
  return counts;
}

/** Count of an item, or of every item of a class (`food`: what minecraft-data lists as food; `any`: everything). */
function countRef(counts: ReadonlyMap<string, number>, bot: Bot, item: ItemRef): number {
  if (typeof item === 'string') return counts.get(item) ?? 0;
  let total = 0;
  for (const [name, count] of counts) if (item.class === 'any' || bot.registry.foodsByName[name]) total += count;
  return total;
}

/** The item name in an equipment destination (`hand`, `off-hand`, `head`, `torso`, `legs`, `feet`). */
function equippedName(bot: Bot, destination: string): string | undefined {
  if (destination === 'hand') return bot.heldItem?.name;
  try {
    return bot.inventory.slots[bot.getEquipmentDestSlot(destination)]?.name;
  } catch {
    return undefined;
  }
}
