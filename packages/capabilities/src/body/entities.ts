import type { SinewBot } from '../bot.js';
import type { Entity } from '../mc-types.js';

/** The nearest entity of a type, mob name or username within `maxDistance` (never the bot itself). */
export function nearestEntityNamed(bot: SinewBot, name: string, maxDistance: number): Entity | undefined {
  const lower = name.toLowerCase();
  const me = bot.entity.position;
  let best: Entity | undefined;
  let bestDistance = maxDistance;
  for (const entity of Object.values(bot.entities)) {
    if (entity === bot.entity || entity.isValid === false) continue;
    const names = [entity.name, entity.username, entity.displayName, entity.type].map((v) => v?.toLowerCase());
    if (!names.includes(lower)) continue;
    const distance = entity.position.distanceTo(me);
    if (distance <= bestDistance) {
      best = entity;
      bestDistance = distance;
    }
  }
  return best;
}

/** The nearest hostile mob within `maxDistance`. */
export function nearestHostile(bot: SinewBot, maxDistance: number): Entity | undefined {
  const me = bot.entity.position;
  let best: Entity | undefined;
  for (const entity of Object.values(bot.entities)) {
    if (entity === bot.entity || entity.isValid === false || entity.type !== 'hostile') continue;
    const distance = entity.position.distanceTo(me);
    if (distance <= maxDistance && (!best || distance < best.position.distanceTo(me))) best = entity;
  }
  return best;
}
