import { fail, type RunnerResult } from '@sinew/executor-contracts';

export type Failure = Extract<RunnerResult, { ok: false }>;

/** A runner failure for an aborted attempt. */
export const ABORTED: Failure = fail.aborted('attempt aborted');

/** A runner failure from anything thrown by mineflayer (the code is always runner_error; call sites name it). */
export function thrown(_code: 'runner_error', what: string, error: unknown): Failure {
  return fail.runnerError(`${what}: ${error instanceof Error ? error.message : String(error)}`);
}
