import { structuredPatch } from 'diff';

/**
 * A unified diff (`diff -u` / `git diff` format) between two texts; empty when they are equal.
 * `before` undefined means a new file (`--- /dev/null`). Hunks come from jsdiff (`diff`).
 */
export function unifiedDiff(path: string, before: string | undefined, after: string, context = 3): string {
  if (before === after) return '';
  const { hunks } = structuredPatch(path, path, before ?? '', after, undefined, undefined, { context });
  const out = [before === undefined ? '--- /dev/null' : `--- a/${path}`, `+++ b/${path}`];
  // An empty side names the line before it (`-0,0` for a new file), as diff -u and jsdiff's formatPatch do.
  const range = (start: number, lines: number) => `${lines === 0 ? start - 1 : start},${lines}`;
  for (const hunk of hunks) out.push(`@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`, ...hunk.lines);
  return `${out.join('\n')}\n`;
}
