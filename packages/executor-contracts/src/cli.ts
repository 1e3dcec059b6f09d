#!/usr/bin/env node
// The `sinew-verbs` bin: the verb-divergence gate (FM-01 in CI). See gate/cli.ts.
import { describeError } from './failure.js';
import { runCli } from './gate/cli.js';

// The loop emptying before the CLI answered means a loaded module left a promise that can never settle (no timer
// holds the loop, so even the load deadline cannot fire): that is a failure, never a silent exit 0.
const neverSettled = () => {
  process.stderr.write('sinew-verbs: a loaded module never settled (a promise with nothing left to resolve it); nothing was checked\n');
  process.exit(2);
};
process.once('beforeExit', neverSettled);

runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
}).then(
  (code) => exitAfterOutput(code),
  (error: unknown) => {
    process.stderr.write(`sinew-verbs: ${describeError(error)}\n`);
    exitAfterOutput(2);
  },
);

/** Exits once stdout and stderr have flushed: a module that left timers or sockets must not keep the gate running. */
function exitAfterOutput(code: number): void {
  process.off('beforeExit', neverSettled);
  process.exitCode = code;
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}
