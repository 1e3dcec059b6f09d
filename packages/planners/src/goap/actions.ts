// The registry's capabilities as planning actions: their declared effects unified with a wanted predicate
// give the args, the capability's own `preconds(args)` give what must hold before.
import { formatPredicate, pred, PredicateSchema, type Capability, type CapabilityRegistry, type Predicate, type PredicateTemplate } from '@sinew/executor-contracts';
import { z } from 'zod';
import type { PlannerWorld } from '../contract.js';

/** A concrete step the search may take: args parsed by the capability's schema, declarations evaluated on them. */
export interface GroundAction {
  readonly verb: string;
  readonly args: Record<string, unknown>;
  readonly preconds: readonly Predicate[];
  readonly effects: readonly Predicate[];
  /** Items a precondition asks for that the step keeps (a tool); every other item precondition is consumed. */
  readonly keeps: readonly string[];
  readonly cost: number;
  readonly expectedDurationMs?: number;
}

/** One way to run a verb, as domain knowledge sees it: the args, and preconds where the declaration has placeholders. */
export interface ActionVariant {
  readonly args: Record<string, unknown>;
  /** Replaces the declared preconds (a recipe's ingredients for craft_item's `has_item:<ingredient>:<n>`). */
  readonly preconds?: readonly Predicate[];
  /** Replaces the declared effects (gathering `stone` yields `cobblestone`). */
  readonly effects?: readonly Predicate[];
  /** Items the step needs but keeps (a pickaxe). */
  readonly keeps?: readonly string[];
}

/**
 * Domain knowledge the declarations do not carry (which recipe, which furnace input). `refine` returns the
 * variants of a step bound from a goal: `[]` when the verb cannot make it here, `undefined` to keep the binding.
 */
export interface GoapDomain {
  /** The variants of a step bound from a goal (`[]`: this verb cannot make it here; undefined: keep the binding). */
  refine(verb: string, bound: Readonly<Record<string, unknown>>, world: PlannerWorld): readonly ActionVariant[] | undefined;
  /**
   * Steps whose args no declaration binds from the goal (mining `iron_ore` for `raw_iron`: the drop is the domain's
   * knowledge); used when the verb is registered.
   */
  produce?(wanted: Predicate, world: PlannerWorld): readonly { readonly verb: string; readonly variant: ActionVariant }[];
  /** Why the goal can have no source in this world (the reason names the item), or undefined; checked before searching. */
  noSource?(goal: readonly Predicate[], world: PlannerWorld): string | undefined;
  /**
   * The part of a found plan the body can commit to in this world (default: all of it). A plan cut short ends
   * where the world decides the rest (Minecraft: which wood grows here); the caller plans again once it ran.
   */
  commit?(steps: readonly GroundAction[], world: PlannerWorld): readonly GroundAction[];
}

/** A step's default cost: its capability's `expectedDurationMs` in seconds, else 1. */
export const durationCost = (capability: Capability): number => (capability.expectedDurationMs ?? 1_000) / 1_000;

/** A capability prepared for unification: its effects over placeholder args, and which placeholder is which field. */
export interface ActionSchema {
  readonly capability: Capability;
  readonly effects: readonly PredicateTemplate[];
  /** Placeholder name → input field path (`item`; `target.block` for a field of an object field no top-level field shadows). */
  readonly fields: ReadonlyMap<string, readonly string[]>;
}

type JsonObject = { properties?: Record<string, JsonObject> };
const placeholderName = (field: string) => field.replace(/[A-Z]/g, (l) => `_${l.toLowerCase()}`).replace(/[^a-z0-9_]/g, '_');

/** Placeholder names of an input schema's fields, top-level first: a declaration may name a nested field (`explore`'s `<block>` is `target.block`). */
function fieldPaths(json: JsonObject): Map<string, readonly string[]> {
  const top = Object.keys(json.properties ?? {});
  const fields = new Map<string, readonly string[]>(top.map((name) => [placeholderName(name), [name]]));
  for (const name of top) {
    for (const sub of Object.keys(json.properties?.[name]?.properties ?? {})) {
      if (!fields.has(placeholderName(sub))) fields.set(placeholderName(sub), [name, sub]);
    }
  }
  return fields;
}

/** Args from bindings: each bound placeholder's value at its field's path. */
function argsOf(bindings: Bindings, fields: ReadonlyMap<string, readonly string[]>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, value] of bindings) {
    const path = fields.get(name);
    if (!path) continue;
    const [head, sub] = path as [string, string?];
    if (sub === undefined) args[head] = value;
    else args[head] = { ...(args[head] as object | undefined), [sub]: value };
  }
  return args;
}

/** Every verb's default version, prepared once, in verb order (the search's tie-break). */
export function actionSchemas(registry: CapabilityRegistry<unknown>): ActionSchema[] {
  return registry.verbs().flatMap((verb) => {
    const capability = registry.get(verb);
    if (!capability) return [];
    const json = z.toJSONSchema(capability.inputSchema, { io: 'input', unrepresentable: 'any' }) as JsonObject;
    const fields = fieldPaths(json);
    const symbolic = Object.fromEntries([...fields].filter(([, path]) => path.length === 1).map(([placeholder, [field]]) => [field, pred.placeholder(placeholder)]));
    return [{ capability, effects: capability.effects(symbolic as never), fields }];
  });
}

type Bindings = Map<string, unknown>;

/** Binds a template slot to a value: a placeholder takes it, a value must equal it. */
function bindSlot(slot: unknown, value: unknown, bindings: Bindings): boolean {
  if (typeof slot === 'object' && slot !== null && 'placeholder' in slot) {
    const name = (slot as { placeholder: string }).placeholder;
    if (bindings.has(name) && JSON.stringify(bindings.get(name)) !== JSON.stringify(value)) return false;
    bindings.set(name, value);
    return true;
  }
  return JSON.stringify(slot) === JSON.stringify(value);
}

