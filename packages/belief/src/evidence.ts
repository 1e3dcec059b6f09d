import { z } from 'zod';

/**
 * Where evidence can be: inside the vanilla world border (±30,000,000 blocks) and a build height with room to
 * spare (±4,096). A finite coordinate beyond that (`Number.MAX_VALUE`) is a sensor fault: its integer units
 * would overflow to Infinity, make a new track every tick and serialize as `null`.
 */
export const WORLD_BOUNDS = { horizontal: 30_000_000, vertical: 4_096 } as const;
const axis = (limit: number) => z.number().finite().min(-limit).max(limit);
export const WorldPositionSchema = z.strictObject({ x: axis(WORLD_BOUNDS.horizontal), y: axis(WORLD_BOUNDS.vertical), z: axis(WORLD_BOUNDS.horizontal) });

/** One detection. `hint` is the engine's entity id: a tie-breaker for association, never the key. */
export const EvidenceItemSchema = z
  .object({
    cls: z.string().min(1).max(64),
    hostile: z.boolean(),
    position: WorldPositionSchema,
    hint: z.string().min(1).max(64).optional(),
  })
  .strict();
export type EvidenceItem = z.infer<typeof EvidenceItemSchema>;

/** Everything sensed in one tick, relative to an observer (the bot). */
export const EvidenceBatchSchema = z
  .object({
    observer: WorldPositionSchema,
    items: z.array(EvidenceItemSchema).max(100_000),
  })
  .strict();
export type EvidenceBatch = z.infer<typeof EvidenceBatchSchema>;

/** An evidence item on integer units, with its index in the batch as given. */
export interface CanonicalEvidence {
  readonly cls: string;
  readonly hostile: boolean;
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly hint: string | undefined;
  readonly input: number;
}

/** Rounds a block coordinate to integer units; the only place a float becomes canonical. */
export function toUnits(value: number, unitsPerBlock: number): number {
  return Math.round(value * unitsPerBlock);
}

function compareStrings(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  return a < b ? -1 : 1;
}

/** Stable canonical order: class, then integer position, then hostility, then hint. Never the raw order. */
export function compareEvidence(a: CanonicalEvidence, b: CanonicalEvidence): number {
  return (
    compareStrings(a.cls, b.cls) ||
    a.x - b.x ||
    a.y - b.y ||
    a.z - b.z ||
    Number(a.hostile) - Number(b.hostile) ||
    compareStrings(a.hint, b.hint)
  );
}

/** The canonical order made total by the input index: what a stable sort of the batch as given yields. */
function compareCanonical(a: CanonicalEvidence, b: CanonicalEvidence): number {
  return compareEvidence(a, b) || a.input - b.input;
}

/** Quantizes a batch to integer units, in the order given (`input` is the index). */
function quantizeEvidence(batch: EvidenceBatch, unitsPerBlock: number): CanonicalEvidence[] {
  const items = batch.items;
  const out = new Array<CanonicalEvidence>(items.length);
  for (let input = 0; input < items.length; input += 1) {
    const item = items[input]!;
    out[input] = {
      cls: item.cls,
      hostile: item.hostile,
      x: toUnits(item.position.x, unitsPerBlock),
      y: toUnits(item.position.y, unitsPerBlock),
      z: toUnits(item.position.z, unitsPerBlock),
      hint: item.hint,
      input,
    };
  }
  return out;
}

/** Quantizes a batch to integer units and sorts it canonically (`ingest` uses the same sort, through createCanonicalSorter). */
export function canonicalizeEvidence(batch: EvidenceBatch, unitsPerBlock: number): CanonicalEvidence[] {
  return createCanonicalSorter(unitsPerBlock)(batch);
}

/**
 * canonicalizeEvidence for a stream of batches: each sort starts from the previous batch's order (a bot's entity
 * table keeps its order, so the sort usually only confirms it); the comparator is total, so the result is the same.
 */
export function createCanonicalSorter(unitsPerBlock: number): (batch: EvidenceBatch) => CanonicalEvidence[] {
  let previous: number[] = []; // input indices in the previous batch's canonical order
  return (batch) => {
    const items = quantizeEvidence(batch, unitsPerBlock);
    const sorted = previous.length === items.length ? previous.map((i) => items[i]!) : items;
    sorted.sort(compareCanonical);
    previous = sorted.map((e) => e.input);
    return sorted;
  };
}
