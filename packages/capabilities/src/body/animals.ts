import type { SinewBot } from '../bot.js';
import type { Entity } from '../mc-types.js';
import { alive } from './combat.js';

/** The passive animals `hunt` takes food from. */
export const HUNTED_ANIMALS = ['cow', 'pig', 'sheep', 'chicken'] as const;
/** An animal `hunt` takes food from. */
export type HuntedAnimal = (typeof HUNTED_ANIMALS)[number];

/** The raw meat each animal drops (vanilla: cow 1–3 beef, pig 1–3 porkchop, sheep 1–2 mutton, chicken 1 chicken). */
export const MEAT_OF: Readonly<Record<HuntedAnimal, string>> = { cow: 'beef', pig: 'porkchop', sheep: 'mutton', chicken: 'chicken' };
/** Everything else it drops, worth picking up. */
const OTHER_DROPS: Readonly<Record<HuntedAnimal, readonly string[]>> = { cow: ['leather'], pig: [], sheep: [], chicken: ['feather'] };

/** Whether an item name is one of the drops of `animal` (a sheep's wool of any colour included). */
export function dropOf(animal: HuntedAnimal): (item: string) => boolean {
  return (item) => item === MEAT_OF[animal] || OTHER_DROPS[animal].includes(item) || (animal === 'sheep' && isWool(item));
}

/** Wool of any colour (`white_wool` … `black_wool`). */
export function isWool(item: string): boolean {
  return item.endsWith('_wool');
}

/** A sheep's wool byte (colour in the low 4 bits, 0x10 once sheared) sits at metadata index 17 on 1.20.x. */
const SHEEP_WOOL_INDEX = 17;

/** Whether the server marked this sheep sheared. */
export function isSheared(entity: Entity): boolean {
  const wool = entity.metadata?.[SHEEP_WOOL_INDEX];
  return typeof wool === 'number' && (wool & 0x10) !== 0;
}

/** The nearest living entity named `kind` within `maxDistance` that `accept` allows. */
export function nearestAnimal(bot: SinewBot, kind: string, maxDistance: number, accept: (entity: Entity) => boolean = () => true): Entity | undefined {
  const me = bot.entity.position;
  let best: Entity | undefined;
  for (const entity of Object.values(bot.entities)) {
    if (entity.name !== kind || !alive(bot, entity) || !accept(entity)) continue;
    const distance = entity.position.distanceTo(me);
    if (distance <= maxDistance && (!best || distance < best.position.distanceTo(me))) best = entity;
  }
  return best;
}
