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

/**
 * A value not known here, written `<name>` on the wire: a target that was not observed (`air:<target>`),
 * or an argument in a capability's declared preconds/effects as the manifest shows them (`has_item:<item>:<count>`).
 * A target or `hurt`'s entity may be one in any predicate; every other value slot only in a `PredicateTemplate`.
 * An evaluator never finds a predicate with one to hold.
 */
export const PlaceholderSchema = z.object({ placeholder: z.string().regex(NAME) }).strict();
export type Placeholder = z.infer<typeof PlaceholderSchema>;

/** A slot that holds a value of `schema` or a placeholder. */
const slot = <T extends z.ZodType>(schema: T) => z.union([schema, PlaceholderSchema]);
const TargetSchema = slot(BlockPosSchema);
const CountSchema = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
/** A block y (feet level): any safe integer, negative below sea level's zero (-64 is the 1.18+ bedrock floor). */
const LevelSchema = z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);

/** What `out_of` gets the body out of. */
const FluidSchema = z.enum(['lava', 'fire', 'water']);
export type Fluid = z.infer<typeof FluidSchema>;

/** The value slots a template may fill with a placeholder (targets and `hurt` take one in both dialects). */
const CLOSED_SLOTS = {
  item: ItemRefSchema,
  name: ItemNameSchema,
  count: CountSchema,
  destination: z.string().regex(SLOT),
  distance: z.number().finite().nonnegative(),
  fluid: FluidSchema,
  level: LevelSchema,
};

/** The predicate kinds over one choice of slot schemas. */
function predicateKinds<I extends z.ZodType, N extends z.ZodType, C extends z.ZodType, D extends z.ZodType, T extends z.ZodType, F extends z.ZodType, L extends z.ZodType>(slots: {
  readonly item: I;
  readonly name: N;
  readonly count: C;
  readonly destination: D;
  readonly distance: T;
  readonly fluid: F;
  readonly level: L;
}) {
  return z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('has_item'), item: slots.item, count: slots.count, mode: z.enum(['at_least', 'gain']) }).strict(),
    z.object({ kind: z.literal('near_block'), block: slots.name }).strict(),
    z.object({ kind: z.literal('within_reach'), position: TargetSchema }).strict(),
    z.object({ kind: z.literal('at'), position: TargetSchema }).strict(),
    z.object({ kind: z.literal('air_at'), position: TargetSchema }).strict(),
    z.object({ kind: z.literal('block_at'), position: TargetSchema, block: slots.name }).strict(),
    z.object({ kind: z.literal('equipped'), destination: slots.destination, item: slots.name }).strict(),
    z.object({ kind: z.literal('hurt'), entity: z.union([z.object({ name: ItemNameSchema, id: z.string().regex(/^\d+$/) }).strict(), PlaceholderSchema]) }).strict(),
    z.object({ kind: z.literal('rose'), blocks: slots.count }).strict(),
    z.object({ kind: z.literal('distance_from_threat'), atLeast: slots.distance.optional() }).strict(),
    z.object({ kind: z.literal('food_rose') }).strict(),
    z.object({ kind: z.literal('chat_echoed') }).strict(),
    z.object({ kind: z.literal('structure'), state: z.enum(['built', 'observed']) }).strict(),
    z.object({ kind: z.literal('out_of'), fluid: slots.fluid }).strict(),
    z.object({ kind: z.literal('seen_mob'), mob: slots.name }).strict(),
    z.object({ kind: z.literal('in_biome'), biome: slots.name }).strict(),
    z.object({ kind: z.literal('below_y'), y: slots.level }).strict(),
    z.object({ kind: z.literal('custom'), text: z.string().min(1).max(MAX_PREDICATE_LENGTH).regex(/^[^\n\r]*$/) }).strict(),
  ]);
}

/** One predicate, by kind: what steps carry and evaluators check. `custom` is the explicit escape hatch for user vocabularies. */
export const PredicateSchema = predicateKinds(CLOSED_SLOTS);
export type Predicate = z.infer<typeof PredicateSchema>;
/** The predicate kinds (`'has_item'`, `'near_block'`, …). */
export type PredicateKind = Predicate['kind'];

/**
 * A predicate whose value slots may be placeholders: what a capability declares over its arguments, and what
 * the manifest and tool definitions show (`has_item:<item>:<count>`). Never carried by a step.
 */
export const PredicateTemplateSchema = predicateKinds({
  item: slot(CLOSED_SLOTS.item),
  name: slot(CLOSED_SLOTS.name),
  count: slot(CLOSED_SLOTS.count),
  destination: slot(CLOSED_SLOTS.destination),
  distance: slot(CLOSED_SLOTS.distance),
  fluid: slot(CLOSED_SLOTS.fluid),
  level: slot(CLOSED_SLOTS.level),
});
export type PredicateTemplate = z.infer<typeof PredicateTemplateSchema>;

/** What `parsePredicate` returns: the predicate (a template with `templates: true`), or why the text is not one. */
export type PredicateParse<P = Predicate> = { readonly ok: true; readonly predicate: P } | { readonly ok: false; readonly reason: string };

