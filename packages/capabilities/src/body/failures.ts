import type { RunnerResult } from '@sinew/executor-contracts';

export type Failure = Extract<RunnerResult, { ok: false }>;

/** A runner failure for an aborted attempt. */
export const ABORTED: Failure = { ok: false, code: 'aborted', reason: 'attempt aborted', retryable: false };

/** A runner failure from anything thrown by mineflayer. */
export function thrown(code: Failure['code'], what: string, error: unknown): Failure {
  return { ok: false, code: code ?? 'runner_error', reason: `${what}: ${error instanceof Error ? error.message : String(error)}` };
}
