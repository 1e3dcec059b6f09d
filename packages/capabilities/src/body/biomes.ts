import type { Bot } from 'mineflayer';
import type { Vec3 } from 'vec3';

const namesByRegistry = new WeakMap<object, Map<number, string>>();

/**
 * Biome names by id as the server's registry sent them. On 1.20.2+ prismarine-registry keeps the received
 * biomes without their names (`block.biome.name` is '') and keys `biomesByName` as `minecraft:<name>`.
 */
export function biomeNames(bot: Bot): Map<number, string> {
  const registry = bot.registry as unknown as { biomes: Record<number, unknown>; biomesByName: Record<string, unknown> };
  let names = namesByRegistry.get(registry);
  if (!names) {
    const byElement = new Map(Object.entries(registry.biomesByName).map(([name, element]) => [element, name.replace(/^minecraft:/, '')]));
    names = new Map();
    for (const [id, element] of Object.entries(registry.biomes)) {
      const name = byElement.get(element) ?? (element as { name?: string }).name;
      if (name) names.set(Number(id), name);
    }
    namesByRegistry.set(registry, names);
  }
  return names;
}

/** The biome name at a position ('' where nothing is loaded). */
export function biomeAt(bot: Bot, position: Vec3): string {
  const biome = bot.blockAt(position)?.biome;
  if (!biome) return '';
  return biome.name || (biomeNames(bot).get(biome.id) ?? '');
}
