// A capability's declared preconds/effects: typed predicates built from its args. The manifest renders
// them over symbolic args — every top-level field of the input schema a placeholder named after it — so
// `(args) => [pred.hasItem(args.item, args.count)]` shows as `has_item:<item>:<count>`.
import type { z } from 'zod';
import { pred } from './pred.js';
import { formatPredicate, parsePredicate, PredicateTemplateSchema, type Placeholder, type PredicateTemplate } from './predicates.js';

/**
 * Args as a declaration sees them: each field its value when a step is at hand, or its placeholder when the
 * manifest renders the declaration. The types make a declaration handle both (`typeof args.count === 'number'`).
 */
export type SymbolicArgs<Args> = { readonly [K in keyof Args]: Args[K] | Placeholder };

/** Preconditions or effects of a capability, built from its args with `pred.*`. */
export type Declaration<Args> = (args: SymbolicArgs<Args>) => readonly PredicateTemplate[];

/** A declaration as `defineCapability` takes it: typed, or (deprecated) wire strings. */
export type DeclarationInput<Args> = Declaration<Args> | readonly string[];

/** The wire strings of a capability's declarations, as the manifest and tool definitions show them. */
export interface RenderedDeclarations {
  preconds: string[];
  effects: string[];
}

/**
 * A typed declaration from either form. Wire strings keep their meaning when they parse (placeholders
 * allowed); any other string is user vocabulary and becomes `custom:<text>`.
 */
export function toDeclaration<Args>(input: DeclarationInput<Args> | undefined): Declaration<Args> {
  if (typeof input === 'function') return input;
  const predicates = (input ?? []).map((text) => {
    const parsed = parsePredicate(text, { templates: true });
    return parsed.ok ? parsed.predicate : pred.custom(text);
  });
  return () => predicates;
}

/** Field names of an input schema (objects, unions of objects, pipes, defaults), snake_cased for placeholders. */
function fieldNames(schema: z.ZodType): string[] {
  const def = schema._zod.def as { type: string; shape?: object; options?: z.ZodType[]; in?: z.ZodType; innerType?: z.ZodType; left?: z.ZodType; right?: z.ZodType };
  switch (def.type) {
    case 'object':
      return Object.keys(def.shape ?? {});
    case 'union':
      return [...new Set((def.options ?? []).flatMap(fieldNames))];
    case 'intersection':
      return [...new Set([...fieldNames(def.left!), ...fieldNames(def.right!)])];
    case 'pipe':
      return fieldNames(def.in!);
    default:
      return def.innerType ? fieldNames(def.innerType) : [];
  }
}

/** The args the manifest renders declarations with: each field of `schema` a placeholder named after it. */
export function symbolicArgs(schema: z.ZodType): Record<string, Placeholder> {
  const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`).replace(/[^a-z0-9_]/g, '_');
  return Object.fromEntries(fieldNames(schema).map((name) => [name, pred.placeholder(snake(name))]));
}

/**
 * Renders one declaration over `args` in the wire form; a throw or a value that is no predicate is an
 * Error naming it (the declaration must handle placeholders, see `SymbolicArgs`).
 */
export function renderDeclaration<Args>(declaration: Declaration<Args>, args: SymbolicArgs<Args>): string[] {
  const declared = declaration(args);
  if (!Array.isArray(declared)) throw new TypeError(`expected an array of predicates (pred.*), received ${typeof declared}`);
  return declared.map((predicate, index) => {
    const checked = PredicateTemplateSchema.safeParse(predicate);
    if (!checked.success) throw new TypeError(`[${index}]: not a predicate (build it with pred.*): ${JSON.stringify(predicate)?.slice(0, 120)}`);
    return formatPredicate(checked.data);
  });
}
