export { BOT_ACTUATORS, instrumentBot, PATHFINDER_ACTUATORS, sinew, type ChatLine, type DeadEntity, type SinewBot, type SinewNamespace } from './bot.js';
export {
  EntitySnapshotSchema,
  EquipmentSlotSchema,
  inventoryCounts,
  observeWorld,
  ObservedWorldSchema,
  type EquipmentSlot,
  type ObservedWorld,
  type WorldFocus,
} from './world.js';
export { minecraftPredicates } from './predicates.js';
export { superviseBot, SupervisorPolicySchema, type SuperviseOptions, type Supervisor, type SupervisorPolicyInput } from './supervisor.js';
export { createFlapDetector, FlapPolicySchema, type FlapDetector, type FlapPolicy, type FlapPolicyInput } from './flap.js';
export { defineBotCapability, type BotRunContext } from './body.js';
export { REACH } from './body/geometry.js';
export { createStandardRegistry, standardCapabilities, standardRegistry } from './registry.js';
export { attackEntity, AttackEntityArgsSchema, type AttackEntityArgs } from './capabilities/attack_entity.js';
export { BlueprintBlockSchema, buildStructure, BuildStructureArgsSchema, type BuildStructureArgs } from './capabilities/build_structure.js';
export { chat, ChatArgsSchema, type ChatArgs } from './capabilities/chat.js';
export { collectDrops, CollectDropsArgsSchema, type CollectDropsArgs } from './capabilities/collect_drops.js';
export { consumeFood, ConsumeFoodArgsSchema, type ConsumeFoodArgs } from './capabilities/consume_food.js';
export { craftItem, CraftItemArgsSchema, type CraftItemArgs } from './capabilities/craft_item.js';
export { smeltItem, SmeltItemArgsSchema, type SmeltItemArgs } from './capabilities/smelt_item.js';
export { digBlock, DigBlockArgsSchema, type DigBlockArgs } from './capabilities/dig_block.js';
export { equip, EquipArgsSchema, type EquipArgs } from './capabilities/equip.js';
export { RECOVERY_RUNGS, RecoveryOptionsSchema, type RecoveryOptions, type RecoveryRung, type RungRecord } from './recovery.js';
export { escapeFluid, EscapeFluidArgsSchema, type EscapeFluidArgs } from './capabilities/escape_fluid.js';
export { flee, FleeArgsSchema, type FleeArgs } from './capabilities/flee.js';
export { gather, GatherArgsSchema, GATHER_TREE, type GatherArgs } from './capabilities/gather.js';
export { navigate, NavigateArgsSchema, type NavigateArgs } from './capabilities/navigate.js';
export { pillarUp, PillarUpArgsSchema, type PillarUpArgs } from './capabilities/pillar_up.js';
export { placeBlock, PlaceBlockArgsSchema, type PlaceBlockArgs } from './capabilities/place_block.js';
export { hunt, HuntArgsSchema, type HuntArgs } from './capabilities/hunt.js';
export { shear, ShearArgsSchema, type ShearArgs } from './capabilities/shear.js';
export { explore, ExploreArgsSchema, ExploreTargetSchema, type ExploreArgs } from './capabilities/explore.js';
export { fillBucket, FillBucketArgsSchema, type FillBucketArgs } from './capabilities/fill_bucket.js';
export { mine, MineArgsSchema, mineBudgetMs, mineExpectedMs, mineMoveLimit, MineTargetSchema, type MineArgs } from './capabilities/mine.js';