/**
 * The bindings under which an effect template makes `wanted` hold, or undefined. A count the template fixes
 * binds partially (`+1` towards `+4`); a block placed at an unbound position is `near_block` of that block.
 */
export function unify(template: PredicateTemplate, wanted: Predicate): Bindings | undefined {
  const bindings: Bindings = new Map();
  if (wanted.kind === 'near_block' && template.kind === 'block_at' && 'placeholder' in template.position) {
    return bindSlot(template.block, wanted.block, bindings) ? bindings : undefined;
  }
  if (template.kind !== wanted.kind) return undefined;
  if (template.kind === 'has_item' && wanted.kind === 'has_item') {
    if (!bindSlot(template.item, wanted.item, bindings)) return undefined;
    if (typeof template.count === 'object') bindings.set(template.count.placeholder, wanted.count);
    return bindings;
  }
  const { kind: _kind, ...slots } = template as Record<string, unknown>;
  for (const [name, slot] of Object.entries(slots)) {
    if (!bindSlot(slot, (wanted as Record<string, unknown>)[name], bindings)) return undefined;
  }
  return bindings;
}

/** Why a candidate step was not usable, for the failure's details. */
export type Rejection = string;

/** The ground actions whose declared effects make `wanted` hold, cheapest first (verb order on ties), and why others were refused. */
export function producers(
  schemas: readonly ActionSchema[],
  wanted: Predicate,
  world: PlannerWorld,
  options: { readonly domain?: GoapDomain; readonly cost: (capability: Capability, args: Record<string, unknown>) => number },
): { readonly actions: GroundAction[]; readonly rejections: Rejection[] } {
  const actions: GroundAction[] = [];
  const rejections: Rejection[] = [];
  for (const schema of schemas) {
    for (const template of schema.effects) {
      const bindings = unify(template, wanted);
      if (!bindings) continue;
      const bound = argsOf(bindings, schema.fields);
      const variants = options.domain?.refine(schema.capability.name, bound, world) ?? [{ args: bound }];
      for (const variant of variants) {
        const ground = groundAction(schema.capability, variant, options.cost);
        if (typeof ground === 'string') rejections.push(`${schema.capability.name} ${JSON.stringify(variant.args)}: ${ground}`);
        else actions.push(ground);
      }
      break;
    }
  }
  for (const { verb, variant } of options.domain?.produce?.(wanted, world) ?? []) {
    const schema = schemas.find((s) => s.capability.name === verb);
    const ground = schema && groundAction(schema.capability, variant, options.cost);
    if (typeof ground === 'string') rejections.push(`${verb} ${JSON.stringify(variant.args)}: ${ground}`);
    else if (ground) actions.push(ground);
  }
  actions.sort((a, b) => a.cost - b.cost);
  return { actions, rejections };
}

/**
 * A step as given (a model's proposal) made concrete: the domain's first variant for its args, else its
 * declarations as they are; a string says why it cannot be (args that do not parse, a placeholder left).
 */
export function groundStep(
  capability: Capability,
  args: Record<string, unknown>,
  world: PlannerWorld,
  options: { readonly domain?: GoapDomain; readonly cost: (capability: Capability, args: Record<string, unknown>) => number },
): GroundAction | string {
  const [variant] = options.domain?.refine(capability.name, args, world) ?? [];
  const refined = variant ? groundAction(capability, { ...variant, args: { ...args, ...variant.args } }, options.cost) : undefined;
  return refined !== undefined && typeof refined !== 'string' ? refined : groundAction(capability, { args }, options.cost);
}

/** A variant checked against the capability: its schema parses the args, every precondition and effect is concrete. */
function groundAction(
  capability: Capability,
  variant: ActionVariant,
  cost: (capability: Capability, args: Record<string, unknown>) => number,
): GroundAction | string {
  const parsed = capability.inputSchema.safeParse(variant.args);
  if (!parsed.success) return `args do not parse: ${z.prettifyError(parsed.error).replace(/\s+/g, ' ')}`;
  const args = parsed.data as Record<string, unknown>;
  const concrete = (templates: readonly PredicateTemplate[], field: string): Predicate[] | string => {
    const open = templates.find((t) => !PredicateSchema.safeParse(t).success);
    return open ? `${field} ${formatPredicate(open)} has a placeholder nothing binds` : (templates as Predicate[]);
  };
  // A target left unbound (`within_reach:<position>`) is one the step picks itself: nothing to plan for.
  const declared = (variant.preconds ?? capability.preconds(args as never)).filter((p) => !('position' in p && 'placeholder' in p.position));
  const preconds = concrete(declared, 'precondition');
  const effects = concrete(variant.effects ?? capability.effects(args as never), 'effect');
  if (typeof preconds === 'string') return preconds;
  if (typeof effects === 'string') return effects;
  const expected = capability.expectedDurationMs;
  return { verb: capability.name, args, preconds, effects, keeps: consumedNone(effects) ? preconds.flatMap(heldItem) : (variant.keeps ?? []), cost: cost(capability, args), ...(expected !== undefined ? { expectedDurationMs: expected } : {}) };
}

/** A step that makes no item nor block (equip, eat) keeps what it holds. */
function consumedNone(effects: readonly Predicate[]): boolean {
  return !effects.some((effect) => effect.kind === 'has_item' || effect.kind === 'block_at');
}

function heldItem(predicate: Predicate): string[] {
  return predicate.kind === 'has_item' && typeof predicate.item === 'string' ? [predicate.item] : [];
}
