// Prints the slowest test files of a vitest run and its totals, from the JSON reporter's output (`npm test` and
// `npm run test:unit` write .sinew/vitest.json). `npm test` runs vitest in two parts side by side and its report
// lists each part's wall time too: the longer one is the run's critical path.
// Usage: node scripts/test-timings.mjs [file] [--top N]
// Ends with each failed test's name and the first lines of its error, so a log that keeps only its head and tail
// (CI's summary) still says what failed.
// Exits 2 on a missing or unreadable report, so CI cannot print an empty table and call it a pass.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { ROOT } from './workspaces.mjs';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 10;
const file = args.find((arg, i) => !arg.startsWith('--') && (topAt < 0 || i !== topAt + 1)) ?? '.sinew/vitest.json';
if (!Number.isInteger(top) || top <= 0) fail(`--top: expected a positive integer, received ${JSON.stringify(args[topAt + 1])}`);

let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  fail(`cannot read the vitest JSON report ${file}: ${error instanceof Error ? error.message : String(error)}`);
}
if (!Array.isArray(report?.testResults)) fail(`${file} is not a vitest JSON report (no testResults)`);

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

function fail(message) {
  console.error(`test-timings: ${message}`);
  process.exit(2);
}
