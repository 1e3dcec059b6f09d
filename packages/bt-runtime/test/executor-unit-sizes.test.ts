import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Issue 24: the step's life reads in short units — no file over 300 lines and no function over 50 in the executor.
// Kept by a test, so the next change that grows one says so in the suite rather than in a later review.

const DIR = fileURLToPath(new URL('../src/executor/', import.meta.url));
const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 50;

/** Lines of a file's text (a final newline ends the last line, it does not start another). */
function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Every function with a body (declarations, methods, accessors, constructors, arrows, expressions) longer than `max` lines. */
function longFunctions(file: string, text: string, max: number): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = 'name' in node && node.name !== undefined ? node.name.getText(source) : '(anonymous)';
      if (last - first + 1 > max) found.push(`${file}:${first + 1} ${name} (${last - first + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = readdirSync(DIR)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({ name, text: readFileSync(join(DIR, name), 'utf8') }));

describe('bt-runtime/src/executor unit sizes', () => {
  it('has files to measure', () => {
    expect(files.map((f) => f.name)).toContain('executor.ts');
  });

  it(`has no file over ${MAX_FILE_LINES} lines`, () => {
    expect(files.filter((f) => lineCount(f.text) > MAX_FILE_LINES).map((f) => `${f.name} (${lineCount(f.text)} lines)`)).toEqual([]);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines`, () => {
    expect(files.flatMap((f) => longFunctions(f.name, f.text, MAX_FUNCTION_LINES))).toEqual([]);
  });

  it('measures a function by its first and last line, nested ones on their own', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = `export function outer() {\n${body(49)}\n  const inner = () => {\n${body(2)}\n  };\n}\nclass C {\n  m() {\n${body(3)}\n  }\n}\n`;
    expect(longFunctions('x.ts', text, 50)).toEqual(['x.ts:1 outer (55 lines)']);
    expect(longFunctions('x.ts', text, 3)).toEqual(['x.ts:1 outer (55 lines)', 'x.ts:51 (anonymous) (4 lines)', 'x.ts:57 m (5 lines)']);
    expect(lineCount('a\nb\n')).toBe(2);
  });
});
