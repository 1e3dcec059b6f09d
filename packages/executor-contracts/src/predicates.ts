// The predicate vocabulary: the typed values capabilities report (`missing`, `unmet`) and plans
// declare (`preconds`, `effects`). The wire form stays a string (`has_item:stick:2`) so failures
// serialise as before; this module is its one parser and one formatter.
import { z } from 'zod';

const NAME = /^[a-z0-9_]+$/;
const SLOT = /^[a-z0-9_-]+$/;
const MAX_PREDICATE_LENGTH = 512;

/** Item classes that stand for a set of items, never for one item (`has_item:food`). */
export const ItemClassSchema = z.enum(['food', 'any']);
export type ItemClass = z.infer<typeof ItemClassSchema>;

/** An item, block or entity name (`oak_log`; a block pattern such as `log` for gather). Class words are not names. */
export const ItemNameSchema = z
  .string()
  .regex(NAME, 'expected a lowercase name like `oak_log`')
  .refine((name) => !ItemClassSchema.safeParse(name).success, 'item classes (food, any) are not item names');

/** What `has_item` counts: one item by name, or every item of a class. */
export const ItemRefSchema = z.union([ItemNameSchema, z.object({ class: ItemClassSchema }).strict()]);
export type ItemRef = z.infer<typeof ItemRefSchema>;

/** A block position: integer coordinates, written `x,y,z` on the wire. */
export const BlockPosSchema = z.object({ x: z.number().int(), y: z.number().int(), z: z.number().int() }).strict();
export type BlockPos = z.infer<typeof BlockPosSchema>;

/** A target that was not observed, written `<name>` on the wire (`air:<target>`). */
export const PlaceholderSchema = z.object({ placeholder: z.string().regex(NAME) }).strict();
export type Placeholder = z.infer<typeof PlaceholderSchema>;

const TargetSchema = z.union([BlockPosSchema, PlaceholderSchema]);
const count = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/** One predicate, by kind. `custom` is the explicit escape hatch for user vocabularies. */
export const PredicateSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('has_item'), item: ItemRefSchema, count, mode: z.enum(['at_least', 'gain']) }).strict(),
  z.object({ kind: z.literal('near_block'), block: ItemNameSchema }).strict(),
  z.object({ kind: z.literal('within_reach'), position: TargetSchema }).strict(),
  z.object({ kind: z.literal('at'), position: TargetSchema }).strict(),
  z.object({ kind: z.literal('air_at'), position: TargetSchema }).strict(),
  z.object({ kind: z.literal('block_at'), position: TargetSchema, block: ItemNameSchema }).strict(),
  z.object({ kind: z.literal('equipped'), destination: z.string().regex(SLOT), item: ItemNameSchema }).strict(),
  z.object({ kind: z.literal('hurt'), entity: z.union([z.object({ name: ItemNameSchema, id: z.string().regex(/^\d+$/) }).strict(), PlaceholderSchema]) }).strict(),
  z.object({ kind: z.literal('rose'), blocks: count }).strict(),
  z.object({ kind: z.literal('distance_from_threat'), atLeast: z.number().finite().nonnegative().optional() }).strict(),
  z.object({ kind: z.literal('food_rose') }).strict(),
  z.object({ kind: z.literal('chat_echoed') }).strict(),
  z.object({ kind: z.literal('structure'), state: z.enum(['built', 'observed']) }).strict(),
  z.object({ kind: z.literal('custom'), text: z.string().min(1).max(MAX_PREDICATE_LENGTH).regex(/^[^\n\r]*$/) }).strict(),
]);
export type Predicate = z.infer<typeof PredicateSchema>;
/** The predicate kinds (`'has_item'`, `'near_block'`, …). */
export type PredicateKind = Predicate['kind'];

/** What `parsePredicate` returns: the predicate, or why the text is not one. */
export type PredicateParse = { readonly ok: true; readonly predicate: Predicate } | { readonly ok: false; readonly reason: string };

