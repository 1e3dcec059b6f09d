#!/usr/bin/env node
// The `sinew-verbs` bin: the verb-divergence gate (FM-01 in CI). See gate/cli.ts.
import { describeError } from './failure.js';
import { runCli } from './gate/cli.js';

runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`sinew-verbs: ${describeError(error)}\n`);
    process.exitCode = 2;
  },
);