/** `parsePredicate` options: `templates: true` also accepts placeholders in value slots (a declaration's wire form). */
export interface ParsePredicateOptions {
  readonly templates?: boolean;
}

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
  return readPlaceholder(text) ?? parseBlockKey(text);
}

/** `<name>` as a placeholder, else undefined. */
function readPlaceholder(text: string | undefined): Placeholder | undefined {
  const placeholder = /^<([a-z0-9_]+)>$/.exec(text ?? '');
  return placeholder ? { placeholder: placeholder[1] as string } : undefined;
}

/** A slot's wire text: the placeholder (`<name>`) or the value. */
function formatSlot(value: string | number | Placeholder): string {
  return typeof value === 'object' ? `<${value.placeholder}>` : String(value);
}

function formatItem(item: ItemRef | Placeholder): string {
  return typeof item === 'string' ? item : 'class' in item ? item.class : formatSlot(item);
}

/** The wire string of a predicate (or template); `parsePredicate(formatPredicate(p))` gives `p` back. */
export function formatPredicate(predicate: PredicateTemplate): string {
  switch (predicate.kind) {
    case 'has_item':
      return `has_item:${formatItem(predicate.item)}:${predicate.mode === 'gain' ? '+' : ''}${formatSlot(predicate.count)}`;
    case 'near_block':
      return `near_block:${formatSlot(predicate.block)}`;
    case 'within_reach':
    case 'at':
      return `${predicate.kind}:${formatTarget(predicate.position)}`;
    case 'air_at':
      return `air:${formatTarget(predicate.position)}`;
    case 'block_at':
      return `block:${formatTarget(predicate.position)}=${formatSlot(predicate.block)}`;
    case 'equipped':
      return `equipped:${formatSlot(predicate.destination)}=${formatSlot(predicate.item)}`;
    case 'hurt':
      return `hurt:${'placeholder' in predicate.entity ? `<${predicate.entity.placeholder}>` : `${predicate.entity.name}#${predicate.entity.id}`}`;
    case 'rose':
      return `y:+${formatSlot(predicate.blocks)}`;
    case 'distance_from_threat':
      return predicate.atLeast === undefined ? 'distance_from_threat' : `distance_from_threat:>=${formatSlot(predicate.atLeast)}`;
    case 'food_rose':
      return 'food:rose';
    case 'chat_echoed':
      return 'chat:echoed';
    case 'structure':
      return `structure:${predicate.state}`;
    case 'out_of':
      return `out_of:${formatSlot(predicate.fluid)}`;
    case 'seen_mob':
      return `seen_mob:${formatSlot(predicate.mob)}`;
    case 'in_biome':
      return `in_biome:${formatSlot(predicate.biome)}`;
    case 'below_y':
      return `y:<=${formatSlot(predicate.y)}`;
    case 'custom':
      return `custom:${predicate.text}`;
  }
}

type Reader = (rest: string | undefined) => unknown;

/** A slot's value from its wire text: a placeholder, else `read(text)`. */
function readSlot(text: string | undefined, read: (text: string) => unknown = (t) => t): unknown {
  return text === undefined ? undefined : (readPlaceholder(text) ?? read(text));
}

function readHasItem(rest: string | undefined): unknown {
  const match = /^([a-z0-9_]+|<[a-z0-9_]+>)(?::(\+|>=)?(\d+|<[a-z0-9_]+>))?$/.exec(rest ?? '');
  if (!match) return undefined;
  const [, name, sign, amount] = match as unknown as [string, string, string | undefined, string | undefined];
  const item = readSlot(name, (text) => (ItemClassSchema.safeParse(text).success ? { class: text } : text));
  return { kind: 'has_item', item, count: amount === undefined ? 1 : readSlot(amount, Number), mode: sign === '+' ? 'gain' : 'at_least' };
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
  const match = /^>=([0-9][0-9.e+-]*|<[a-z0-9_]+>)$/.exec(rest);
  return match ? { kind: 'distance_from_threat', atLeast: readSlot(match[1], Number) } : undefined;
}

/** `y:+<n>` (rose) or `y:<=<y>` (below_y). */
function readLevel(rest: string | undefined): unknown {
  if (rest?.startsWith('+')) return { kind: 'rose', blocks: readSlot(rest.slice(1), (n) => (/^\d+$/.test(n) ? Number(n) : undefined)) };
  if (rest?.startsWith('<=')) return { kind: 'below_y', y: readSlot(rest.slice(2), (n) => (/^-?\d+$/.test(n) ? Number(n) : undefined)) };
  return undefined;
}

const fixed = (text: string, value: object): Reader => (rest) => (rest === text ? value : undefined);
const target = (kind: PredicateKind): Reader => (rest) => ({ kind, position: parseTarget(rest ?? '') });

