import type { Bot } from 'mineflayer';

// The prismarine types as mineflayer exposes them, so this package depends on mineflayer alone.

/** A block of the bot's world (prismarine-block). */
export type Block = NonNullable<ReturnType<Bot['blockAt']>>;
/** An entity the bot sees (prismarine-entity). */
export type Entity = Bot['entity'];
/** An inventory item (prismarine-item). */
export type Item = NonNullable<Bot['heldItem']>;
/** A crafting recipe (prismarine-recipe). */
export type Recipe = ReturnType<Bot['recipesFor']>[number];
