import { quote } from './schema.js';

/** A JSDoc type expression (`string|null`, `?number`, `Array.<string>`, `'a'|'b'`) as zod source. */
export interface DocType {
  readonly code: string;
  /** `undefined` was a member, or the type ended in `=`. */
  readonly optional: boolean;
  /** The type said nothing a schema can check (`*`, `Object`, an unknown name): `code` is a marked z.unknown(). */
  readonly unknown: boolean;
  readonly usesVec3: boolean;
}

const PRIMITIVES: Record<string, string> = {
  string: 'z.string()',
  number: 'z.number()',
  int: 'z.number().int()',
  integer: 'z.number().int()',
  boolean: 'z.boolean()',
  bool: 'z.boolean()',
};

const VEC3 = 'z.strictObject({ x: z.number(), y: z.number(), z: z.number() }).transform(({ x, y, z }) => new Vec3(x, y, z))';

/** Splits at `separator` outside brackets, braces, parentheses and quotes. */
function splitTop(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoteChar: string | undefined;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoteChar) {
      if (c === quoteChar) quoteChar = undefined;
    } else if (c === '"' || c === "'") quoteChar = c;
    else if ('([{<'.includes(c)) depth += 1;
    else if (')]}>'.includes(c)) depth -= 1;
    else if (depth === 0 && c === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

interface State {
  usesVec3: boolean;
  unknown: boolean;
  readonly path: string;
}

function unknownOf(what: string, state: State): string {
  state.unknown = true;
  return `z.unknown() /* sinew-codemod: ${state.path} is documented as ${what}; replace z.unknown() with its real schema */`;
}

function member(text: string, state: State): string {
  const t = text.trim();
  if (t.startsWith('(') && t.endsWith(')')) return union(t.slice(1, -1), state).code;
  if (t.startsWith('?')) return `${member(t.slice(1), state)}.nullable()`;
  if (t.startsWith('!')) return member(t.slice(1), state);
  if (t.endsWith('[]')) return `z.array(${member(t.slice(0, -2), state)})`;
  const generic = /^(Array|ReadonlyArray|Set)\.?<(.+)>$/s.exec(t);
  if (generic) return `z.array(${member(generic[2]!, state)})`;
  const record = /^(Object|Record)\.?<(.+)>$/s.exec(t);
  if (record) {
    const [, value] = splitTop(record[2]!, ',');
    return `z.record(z.string(), ${value === undefined ? unknownOf(t, state) : member(value, state)})`;
  }
  if (t.startsWith('{') && t.endsWith('}')) return objectLiteral(t.slice(1, -1), state);
  const lower = t.toLowerCase();
  if (PRIMITIVES[lower]) return PRIMITIVES[lower];
  if (lower === 'null') return 'z.null()';
  if (/^(['"]).*\1$/s.test(t)) return `z.literal(${quote(t.slice(1, -1))})`;
  if (/^-?\d+(\.\d+)?$/.test(t)) return `z.literal(${t})`;
  if (t === 'true' || t === 'false') return `z.literal(${t})`;
  if (t === 'Vec3' || /^import\(['"]vec3['"]\)\.Vec3$/.test(t)) {
    state.usesVec3 = true;
    return VEC3;
  }
  return unknownOf(t === '*' || t === '?' ? 'any value' : t, state);
}

function objectLiteral(inner: string, state: State): string {
  const fields = splitTop(inner, ',').map((field) => {
    const at = field.indexOf(':');
    const rawName = (at < 0 ? field : field.slice(0, at)).trim();
    const optional = rawName.endsWith('?');
    const name = rawName.replace(/\?$/, '');
    const code = at < 0 ? { code: unknownOf(`${name} without a type`, state), optional: false } : union(field.slice(at + 1), state);
    return `${/^[A-Za-z_$][\w$]*$/.test(name) ? name : quote(name)}: ${code.code}${optional || code.optional ? '.optional()' : ''}`;
  });
  return fields.length === 0 ? 'z.strictObject({})' : `z.strictObject({ ${fields.join(', ')} })`;
}

function union(text: string, state: State): { code: string; optional: boolean } {
  let t = text.trim();
  let optional = false;
  if (t.endsWith('=')) {
    optional = true;
    t = t.slice(0, -1);
  }
  const parts = splitTop(t, '|');
  const nullable = parts.some((p) => p.toLowerCase() === 'null');
  optional ||= parts.some((p) => p.toLowerCase() === 'undefined' || p.toLowerCase() === 'void');
  const rest = parts.filter((p) => !['null', 'undefined', 'void'].includes(p.toLowerCase()));
  let code: string;
  if (rest.length > 1 && rest.every((p) => /^(['"]).*\1$/s.test(p))) code = `z.enum([${rest.map((p) => quote(p.slice(1, -1))).join(', ')}])`;
  else if (rest.length === 0) code = 'z.null()';
  else {
    const codes = rest.map((p) => member(p, state));
    code = codes.length === 1 ? codes[0]! : `z.union([${codes.join(', ')}])`;
  }
  return { code: nullable && rest.length > 0 ? appendCall(code, '.nullable()') : code, optional };
}

/** Appends a call (`.nullable()`, `.describe(…)`) before a trailing marked comment. */
export function appendCall(code: string, call: string): string {
  const match = /^(.*?)( \/\* sinew-codemod:.*\*\/)$/s.exec(code);
  return match ? `${match[1]}${call}${match[2]}` : `${code}${call}`;
}

/** Converts a JSDoc type expression; `path` names the value in marked comments (`args.count`). */
export function docTypeToZod(text: string, path: string): DocType {
  const state: State = { usesVec3: false, unknown: false, path };
  const { code, optional } = union(text, state);
  return { code, optional, unknown: state.unknown, usesVec3: state.usesVec3 };
}
