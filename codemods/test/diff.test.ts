import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../src/index.js';

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a.ts', 'x\n', 'x\n')).toBe('');
  });

  it('shows a new file against /dev/null', () => {
    expect(unifiedDiff('a.ts', undefined, 'one\ntwo\n')).toBe('--- /dev/null\n+++ b/a.ts\n@@ -0,0 +1,2 @@\n+one\n+two\n');
  });

  it('shows a one-line change with three lines of context, removal before addition', () => {
    const before = ['1', '2', '3', '4', 'class A {', '6', '7', '8', '9'].join('\n') + '\n';
    const after = before.replace('class A {', 'export class A {');
    expect(unifiedDiff('a.ts', before, after)).toBe(
      '--- a/a.ts\n+++ b/a.ts\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-class A {\n+export class A {\n 6\n 7\n 8\n',
    );
  });

  it('marks a last line without a newline, as diff -u does', () => {
    expect(unifiedDiff('a.ts', 'a\nb\n', 'a\nB')).toBe('--- a/a.ts\n+++ b/a.ts\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n\\ No newline at end of file\n');
  });

  it('produces diffs that patch(1) applies exactly (property over random line edits)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sinew-diff-'));
    try {
      const lines = fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', ''), { maxLength: 30 });
      fc.assert(
        fc.property(lines, lines, (a, b) => {
          const before = a.map((l) => `${l}\n`).join('');
          const after = b.map((l) => `${l}\n`).join('');
          writeFileSync(join(dir, 'f.txt'), before);
          const diff = unifiedDiff('f.txt', before, after);
          if (diff === '') return before === after;
          const result = spawnSync('patch', ['-p1', '--quiet', '--force', join(dir, 'f.txt')], { input: diff, encoding: 'utf8' });
          return result.status === 0 && readFileSync(join(dir, 'f.txt'), 'utf8') === after;
        }),
        { numRuns: 60, seed: 7 },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
