import { runCli } from '../src/gate/cli.js';

/** The fixture projects, relative to the repo root (the working directory of every run, as in CI). */
export const F = 'packages/executor-contracts/test/fixtures';
export const TIMEOUT = 30_000;

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The `sinew-verbs` CLI in-process (for the many usage errors; cli.test.ts's subprocess tests prove the bin wiring). */
export async function inProcess(...args: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { out: (text) => void (stdout += text), err: (text) => void (stderr += text) });
  return { code, stdout, stderr };
}
