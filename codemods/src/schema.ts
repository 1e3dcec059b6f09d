import { Node, ts, type Type } from 'ts-morph';

/** A zod schema as source text, derived from a TypeScript type by the type checker. */
export interface DerivedSchema {
  /** Source of the schema, without `.optional()` (see `optional`). */
  readonly code: string;
  /** True when `undefined` was part of the type (or the property is optional). */
  readonly optional: boolean;
  /** Marked comments left inside the schema (any/unknown), one per spot. */
  readonly notes: readonly string[];
  /** True when the schema builds a `Vec3` from `vec3` (the generated file must import it). */
  readonly usesVec3: boolean;
}

export type SchemaDerivation = ({ readonly ok: true } & DerivedSchema) | { readonly ok: false; readonly reason: string };

class Unsupported extends Error {}

interface State {
  readonly at: Node;
  readonly notes: string[];
  usesVec3: boolean;
  readonly stack: Type[];
}

const MAX_DEPTH = 8;
const NOT_DATA = new Set(['Date', 'Map', 'Set', 'WeakMap', 'WeakSet', 'Promise', 'RegExp', 'Function', 'Buffer', 'Uint8Array']);

/** Single-quoted JS string literal. */
export function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

/**
 * Derives a zod schema for `type` as seen at `at`. `path` names the value in notes and reasons
 * (`args.target`). Types a planner cannot send as JSON (functions, class instances, enums) are refused.
 */
export function deriveSchema(type: Type, at: Node, path: string, indent = ''): SchemaDerivation {
  const state: State = { at, notes: [], usesVec3: false, stack: [] };
  try {
    const { code, optional } = convertMaybeOptional(type, path, indent, state);
    return { ok: true, code, optional, notes: state.notes, usesVec3: state.usesVec3 };
  } catch (error) {
    if (error instanceof Unsupported) return { ok: false, reason: error.message };
    throw error;
  }
}

/** Derives an object schema from named members (parameters), each with its type and optional default. */
export function objectSchemaSource(
  members: readonly { readonly name: string; readonly code: string; readonly optional: boolean; readonly defaultCode?: string }[],
  indent: string,
): string {
  if (members.length === 0) return 'z.strictObject({})';
  const inner = `${indent}  `;
  const lines = members.map((m) => `${inner}${propertyKey(m.name)}: ${withModifiers(m.code, m.optional, m.defaultCode)},`);
  return `z.strictObject({\n${lines.join('\n')}\n${indent}})`;
}

function withModifiers(code: string, optional: boolean, defaultCode?: string): string {
  // A trailing marked comment must stay after the modifiers to keep the call chain readable.
  const match = /^(.*?)( \/\* sinew-codemod:.*\*\/)$/s.exec(code);
  const [base, comment] = match ? [match[1]!, match[2]!] : [code, ''];
  if (defaultCode !== undefined) return `${base}.default(${defaultCode})${comment}`;
  return optional ? `${base}.optional()${comment}` : code;
}

function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : quote(name);
}

function convertMaybeOptional(type: Type, path: string, indent: string, state: State): { code: string; optional: boolean } {
  if (type.isUnion()) {
    const members = type.getUnionTypes();
    const defined = members.filter((m) => !m.isUndefined() && !isVoid(m));
    if (defined.length < members.length) return { code: convertUnion(defined, path, indent, state), optional: true };
  }
  return { code: convert(type, path, indent, state), optional: false };
}

function isVoid(type: Type): boolean {
  return (type.getFlags() & ts.TypeFlags.Void) !== 0;
}

function marked(kind: string, path: string, state: State): string {
  const note = `${path} is typed ${kind}; replace z.unknown() with its real schema`;
  state.notes.push(note);
  return `z.unknown() /* sinew-codemod: ${note} */`;
}

function convert(type: Type, path: string, indent: string, state: State): string {
  if (type.isAny()) return marked('any', path, state);
  if (type.isUnknown()) return marked('unknown', path, state);
  if (type.isEnumLiteral() || type.isEnum()) throw new Unsupported(`${path} is an enum (${type.getText()}); use a string-literal union`);
  if (type.isString()) return 'z.string()';
  if (type.isNumber()) return 'z.number()';
  if (type.isBoolean()) return 'z.boolean()';
  if ((type.getFlags() & ts.TypeFlags.BigInt) !== 0) return 'z.bigint()';
  if (type.isNull()) return 'z.null()';
  if (type.isUndefined() || isVoid(type)) return 'z.undefined()';
  if (type.isStringLiteral()) return `z.literal(${quote(String(type.getLiteralValue()))})`;
  if (type.isNumberLiteral()) return `z.literal(${String(type.getLiteralValue())})`;
  if (type.isBooleanLiteral()) return `z.literal(${type.getText()})`;
  if (type.isUnion()) return convertUnion(type.getUnionTypes(), path, indent, state);
  if (type.isTuple()) {
    return `z.tuple([${type.getTupleElements().map((t, i) => convert(t, `${path}[${i}]`, indent, state)).join(', ')}])`;
  }
  const element = arrayElement(type);
  if (element) return `z.array(${convert(element, `${path}[]`, indent, state)})`;
  if (type.isObject() || type.isIntersection()) return convertObject(type, path, indent, state);
  throw new Unsupported(`${path} has a type the codemod cannot describe as data (${type.getText(state.at)})`);
}

