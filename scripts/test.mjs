// `npm test`: the typecheck, then vitest and the consumer test side by side, then the export check.
// Neither of the middle two fills the two cores alone: vitest's real-server files wait on the server's ticks and the
// consumer test on npm, the registry and its own bots. Together they took ~20 s less than one after the other on
// this 2-core machine (2026-11-27: vitest 474 s beside the consumer test's 137 s, against 422 s + ~75 s alone).
// The consumer test's output is kept and printed whole after vitest's (never interleaved); each part's exit status
// is reported, and any failure makes the whole run fail. The export check needs the builds the consumer test packs.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

/**
 * Runs an npm script; resolves to its exit code (a signal counts as 1) and its time. With `keep` its output goes to a
 * file under .sinew/ instead of the terminal. Asynchronous on purpose: a blocking spawn would stop this process
 * reading the kept script's pipe, and a full pipe would stall it.
 */
function npmRun(script, { keep = false } = {}) {
  const t0 = Date.now();
  const child = spawn(npm, ['run', script], { stdio: keep ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  const chunks = [];
  child.stdout?.on('data', (chunk) => chunks.push(chunk));
  child.stderr?.on('data', (chunk) => chunks.push(chunk));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const file = keep ? join('.sinew', `${script.replace(/[^a-z0-9]+/gi, '-')}.log`) : undefined;
      if (file) writeFileSync(file, Buffer.concat(chunks));
      resolve({ script, status: code ?? 1, file, took: seconds(t0) });
    });
  });
}

/** Says how a part ended; its exit code. */
function report({ script, status, took }) {
  console.log(`npm test: ${script} ${status === 0 ? 'passed' : `FAILED (exit ${status})`} in ${took}`);
  return status;
}

/** Runs an npm script with the terminal's output and reports how it ended; resolves to its exit code. */
const inline = async (script) => report(await npmRun(script));

mkdirSync('.sinew', { recursive: true });
if ((await inline('typecheck')) !== 0) process.exit(1);
const consumer = npmRun('test:consumer', { keep: true });
const unit = await inline('test:unit');
const packed = await consumer;
console.log(`\n── ${packed.script} (run beside vitest; its output, kept in ${packed.file}):`);
process.stdout.write(readFileSync(packed.file));
report(packed);
// Without the consumer test's builds there is nothing to check: the export check runs only after it passed.
const exports = packed.status === 0 ? await inline('test:exports') : undefined;
const failed = [unit !== 0 && 'test:unit', packed.status !== 0 && packed.script, exports !== undefined && exports !== 0 && 'test:exports'].filter(Boolean);
console.log(`npm test: ${failed.length ? `FAILED (${failed.join(', ')})` : 'passed'} in ${seconds(started)}`);
process.exit(failed.length ? 1 : 0);
