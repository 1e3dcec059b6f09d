// Prints the slowest test files of a vitest run and its totals, from the JSON reporter's output (`npm test` and
// `npm run test:unit` write .sinew/vitest.json). `npm test` runs vitest in two parts side by side and its report
// lists each part's wall time too: the longer one is the run's critical path.
// Usage: node scripts/test-timings.mjs [file] [--top N] [--durations <out.json>]
// --durations writes every file's seconds (a JSON object by repo path) for the sequencer's fresh-clone order
// (test-support/durations.json); pass several reports to write each file's median over them.
// Ends with each failed test's name and the first lines of its error, so a log that keeps only its head and tail
// (CI's summary) still says what failed.
// Exits 2 on a missing or unreadable report, so CI cannot print an empty table and call it a pass.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { ROOT } from './workspaces.mjs';

const args = process.argv.slice(2);
const valueOf = (flag) => {
  const at = args.indexOf(flag);
  if (at >= 0 && (args[at + 1] === undefined || args[at + 1].startsWith('--'))) fail(`${flag}: expected a value`);
  return at >= 0 ? args[at + 1] : undefined;
};
const known = new Set(['--top', '--durations']);
for (const arg of args) if (arg.startsWith('--') && !known.has(arg)) fail(`unknown option ${arg} (expected --top N or --durations <file>)`);
const top = Number(valueOf('--top') ?? 10);
const durationsOut = valueOf('--durations');
const values = new Set([valueOf('--top'), durationsOut]);
const files_ = args.filter((arg, i) => !arg.startsWith('--') && !(known.has(args[i - 1]) && values.has(arg)));
if (!Number.isInteger(top) || top <= 0) fail(`--top: expected a positive integer, received ${JSON.stringify(valueOf('--top'))}`);

const read = (file) => {
  let parsed;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    fail(`cannot read the vitest JSON report ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!Array.isArray(parsed?.testResults)) fail(`${file} is not a vitest JSON report (no testResults)`);
  return parsed;
};
const reports = (files_.length ? files_ : ['.sinew/vitest.json']).map(read);
const report = reports[0];
if (durationsOut) writeDurations(reports, durationsOut);

const files = report.testResults
  .map((result) => ({ name: relative(ROOT, result.name), ms: result.endTime - result.startTime, status: result.status }))
  .sort((a, b) => b.ms - a.ms);
const wallMs = Math.max(...report.testResults.map((r) => r.endTime)) - report.startTime;
const sumMs = files.reduce((sum, f) => sum + f.ms, 0);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

console.log(`\nslowest ${Math.min(top, files.length)} of ${files.length} test files:`);
for (const f of files.slice(0, top)) console.log(`  ${seconds(f.ms).padStart(8)}  ${f.name}${f.status === 'passed' ? '' : `  (${f.status})`}`);
for (const part of report.parts ?? []) {
  console.log(`  part ${part.name}: ${seconds(part.wallMs)} wall for ${part.files} files (files summed ${seconds(part.summedMs)})`);
}
console.log(
  `total: ${seconds(wallMs)} wall for ${report.numTotalTests} tests in ${files.length} files ` +
    `(${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests + report.numTodoTests} skipped; ` +
    `files summed ${seconds(sumMs)})`,
);

const failed = report.testResults.flatMap((result) => {
  const tests = (result.assertionResults ?? []).filter((t) => t.status === 'failed');
  const file = relative(ROOT, result.name);
  if (tests.length === 0 && result.status === 'failed') return [{ file, name: '(the file itself)', messages: [result.message ?? ''] }];
  return tests.map((t) => ({ file, name: t.fullName ?? t.title, messages: t.failureMessages ?? [] }));
});
if (failed.length > 0) {
  console.log(`\nfailed: ${failed.length} test(s)`);
  for (const f of failed) {
    console.log(`  ✗ ${f.file} > ${f.name}`);
    // The message, and of the stack only the frames in our own files (not node_modules, not node:internal).
    const lines = f.messages
      .join('\n')
      .split('\n')
      .filter((line) => line.trim() !== '' && !/^\s*at .*(node_modules|node:internal|<anonymous>)/.test(line));
    for (const line of lines.slice(0, 8)) console.log(`      ${line.trim().slice(0, 300)}`);
  }
}

/** Writes each file's median seconds over the reports, longest first, to `out`. */
function writeDurations(all, out) {
  const seen = new Map();
  for (const r of all) for (const result of r.testResults) {
    // Named from the report's own checkout (another clone's report names its files there): the files' common folder.
    const name = relative(commonFolder(r.testResults.map((t) => t.name)), result.name);
    seen.set(name, [...(seen.get(name) ?? []), (result.endTime - result.startTime) / 1000]);
  }
  const median = (list) => {
    const sorted = [...list].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  const rows = [...seen].map(([name, list]) => [name, Math.round(median(list) * 10) / 10]).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  writeFileSync(out, `${JSON.stringify(Object.fromEntries(rows), null, 2)}\n`);
  console.log(`test-timings: ${rows.length} files' seconds (median of ${all.length} report(s)) written to ${out}`);
}

/** The deepest folder holding every path (a report's checkout: its test files span packages/, codemods/, examples/). */
function commonFolder(paths) {
  const parts = paths.map((path) => path.split('/').slice(0, -1));
  const first = parts[0] ?? [];
  let depth = 0;
  while (depth < first.length && parts.every((p) => p[depth] === first[depth])) depth += 1;
  return first.slice(0, depth).join('/') || '/';
}

function fail(message) {
  console.error(`test-timings: ${message}`);
  process.exit(2);
}
