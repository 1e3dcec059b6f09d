import type { PlannerVerb } from './check.js';

// `type: 'verb'` (any quote style; the key may be quoted, as in JSON) as a plan step literal; verbs are snake_case.
const TYPE_LITERAL = /(?:\btype|(['"])type\1)\s*:\s*(['"`])([a-z][a-z0-9_]*)\2/g;
const IGNORE = 'sinew-verbs-ignore';

// JSON Schema's type names: only these can be a schema's `type`, so only these are ever judged by context.
const JSON_SCHEMA_TYPES = new Set(['object', 'string', 'number', 'integer', 'boolean', 'array', 'null']);
// Keys that make an object a JSON Schema when they sit beside `type` (a plan step has none of them).
const SCHEMA_SIBLING =
  /(['"]?)\b(properties|items|enum|required|additionalProperties|minimum|maximum|exclusiveMinimum|exclusiveMaximum|minLength|maxLength|minItems|maxItems|pattern|format|anyOf|oneOf|allOf|const|default|description|title|\$schema|\$ref)\1\s*:/;
// Keys whose value is a schema (`items: { type: 'number' }`) or a map of them (`properties: { name: { … } }`).
const SCHEMA_VALUE = new Set(['items', 'additionalProperties', 'anyOf', 'oneOf', 'allOf', 'not', 'contains', 'prefixItems']);
const SCHEMA_MAP = new Set(['properties', 'patternProperties', '$defs', 'definitions']);
const WINDOW = 4_000;

/** Index of the `{` that opens the object around `at`, or -1 (bounded search; brackets in strings are rare enough). */
function enclosingOpen(text: string, at: number): number {
  let depth = 0;
  for (let i = at - 1; i >= Math.max(0, at - WINDOW); i -= 1) {
    const c = text[i];
    if (c === '}' || c === ']') depth += 1;
    else if (c === '{' || c === '[') {
      if (depth === 0) return c === '{' ? i : -1;
      depth -= 1;
    }
  }
  return -1;
}

/** The text of an object at its own nesting level (nested objects and arrays left out). */
function ownLevel(text: string, open: number): string {
  let depth = 0;
  let out = '';
  for (let i = open + 1; i < Math.min(text.length, open + WINDOW); i += 1) {
    const c = text[i] as string;
    if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') {
      if (depth === 0) break;
      depth -= 1;
    } else if (depth === 0) out += c;
  }
  return out;
}

/** The key whose value the object (or array) opening at `open` is, if any. */
function keyBefore(text: string, open: number): string | undefined {
  return /(['"]?)([\w$]+)\1\s*:\s*\[?\s*$/.exec(text.slice(Math.max(0, open - 200), open))?.[2];
}

/** True when the object at `open` is the value of a schema key, or a property of a `properties` map. */
function heldBySchema(text: string, open: number): boolean {
  const key = keyBefore(text, open);
  if (key === undefined) return false;
  if (SCHEMA_VALUE.has(key)) return true;
  const parent = enclosingOpen(text, open);
  return parent >= 0 && SCHEMA_MAP.has(keyBefore(text, parent) ?? '');
}

/** True when a JSON-Schema type name sits in an object that is a JSON Schema (a schema sibling key, or held by one). */
function isSchemaType(text: string, at: number, value: string): boolean {
  if (!JSON_SCHEMA_TYPES.has(value)) return false;
  const open = enclosingOpen(text, at);
  if (open < 0) return false;
  return SCHEMA_SIBLING.test(ownLevel(text, open)) || heldBySchema(text, open);
}

/**
 * Finds the `type: '<verb>'` literals of plan-building source, with file, line and column. A line with a
 * `sinew-verbs-ignore` comment is skipped (for `type:` keys that are not plan steps), and so is a JSON
 * Schema's `type: 'object' | 'string' | …` (an object with `properties`, `items`, `enum`… beside it).
 */
export function scanVerbLiterals(text: string, file: string): PlannerVerb[] {
  const found: PlannerVerb[] = [];
  let offset = 0;
  text.split(/(?<=\n)/).forEach((line, index) => {
    const lineStart = offset;
    offset += line.length;
    if (line.includes(IGNORE)) return;
    for (const match of line.matchAll(TYPE_LITERAL)) {
      const verb = match[3] as string;
      if (isSchemaType(text, lineStart + (match.index ?? 0), verb)) continue;
      found.push({ verb, source: 'scan', file, line: index + 1, column: (match.index ?? 0) + 1 });
    }
  });
  return found;
}

/** The 1-based line and column of the first `'verb'` / `"verb"` literal in `text`, if any. */
export function locateVerb(text: string, verb: string): { line: number; column: number } | undefined {
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string;
    for (const quote of ["'", '"', '`']) {
      const at = line.indexOf(`${quote}${verb}${quote}`);
      if (at >= 0) return { line: index + 1, column: at + 1 };
    }
  }
  return undefined;
}
