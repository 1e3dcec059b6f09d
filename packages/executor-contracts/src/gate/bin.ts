import { describeError } from '../failure.js';
import { runCli } from './cli.js';

/** A stream the `sinew-verbs` bin writes to: `process.stdout` or `process.stderr` (a test passes its own). @internal */
export interface BinStream {
  write(text: string, flushed?: () => void): unknown;
}

/** What the `sinew-verbs` bin uses of `process`: `src/cli.ts` passes `process` itself, a test a small fake. @internal */
export interface BinProcess {
  readonly argv: readonly string[];
  readonly stdout: BinStream;
  readonly stderr: BinStream;
  exitCode?: number | string | undefined;
  once(event: 'beforeExit', listener: () => void): unknown;
  off(event: 'beforeExit', listener: () => void): unknown;
  exit(code: number): void;
}

/**
 * The `sinew-verbs` bin: runs the CLI on `proc.argv` (after node and the script), writes to its streams and exits with
 * the CLI's code once both have flushed. Resolves when the CLI has answered (the exit follows the flush). @internal
 */
export function runVerbsBin(proc: BinProcess): Promise<void> {
  // The loop emptying before the CLI answered means a loaded module left a promise that can never settle (no timer
  // holds the loop, so even the load deadline cannot fire): that is a failure, never a silent exit 0.
  const neverSettled = () => {
    proc.stderr.write('sinew-verbs: a loaded module never settled (a promise with nothing left to resolve it); nothing was checked\n');
    proc.exit(2);
  };
  proc.once('beforeExit', neverSettled);

  // Exits once stdout and stderr have flushed: a module that left timers or sockets must not keep the gate running.
  const exitAfterOutput = (code: number): void => {
    proc.off('beforeExit', neverSettled);
    proc.exitCode = code;
    let pending = 2;
    const done = () => {
      if (--pending === 0) proc.exit(code);
    };
    proc.stdout.write('', done);
    proc.stderr.write('', done);
  };

  return runCli(proc.argv.slice(2), {
    out: (text) => proc.stdout.write(text),
    err: (text) => proc.stderr.write(text),
  }).then(
    (code) => exitAfterOutput(code),
    (error: unknown) => {
      proc.stderr.write(`sinew-verbs: ${describeError(error)}\n`);
      exitAfterOutput(2);
    },
  );
}