/** `"x,y,z"` of a position, floored to the block it is in. */
export function blockKey(position: { readonly x: number; readonly y: number; readonly z: number }): string {
  return `${Math.floor(position.x)},${Math.floor(position.y)},${Math.floor(position.z)}`;
}

/** The block position of a `blockKey` string, or undefined when it is not `x,y,z` with integers. */
export function parseBlockKey(key: string): BlockPos | undefined {
  const match = /^(-?\d+),(-?\d+),(-?\d+)$/.exec(key);
  if (!match) return undefined;
  const [x, y, z] = match.slice(1).map(Number) as [number, number, number];
  return [x, y, z].every(Number.isSafeInteger) ? { x, y, z } : undefined;
}

function formatTarget(target: BlockPos | Placeholder): string {
  return 'placeholder' in target ? `<${target.placeholder}>` : blockKey(target);
}

function parseTarget(text: string): BlockPos | Placeholder | undefined {
  const placeholder = /^<([a-z0-9_]+)>$/.exec(text);
  return placeholder ? { placeholder: placeholder[1] as string } : parseBlockKey(text);
}

function formatItem(item: ItemRef): string {
  return typeof item === 'string' ? item : item.class;
}

/** The wire string of a predicate; `parsePredicate(formatPredicate(p))` gives `p` back. */
export function formatPredicate(predicate: Predicate): string {
  switch (predicate.kind) {
    case 'has_item':
      return `has_item:${formatItem(predicate.item)}:${predicate.mode === 'gain' ? '+' : ''}${predicate.count}`;
    case 'near_block':
      return `near_block:${predicate.block}`;
    case 'within_reach':
    case 'at':
      return `${predicate.kind}:${formatTarget(predicate.position)}`;
    case 'air_at':
      return `air:${formatTarget(predicate.position)}`;
    case 'block_at':
      return `block:${formatTarget(predicate.position)}=${predicate.block}`;
    case 'equipped':
      return `equipped:${predicate.destination}=${predicate.item}`;
    case 'hurt':
      return `hurt:${'placeholder' in predicate.entity ? `<${predicate.entity.placeholder}>` : `${predicate.entity.name}#${predicate.entity.id}`}`;
    case 'rose':
      return `y:+${predicate.blocks}`;
    case 'distance_from_threat':
      return predicate.atLeast === undefined ? 'distance_from_threat' : `distance_from_threat:>=${predicate.atLeast}`;
    case 'food_rose':
      return 'food:rose';
    case 'chat_echoed':
      return 'chat:echoed';
    case 'structure':
      return `structure:${predicate.state}`;
    case 'custom':
      return `custom:${predicate.text}`;
  }
}

type Reader = (rest: string | undefined) => unknown;

function readHasItem(rest: string | undefined): unknown {
  const match = /^([a-z0-9_]+)(?::(\+|>=)?(\d+))?$/.exec(rest ?? '');
  if (!match) return undefined;
  const [, name, sign, digits] = match as unknown as [string, string, string | undefined, string | undefined];
  const item = ItemClassSchema.safeParse(name).success ? { class: name } : name;
  return { kind: 'has_item', item, count: digits === undefined ? 1 : Number(digits), mode: sign === '+' ? 'gain' : 'at_least' };
}

function readAssignment(rest: string | undefined): [string, string] | undefined {
  const at = rest?.lastIndexOf('=') ?? -1;
  return rest !== undefined && at > 0 ? [rest.slice(0, at), rest.slice(at + 1)] : undefined;
}

function readHurt(rest: string | undefined): unknown {
  const placeholder = parseTarget(rest ?? '');
  if (placeholder && 'placeholder' in placeholder) return { kind: 'hurt', entity: placeholder };
  const match = /^([a-z0-9_]+)#(\d+)$/.exec(rest ?? '');
  return match ? { kind: 'hurt', entity: { name: match[1], id: match[2] } } : undefined;
}

