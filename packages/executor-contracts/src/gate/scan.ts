import type { PlannerVerb } from './check.js';

// `type: 'verb'` (any quote style; the key may be quoted, as in JSON) as a plan step literal; verbs are snake_case.
const TYPE_LITERAL = /(?:\btype|(['"])type\1)\s*:\s*(['"`])([a-z][a-z0-9_]*)\2/g;
const IGNORE = 'sinew-verbs-ignore';

/**
 * Finds the `type: '<verb>'` literals of plan-building source, with file, line and column. A line with a
 * `sinew-verbs-ignore` comment is skipped (for `type:` keys that are not plan steps).
 */
export function scanVerbLiterals(text: string, file: string): PlannerVerb[] {
  const found: PlannerVerb[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((line, index) => {
    if (line.includes(IGNORE)) return;
    for (const match of line.matchAll(TYPE_LITERAL)) {
      found.push({ verb: match[3] as string, source: 'scan', file, line: index + 1, column: (match.index ?? 0) + 1 });
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
