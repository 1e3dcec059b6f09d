type Op = { readonly kind: ' ' | '-' | '+'; readonly line: string };

const MAX_CELLS = 16_000_000;

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Line edit script by longest common subsequence (common prefix/suffix trimmed first). */
function editScript(a: readonly string[], b: readonly string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const ops: Op[] = a.slice(0, start).map((line) => ({ kind: ' ', line }));
  if (midA.length * midB.length > MAX_CELLS) {
    // Too big for the table: show the middle as replaced wholesale rather than spend the memory.
    ops.push(...midA.map((line) => ({ kind: '-' as const, line })), ...midB.map((line) => ({ kind: '+' as const, line })));
  } else {
    const width = midB.length + 1;
    const table = new Uint32Array((midA.length + 1) * width);
    for (let i = midA.length - 1; i >= 0; i -= 1) {
      for (let j = midB.length - 1; j >= 0; j -= 1) {
        table[i * width + j] = midA[i] === midB[j] ? table[(i + 1) * width + j + 1]! + 1 : Math.max(table[(i + 1) * width + j]!, table[i * width + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < midA.length || j < midB.length) {
      if (i < midA.length && j < midB.length && midA[i] === midB[j]) {
        ops.push({ kind: ' ', line: midA[i]! });
        i += 1;
        j += 1;
      } else if (i < midA.length && (j === midB.length || table[(i + 1) * width + j]! >= table[i * width + j + 1]!)) {
        ops.push({ kind: '-', line: midA[i]! });
        i += 1;
      } else {
        ops.push({ kind: '+', line: midB[j]! });
        j += 1;
      }
    }
  }
  ops.push(...a.slice(endA).map((line) => ({ kind: ' ' as const, line })));
  return ops;
}

/**
 * A unified diff (`diff -u` / `git diff` format) between two texts; empty when they are equal.
 * `before` undefined means a new file (`--- /dev/null`).
 */
export function unifiedDiff(path: string, before: string | undefined, after: string, context = 3): string {
  if (before === after) return '';
  const ops = editScript(splitLines(before ?? ''), splitLines(after));
  const out = [before === undefined ? '--- /dev/null' : `--- a/${path}`, `+++ b/${path}`];
  let index = 0;
  while (index < ops.length) {
    while (index < ops.length && ops[index]!.kind === ' ') index += 1;
    if (index >= ops.length) break;
    // A hunk: from `context` lines before this change to `context` lines after the last change that is
    // at most 2*context lines from the previous one.
    const start = Math.max(0, index - context);
    let end = index;
    for (let k = index; k < ops.length; k += 1) {
      if (ops[k]!.kind !== ' ') end = k;
      else if (k - end > 2 * context) break;
    }
    const stop = Math.min(ops.length, end + context + 1);
    let oldStart = 1;
    let newStart = 1;
    for (let k = 0; k < start; k += 1) {
      if (ops[k]!.kind !== '+') oldStart += 1;
      if (ops[k]!.kind !== '-') newStart += 1;
    }
    const hunk = ops.slice(start, stop);
    const oldCount = hunk.filter((o) => o.kind !== '+').length;
    const newCount = hunk.filter((o) => o.kind !== '-').length;
    out.push(`@@ -${oldCount === 0 ? oldStart - 1 : oldStart},${oldCount} +${newCount === 0 ? newStart - 1 : newStart},${newCount} @@`);
    out.push(...hunk.map((o) => `${o.kind}${o.line}`));
    index = stop;
  }
  return `${out.join('\n')}\n`;
}
