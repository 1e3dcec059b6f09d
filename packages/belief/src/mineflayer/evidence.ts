import type { EvidenceBatch, EvidenceItem } from '../evidence.js';

/** The part of a mineflayer entity the evidence builder reads (prismarine-entity fits). */
export interface EntityLike {
  readonly id: number;
  readonly type?: string;
  readonly name?: string;
  readonly kind?: string;
  readonly position: { readonly x: number; readonly y: number; readonly z: number };
}

/** The part of a mineflayer bot the adapter reads. */
export interface BotLike {
  readonly entity?: EntityLike | null;
  readonly entities: Readonly<Record<string, EntityLike>>;
  /** With Sinew's plugin loaded (`bot.loadPlugin(sinew)`): entities seen dying, which are not evidence any more. */
  readonly sinew?: { readonly deadEntities: ReadonlyMap<number, unknown> };
}

/** Options of reading evidence from the bot (ranges, classes). */
export interface EvidenceOptions {
  /** Entities farther than this from the bot are not evidence (default 32 blocks). */
  readonly maxDistanceBlocks?: number;
  /** Mob names treated as hostile besides mineflayer's `type: 'hostile'` / `kind: 'Hostile mobs'`. */
  readonly hostileNames?: readonly string[];
  /** Entity types that are never evidence (default: object, orb, global, other). */
  readonly ignoreTypes?: readonly string[];
}

const DEFAULT_IGNORED: ReadonlySet<string> = new Set(['object', 'orb', 'global', 'other']);
const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * The only reader of `bot.entities`: builds the option sets once and returns a function that turns the
 * entities into an EvidenceBatch of plain values (never the raw entity objects). Items come in the entity
 * table's key order; `ingest` puts them in canonical order, the one sort path.
 */
export function evidenceReader(options: EvidenceOptions = {}): (bot: BotLike) => EvidenceBatch | undefined {
  const max = options.maxDistanceBlocks ?? 32;
  const max2 = max * max;
  const hostileNames = options.hostileNames ? new Set(options.hostileNames) : NO_NAMES;
  const ignored = options.ignoreTypes ? new Set(options.ignoreTypes) : DEFAULT_IGNORED;
  return (bot) => {
    const self = bot.entity;
    if (!self) return undefined;
    const observer = { x: self.position.x, y: self.position.y, z: self.position.z };
    const items: EvidenceItem[] = [];
    // a mob lies in the entity table for a moment after it dies: a corpse is no threat
    const dead = bot.sinew?.deadEntities;
    for (const key of Object.keys(bot.entities)) {
      const e = bot.entities[key];
      if (!e || e === self || e.id === self.id || (e.type !== undefined && ignored.has(e.type)) || dead?.has(e.id)) continue;
      const { x, y, z } = e.position;
      if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) continue;
      const dx = x - observer.x, dy = y - observer.y, dz = z - observer.z;
      if (dx * dx + dy * dy + dz * dz > max2) continue;
      const cls = e.name ?? e.type ?? 'unknown';
      items.push({
        cls,
        hostile: e.type === 'hostile' || e.kind === 'Hostile mobs' || hostileNames.has(cls),
        position: { x, y, z },
        hint: String(e.id),
      });
    }
    return { observer, items };
  };
}

/** One-off form of `evidenceReader(options)(bot)`; the adapter keeps one reader per bot instead. */
export function evidenceFromBot(bot: BotLike, options: EvidenceOptions = {}): EvidenceBatch | undefined {
  return evidenceReader(options)(bot);
}