function arrayElement(type: Type): Type | undefined {
  if (type.isArray()) return type.getArrayElementType();
  const name = type.getSymbol()?.getName();
  if (name === 'ReadonlyArray' && type.getTypeArguments().length === 1) return type.getTypeArguments()[0];
  return undefined;
}

function convertUnion(members: readonly Type[], path: string, indent: string, state: State): string {
  const nullable = members.some((m) => m.isNull());
  let rest = members.filter((m) => !m.isNull());
  const hasTrue = rest.some((m) => m.isBooleanLiteral() && m.getText() === 'true');
  const hasFalse = rest.some((m) => m.isBooleanLiteral() && m.getText() === 'false');
  const parts: string[] = [];
  if (hasTrue && hasFalse) {
    rest = rest.filter((m) => !m.isBooleanLiteral());
    parts.push('z.boolean()');
  }
  let code: string;
  if (parts.length === 0 && rest.length > 0 && rest.every((m) => m.isStringLiteral())) {
    code = `z.enum([${rest.map((m) => quote(String(m.getLiteralValue()))).join(', ')}])`;
  } else {
    parts.push(...rest.map((m) => convert(m, path, indent, state)));
    if (parts.length === 0) throw new Unsupported(`${path} has an empty type`);
    code = parts.length === 1 ? parts[0]! : `z.union([${parts.join(', ')}])`;
  }
  return nullable ? `${code}.nullable()` : code;
}

function declaredInVec3(type: Type): boolean {
  const symbol = type.getSymbol();
  if (symbol?.getName() !== 'Vec3') return false;
  return symbol.getDeclarations().some((d) => /[\\/]vec3[\\/]/.test(d.getSourceFile().getFilePath()));
}

function convertObject(type: Type, path: string, indent: string, state: State): string {
  if (state.stack.length >= MAX_DEPTH || state.stack.some((t) => t.compilerType === type.compilerType)) {
    throw new Unsupported(`${path} is recursive or nested deeper than ${MAX_DEPTH} levels`);
  }
  if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) {
    throw new Unsupported(`${path} is a function; a planner cannot send one`);
  }
  if (declaredInVec3(type)) {
    // The runner expects a real Vec3 (with methods), so the parsed {x,y,z} is turned into one.
    state.usesVec3 = true;
    return 'z.strictObject({ x: z.number(), y: z.number(), z: z.number() }).transform(({ x, y, z }) => new Vec3(x, y, z))';
  }
  const name = type.getSymbol()?.getName();
  if (name && NOT_DATA.has(name)) throw new Unsupported(`${path} is a ${name}; a planner can only send JSON data`);
  const properties = type.getProperties();
  const indexType = type.getStringIndexType();
  if (properties.length === 0 && indexType) {
    return `z.record(z.string(), ${convert(indexType, `${path}[key]`, indent, state)})`;
  }
  // Behaviour first: a class instance is refused for its methods, not for some deep field.
  for (const property of properties) {
    const decl = property.getValueDeclaration() ?? property.getDeclarations()[0];
    const isMethod = property.hasFlags(ts.SymbolFlags.Method) || (decl !== undefined && Node.isMethodDeclaration(decl));
    if (isMethod || property.getTypeAtLocation(state.at).getCallSignatures().length > 0) {
      const what = name && name !== '__type' && name !== '__object' ? ` (${name})` : '';
      throw new Unsupported(`${path}${what} has behaviour (${property.getName()}()), it is not plain data a planner can send`);
    }
  }
  state.stack.push(type);
  const inner = `${indent}  `;
  const lines: string[] = [];
  for (const property of properties) {
    const propPath = `${path}.${property.getName()}`;
    const propType = property.getTypeAtLocation(state.at);
    const converted = convertMaybeOptional(propType, propPath, inner, state);
    const optional = converted.optional || property.hasFlags(ts.SymbolFlags.Optional);
    lines.push(`${inner}${propertyKey(property.getName())}: ${withModifiers(converted.code, optional)},`);
  }
  state.stack.pop();
  if (lines.length === 0) return 'z.strictObject({})';
  return `z.strictObject({\n${lines.join('\n')}\n${indent}})`;
}