function readThreat(rest: string | undefined): unknown {
  if (rest === undefined) return { kind: 'distance_from_threat' };
  const match = /^>=([0-9][0-9.e+-]*)$/.exec(rest);
  return match ? { kind: 'distance_from_threat', atLeast: Number(match[1]) } : undefined;
}

const fixed = (text: string, value: object): Reader => (rest) => (rest === text ? value : undefined);
const target = (kind: PredicateKind): Reader => (rest) => ({ kind, position: parseTarget(rest ?? '') });

/** Per wire prefix: how to read the rest, and what a reader should have written. */
const READERS: Record<string, { readonly read: Reader; readonly expected: string }> = {
  has_item: { read: readHasItem, expected: 'has_item:<item | food | any>[:<n> | :+<n> | :>=<n>] with n an integer ≥ 1' },
  near_block: { read: (rest) => ({ kind: 'near_block', block: rest }), expected: 'near_block:<block>' },
  within_reach: { read: target('within_reach'), expected: 'within_reach:<x>,<y>,<z> (integers) or within_reach:<placeholder>' },
  at: { read: target('at'), expected: 'at:<x>,<y>,<z> (integers) or at:<placeholder>' },
  air: { read: target('air_at'), expected: 'air:<x>,<y>,<z> (integers) or air:<placeholder>' },
  block: {
    read: (rest) => {
      const parts = readAssignment(rest);
      return parts && { kind: 'block_at', position: parseTarget(parts[0]), block: parts[1] };
    },
    expected: 'block:<x>,<y>,<z>=<block>',
  },
  equipped: {
    read: (rest) => {
      const parts = readAssignment(rest);
      return parts && { kind: 'equipped', destination: parts[0], item: parts[1] };
    },
    expected: 'equipped:<destination>=<item>',
  },
  hurt: { read: readHurt, expected: 'hurt:<entity>#<id> or hurt:<placeholder>' },
  y: { read: (rest) => (/^\+\d+$/.test(rest ?? '') ? { kind: 'rose', blocks: Number(rest) } : undefined), expected: 'y:+<n> with n ≥ 1' },
  distance_from_threat: { read: readThreat, expected: 'distance_from_threat[:>=<distance>]' },
  food: { read: fixed('rose', { kind: 'food_rose' }), expected: 'food:rose' },
  chat: { read: fixed('echoed', { kind: 'chat_echoed' }), expected: 'chat:echoed' },
  structure: { read: (rest) => ({ kind: 'structure', state: rest }), expected: 'structure:built or structure:observed' },
  custom: { read: (rest) => ({ kind: 'custom', text: rest }), expected: 'custom:<text> (one line, ≤ 512 characters)' },
};

/** Every wire prefix `parsePredicate` knows, for error messages and docs. */
export const PREDICATE_PREFIXES: readonly string[] = Object.keys(READERS);

/**
 * Parses a predicate's wire string. Never throws: anything that is not a known predicate is a
 * `{ ok: false, reason }` naming what was expected.
 *
 * @example
 * parsePredicate('has_item:oak_log:+3') // → { ok: true, predicate: { kind: 'has_item', item: 'oak_log', count: 3, mode: 'gain' } }
 */
export function parsePredicate(text: unknown): PredicateParse {
  if (typeof text !== 'string') return { ok: false, reason: `expected a predicate string, received ${text === null ? 'null' : typeof text}` };
  const shown = JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
  if (text.length > MAX_PREDICATE_LENGTH) return { ok: false, reason: `${shown}: longer than ${MAX_PREDICATE_LENGTH} characters` };
  const colon = text.indexOf(':');
  const prefix = colon < 0 ? text : text.slice(0, colon);
  const reader = Object.hasOwn(READERS, prefix) ? READERS[prefix] : undefined;
  if (!reader) return { ok: false, reason: `${shown}: unknown predicate kind "${prefix.slice(0, 40)}" (known: ${PREDICATE_PREFIXES.join(', ')})` };
  const parsed = PredicateSchema.safeParse(reader.read(colon < 0 ? undefined : text.slice(colon + 1)));
  return parsed.success ? { ok: true, predicate: parsed.data } : { ok: false, reason: `${shown}: expected ${reader.expected}` };
}

