// `npm test`: every part at once — vitest's real-server files, vitest's other files, the typecheck and the consumer
// test over the packed tarballs — then the export check.
// Why side by side: a real-server file spends ~15 % of its time on the CPU (it waits on the server's ticks), so the
// server files leave most of two cores idle; run in one vitest process, the in-process files (~180 s of CPU) waited
// for the whole server group to end (issue 25: 0–363 s servers, then 363–485 s the rest).
// Why one file at a time: the server files' watchdogs and game clocks run on real time, so the work added beside them
// must not starve them. The other vitest files run on one worker (SINEW_CPU_WORKERS=1): at most about one core, the
// other left to the server files, the typecheck and the consumer test. (Not niced: on this shared machine nice
// weighs against every other user's processes, and a niced part stalled for minutes behind them.)
// The server files print to the terminal; the other parts' output is kept under .sinew/ and printed whole after it
// (a failing typecheck at once, stopping the others). Each part's exit status is reported and any failure fails the
// run. Both vitest parts' JSON reports are merged into .sinew/vitest.json (`npm run test:timings`).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const vitestBin = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`;
const running = new Set();

/**
 * Runs a command; resolves to its exit code (a signal counts as 1) and its time. With `keep` its output goes to a
 * file under .sinew/ instead of the terminal; `env` is added to this process's environment. Asynchronous on purpose: a blocking spawn would stop this process reading the kept parts'
 * pipes, and a full pipe would stall them.
 */
function runPart(name, command, args, { keep = false, env = {} } = {}) {
  const t0 = Date.now();
  const stdio = keep ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'];
  const child = spawn(command, args, { stdio, env: { ...process.env, ...env } });
  running.add(child);
  const chunks = [];
  child.stdout?.on('data', (chunk) => chunks.push(chunk));
  child.stderr?.on('data', (chunk) => chunks.push(chunk));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      running.delete(child);
      const file = keep ? join('.sinew', `${name.replace(/[^a-z0-9]+/gi, '-')}.log`) : undefined;
      if (file) writeFileSync(file, Buffer.concat(chunks));
      resolve({ name, status: code ?? 1, file, took: seconds(t0) });
    });
  });
}

const partReport = (name) => join('.sinew', `vitest-${name}.json`);

/** Runs the vitest projects matching `projects`, its JSON report written to .sinew/vitest-<name>.json. */
function vitestPart(name, projects, options) {
  const args = [vitestBin, 'run', ...projects.flatMap((p) => ['--project', p]), '--reporter=default', '--reporter=json', `--outputFile.json=${partReport(name)}`];
  return runPart(`vitest ${name}`, process.execPath, args, options);
}

/** Says how a part ended; its exit code. */
function report({ name, status, took }) {
  console.log(`npm test: ${name} ${status === 0 ? 'passed' : `FAILED (exit ${status})`} in ${took}`);
  return status;
}

/** Prints a kept part's output under a heading, then how it ended; its exit code. */
function printKept(part) {
  console.log(`\n── ${part.name} (run beside the server files; its output, kept in ${part.file}):`);
  process.stdout.write(readFileSync(part.file));
  return report(part);
}

/** Merges the parts' vitest JSON reports into .sinew/vitest.json, with each part's wall time and summed file time. */
function mergeReports(names) {
  const reports = names.filter((name) => existsSync(partReport(name))).map((name) => ({ name, ...JSON.parse(readFileSync(partReport(name), 'utf8')) }));
  if (reports.length === 0) return;
  const sum = (key) => reports.reduce((total, r) => total + r[key], 0);
  const counts = ['numTotalTestSuites', 'numPassedTestSuites', 'numFailedTestSuites', 'numPendingTestSuites', 'numTotalTests', 'numPassedTests', 'numFailedTests', 'numPendingTests', 'numTodoTests'];
  const parts = reports.map(({ name, startTime, testResults }) => ({
    name,
    files: testResults.length,
    wallMs: Math.max(startTime, ...testResults.map((r) => r.endTime)) - startTime,
    summedMs: testResults.reduce((total, r) => total + r.endTime - r.startTime, 0),
  }));
  const merged = {
    ...Object.fromEntries(counts.map((key) => [key, sum(key)])),
    startTime: Math.min(...reports.map((r) => r.startTime)),
    success: reports.length === names.length && reports.every((r) => r.success),
    testResults: reports.flatMap((r) => r.testResults),
    parts,
  };
  writeFileSync(join('.sinew', 'vitest.json'), JSON.stringify(merged));
}

mkdirSync('.sinew', { recursive: true });
const parts = ['server', 'in-process'];
for (const name of parts) rmSync(partReport(name), { force: true });
// A failing typecheck fails the run at once, stopping the other parts.
const typecheck = runPart('typecheck', npm, ['run', 'typecheck'], { keep: true }).then((typed) => {
  if (typed.status === 0) return report(typed);
  printKept(typed);
  for (const child of running) child.kill('SIGTERM');
  console.log(`npm test: FAILED (typecheck) in ${seconds(started)}`);
  process.exit(1);
});
const consumer = runPart('test:consumer', npm, ['run', 'test:consumer'], { keep: true });
const inProcess = vitestPart('in-process', ['*:unit', '*:heavy', '*:process'], { keep: true, env: { SINEW_CPU_WORKERS: '1' } });
const server = report(await vitestPart('server', ['server']));
const unit = printKept(await inProcess);
mergeReports(parts);
await typecheck;
const packed = printKept(await consumer);
// Without the consumer test's builds there is nothing to check: the export check runs only after it passed.
const exports = packed === 0 ? report(await runPart('test:exports', npm, ['run', 'test:exports'])) : undefined;
const failed = Object.entries({ 'vitest server': server, 'vitest in-process': unit, 'test:consumer': packed, 'test:exports': exports })
  .filter(([, status]) => status !== undefined && status !== 0)
  .map(([name]) => name);
console.log(`npm test: ${failed.length ? `FAILED (${failed.join(', ')})` : 'passed'} in ${seconds(started)}`);
process.exit(failed.length ? 1 : 0);
