import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { blockKey, Vec3Schema, WorldSnapshotSchema, type Vec3 as Position } from '@sinew/executor-contracts';
import { z } from 'zod';

/** Where an item is equipped: a hand or an armor slot. */
export const EquipmentSlotSchema = z.enum(['hand', 'off-hand', 'head', 'torso', 'legs', 'feet']);
export type EquipmentSlot = z.infer<typeof EquipmentSlotSchema>;

/** An entity the snapshot was asked to watch (keyed by entity id). */
export const EntitySnapshotSchema = z.object({
  name: z.string(),
  position: Vec3Schema,
  /** From the entity's metadata when the server sends it. */
  health: z.number().optional(),
  /** How many times the bot has seen it hurt (hurt animations and damage events). */
  hurts: z.number().int().nonnegative().optional(),
  /** The bot saw it die (its position is where it died); absent entities were merely not observed. */
  dead: z.literal(true).optional(),
});

/**
 * What acceptance reads: the contracts' `WorldSnapshotSchema` plus what only a mineflayer body observes.
 * `equipment`, `entities` and `chat` are filled only when the focus asks for them; unknown keys are refused.
 */
export const ObservedWorldSchema = WorldSnapshotSchema.extend({
  equipment: z.partialRecord(EquipmentSlotSchema, z.string().nullable()).optional(),
  entities: z.record(z.string(), EntitySnapshotSchema).optional(),
  /** Recent chat lines with their sequence numbers (a ring: compare by `seq`, never by position). */
  chat: z.array(z.object({ seq: z.number().int().positive(), line: z.string() }).strict()).optional(),
}).strict();
export type ObservedWorld = z.infer<typeof ObservedWorldSchema>;

/** What a snapshot should look at beyond the body itself. */
export interface WorldFocus {
  /** Blocks to record in `blocks`. */
  readonly positions?: readonly Position[];
  /** Entity ids to record in `entities` (seen dying → `dead: true`; gone or out of sight → absent). */
  readonly entityIds?: readonly number[];
  readonly equipment?: boolean;
  readonly chat?: boolean;
}

// LivingEntity health sits at metadata index 9 on 1.17+.
const HEALTH_METADATA_INDEX = 9;

/** Item name → total count of the bot's inventory. */
export function inventoryCounts(bot: Bot): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of bot.inventory.items()) counts[item.name] = (counts[item.name] ?? 0) + item.count;
  return counts;
}

/**
 * The pre/post snapshot acceptance reads: position, health, food, held item, inventory counts, and the
 * blocks, entities, equipment and chat named by `focus`. Synchronous and cheap.
 */
export function observeWorld(bot: Bot, focus: WorldFocus = {}): ObservedWorld {
  const { x, y, z } = bot.entity.position;
  const blocks: Record<string, string> = {};
  for (const position of focus.positions ?? []) {
    const block = bot.blockAt(new Vec3(Math.floor(position.x), Math.floor(position.y), Math.floor(position.z)));
    blocks[blockKey(position)] = block ? block.name : 'unloaded';
  }
  const snapshot: ObservedWorld = {
    position: { x, y, z },
    health: bot.health,
    food: bot.food,
    heldItem: bot.heldItem ? bot.heldItem.name : null,
    inventory: inventoryCounts(bot),
    blocks,
    time: bot.time?.timeOfDay,
  };
  if (focus.equipment) {
    const equipment: Partial<Record<EquipmentSlot, string | null>> = {};
    for (const slot of EquipmentSlotSchema.options) {
      const item = slot === 'hand' ? bot.heldItem : bot.inventory.slots[bot.getEquipmentDestSlot(slot)];
      equipment[slot] = item ? item.name : null;
    }
    snapshot.equipment = equipment;
  }
  if (focus.entityIds) {
    const entities: NonNullable<ObservedWorld['entities']> = {};
    // Optional: observeWorld also reads a bot that never loaded the sinew plugin.
    const { hurtCounts, deadEntities: dead } = bot.sinew ?? {};
    for (const id of focus.entityIds) {
      const died = dead?.get(id);
      if (died) {
        entities[String(id)] = { name: died.name, position: { ...died.position }, dead: true };
        continue;
      }
      const entity = bot.entities[id];
      // Gone without being seen dying (despawned, walked out of view): absent, so acceptance cannot call it killed.
      if (!entity || entity.isValid === false) continue;
      const health = entity.metadata?.[HEALTH_METADATA_INDEX];
      entities[String(id)] = {
        name: entity.name ?? entity.username ?? entity.type,
        position: { x: entity.position.x, y: entity.position.y, z: entity.position.z },
        ...(typeof health === 'number' ? { health } : {}),
        ...(hurtCounts ? { hurts: hurtCounts.get(id) ?? 0 } : {}),
      };
    }
    snapshot.entities = entities;
  }
  if (focus.chat) snapshot.chat = (bot.sinew?.chatLog ?? []).map(({ seq, line }) => ({ seq, line }));
  return snapshot;
}