/** Zod schema for a predicate's wire string: a string that `parsePredicate` accepts. */
export const PredicateStringSchema = z.string().superRefine((text, ctx) => {
  const parsed = parsePredicate(text);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.reason });
});

/**
 * Builders of typed predicates; format them with `formatPredicate`, or pass them straight to
 * `precondMissing` / `effectsUnmet`. Positions are floored to their block.
 *
 * @example
 * precondMissing([pred.hasItem('stick', 2), pred.nearBlock('crafting_table')])
 */
export const pred = {
  /** At least `count` of an item (or of an item class: `{ class: 'food' }`). */
  hasItem: (item: ItemRef, count = 1): Predicate => ({ kind: 'has_item', item, count, mode: 'at_least' }),
  /** `count` more of an item than before the step. */
  gained: (item: ItemRef, count = 1): Predicate => ({ kind: 'has_item', item, count, mode: 'gain' }),
  /** A block of this name within reach of the bot. */
  nearBlock: (block: string): Predicate => ({ kind: 'near_block', block }),
  /** The bot can reach this position. */
  withinReach: (position: Position): Predicate => ({ kind: 'within_reach', position: toTarget(position) }),
  /** The bot stands at this position. */
  at: (position: Position): Predicate => ({ kind: 'at', position: toTarget(position) }),
  /** Air (nothing solid) at this position. */
  airAt: (position: Position): Predicate => ({ kind: 'air_at', position: toTarget(position) }),
  /** A block of this name at this position. */
  blockAt: (position: Position, block: string): Predicate => ({ kind: 'block_at', position: toTarget(position), block }),
  /** This item held in, or worn at, `destination` (`hand`, `head`, …). */
  equipped: (destination: string, item: string): Predicate => ({ kind: 'equipped', destination, item }),
  /** This entity took damage. */
  hurt: (entity: { readonly name: string; readonly id: string | number } | Placeholder): Predicate =>
    ({ kind: 'hurt', entity: 'placeholder' in entity ? entity : { name: entity.name, id: String(entity.id) } }),
  /** The bot stands at least `blocks` higher than before the step. */
  rose: (blocks: number): Predicate => ({ kind: 'rose', blocks }),
  /** The nearest threat is at least `atLeast` blocks away (the capability default when omitted). */
  distanceFromThreat: (atLeast?: number): Predicate => (atLeast === undefined ? { kind: 'distance_from_threat' } : { kind: 'distance_from_threat', atLeast }),
  /** The food bar is higher than before the step. */
  foodRose: (): Predicate => ({ kind: 'food_rose' }),
  /** The server echoed the chat message. */
  chatEchoed: (): Predicate => ({ kind: 'chat_echoed' }),
  /** A structure is built (or observed as already built). */
  structure: (state: 'built' | 'observed'): Predicate => ({ kind: 'structure', state }),
  /** Free text for what no other kind says; planners cannot subgoal on it. */
  custom: (text: string): Predicate => ({ kind: 'custom', text }),
  /** An unobserved target (`<target>` on the wire). */
  placeholder: (name: string): Placeholder => ({ placeholder: name }),
} as const;

type Position = { readonly x: number; readonly y: number; readonly z: number } | Placeholder;

function toTarget(position: Position): BlockPos | Placeholder {
  // `+ 0` turns -0 into 0, so a built position equals its parsed wire form.
  return 'placeholder' in position ? position : { x: Math.floor(position.x) + 0, y: Math.floor(position.y) + 0, z: Math.floor(position.z) + 0 };
}
