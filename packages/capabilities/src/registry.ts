import { CapabilityRegistry } from '@sinew/executor-contracts';
import type { SinewBot } from './bot.js';
import { attackEntity } from './capabilities/attack_entity.js';
import { buildStructure } from './capabilities/build_structure.js';
import { chat } from './capabilities/chat.js';
import { collectDrops } from './capabilities/collect_drops.js';
import { consumeFood } from './capabilities/consume_food.js';
import { craftItem } from './capabilities/craft_item.js';
import { digBlock } from './capabilities/dig_block.js';
import { equip } from './capabilities/equip.js';
import { escapeFluid } from './capabilities/escape_fluid.js';
import { explore } from './capabilities/explore.js';
import { fillBucket } from './capabilities/fill_bucket.js';
import { flee } from './capabilities/flee.js';
import { gather } from './capabilities/gather.js';
import { hunt } from './capabilities/hunt.js';
import { mine } from './capabilities/mine.js';
import { navigate } from './capabilities/navigate.js';
import { pillarUp } from './capabilities/pillar_up.js';
import { placeBlock } from './capabilities/place_block.js';
import { shear } from './capabilities/shear.js';
import { smeltItem } from './capabilities/smelt_item.js';

/** The standard Minecraft capability set, one per canonical verb. */
export const standardCapabilities = [
  navigate,
  digBlock,
  collectDrops,
  placeBlock,
  craftItem,
  smeltItem,
  consumeFood,
  equip,
  attackEntity,
  flee,
  pillarUp,
  gather,
  buildStructure,
  chat,
  escapeFluid,
  hunt,
  shear,
  explore,
  mine,
  fillBucket,
] as const;

/** A fresh registry holding the standard set, to extend with your own capabilities. */
export function createStandardRegistry(): CapabilityRegistry<SinewBot> {
  return new CapabilityRegistry<SinewBot>().registerAll(standardCapabilities);
}

/** The shared registry of the standard set (use `createStandardRegistry()` to add your own). */
export const standardRegistry: CapabilityRegistry<SinewBot> = createStandardRegistry();