/** Per wire prefix: how to read the rest, and what a reader should have written. */
const READERS: Record<string, { readonly read: Reader; readonly expected: string }> = {
  has_item: { read: readHasItem, expected: 'has_item:<item | food | any>[:<n> | :+<n> | :>=<n>] with n an integer ≥ 1' },
  near_block: { read: (rest) => ({ kind: 'near_block', block: readSlot(rest) }), expected: 'near_block:<block>' },
  within_reach: { read: target('within_reach'), expected: 'within_reach:<x>,<y>,<z> (integers) or within_reach:<placeholder>' },
  at: { read: target('at'), expected: 'at:<x>,<y>,<z> (integers) or at:<placeholder>' },
  air: { read: target('air_at'), expected: 'air:<x>,<y>,<z> (integers) or air:<placeholder>' },
  block: {
    read: (rest) => {
      const parts = readAssignment(rest);
      return parts && { kind: 'block_at', position: parseTarget(parts[0]), block: readSlot(parts[1]) };
    },
    expected: 'block:<x>,<y>,<z>=<block>',
  },
  equipped: {
    read: (rest) => {
      const parts = readAssignment(rest);
      return parts && { kind: 'equipped', destination: readSlot(parts[0]), item: readSlot(parts[1]) };
    },
    expected: 'equipped:<destination>=<item>',
  },
  hurt: { read: readHurt, expected: 'hurt:<entity>#<id> or hurt:<placeholder>' },
  y: { read: readLevel, expected: 'y:+<n> with n ≥ 1, or y:<=<y> with y an integer' },
  distance_from_threat: { read: readThreat, expected: 'distance_from_threat[:>=<distance>]' },
  food: { read: fixed('rose', { kind: 'food_rose' }), expected: 'food:rose' },
  chat: { read: fixed('echoed', { kind: 'chat_echoed' }), expected: 'chat:echoed' },
  structure: { read: (rest) => ({ kind: 'structure', state: rest }), expected: 'structure:built or structure:observed' },
  out_of: { read: (rest) => ({ kind: 'out_of', fluid: readSlot(rest) }), expected: 'out_of:lava, out_of:fire or out_of:water' },
  seen_mob: { read: (rest) => ({ kind: 'seen_mob', mob: readSlot(rest) }), expected: 'seen_mob:<mob> (an entity name like sheep)' },
  in_biome: { read: (rest) => ({ kind: 'in_biome', biome: readSlot(rest) }), expected: 'in_biome:<biome> (a biome name like desert)' },
  custom: { read: (rest) => ({ kind: 'custom', text: rest }), expected: 'custom:<text> (one line, ≤ 512 characters)' },
};

/** Every wire prefix `parsePredicate` knows, for error messages and docs. */
export const PREDICATE_PREFIXES: readonly string[] = Object.keys(READERS);

/**
 * Parses a predicate's wire string. Never throws: anything that is not a known predicate is a
 * `{ ok: false, reason }` naming what was expected. A placeholder in a value slot (`has_item:<item>:2`)
 * is a template: refused unless `{ templates: true }` (a step must say which item).
 *
 * @example
 * parsePredicate('has_item:oak_log:+3') // → { ok: true, predicate: { kind: 'has_item', item: 'oak_log', count: 3, mode: 'gain' } }
 * parsePredicate('has_item:<item>:<count>', { templates: true }) // → item and count are { placeholder } values
 */
export function parsePredicate(text: unknown): PredicateParse;
export function parsePredicate(text: unknown, options: ParsePredicateOptions & { readonly templates: true }): PredicateParse<PredicateTemplate>;
export function parsePredicate(text: unknown, options?: ParsePredicateOptions): PredicateParse<PredicateTemplate>;
export function parsePredicate(text: unknown, options: ParsePredicateOptions = {}): PredicateParse<PredicateTemplate> {
  if (typeof text !== 'string') return { ok: false, reason: `expected a predicate string, received ${text === null ? 'null' : typeof text}` };
  const shown = JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
  if (text.length > MAX_PREDICATE_LENGTH) return { ok: false, reason: `${shown}: longer than ${MAX_PREDICATE_LENGTH} characters` };
  const colon = text.indexOf(':');
  const prefix = colon < 0 ? text : text.slice(0, colon);
  const reader = Object.hasOwn(READERS, prefix) ? READERS[prefix] : undefined;
  if (!reader) return { ok: false, reason: `${shown}: unknown predicate kind "${prefix.slice(0, 40)}" (known: ${PREDICATE_PREFIXES.join(', ')})` };
  const value = reader.read(colon < 0 ? undefined : text.slice(colon + 1));
  const parsed = (options.templates ? PredicateTemplateSchema : PredicateSchema).safeParse(value);
  if (parsed.success) return { ok: true, predicate: parsed.data };
  const template = !options.templates && PredicateTemplateSchema.safeParse(value).success;
  return { ok: false, reason: template ? `${shown}: a placeholder (<name>) stands for a value not known yet; a step must give the value` : `${shown}: expected ${reader.expected}` };
}

/** Zod schema for a predicate's wire string: a string that `parsePredicate` accepts. */
export const PredicateStringSchema = z.string().superRefine((text, ctx) => {
  const parsed = parsePredicate(text);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.reason });
});
