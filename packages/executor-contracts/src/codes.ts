import { z } from 'zod';

/**
 * Every way a step can fail, one closed union. `retryable` says whether the executor may retry the
 * step locally (A3) before escalating to the planner's repair hook.
 */
export const ERROR_CODES = {
  unknown_verb: { retryable: false, summary: 'the step names a verb no registered capability provides (V1, FM-01)' },
  invalid_args: { retryable: false, summary: 'the step or its args failed schema validation (V2)' },
  guard_failed: { retryable: false, summary: 'the capability guard refused the step (V3)' },
  precond_missing: { retryable: false, summary: 'a precondition is missing; a planner can subgoal it (FM-02)' },
  ttfa_exceeded: { retryable: true, summary: 'no actuator command before the time-to-first-action deadline (A1)' },
  stuck: { retryable: true, summary: 'no actuator command, node transition or progress for too long (A4, FM-03)' },
  timeout: { retryable: true, summary: 'the attempt ran past its deadline (I2)' },
  effects_unmet: { retryable: true, summary: 'the runner finished but acceptance saw no world change (V4)' },
  preempted: { retryable: false, summary: 'a safety request took over the body' },
  aborted: { retryable: false, summary: 'the plan was cancelled by its caller' },
  duplicate: { retryable: false, summary: 'the idempotency key already completed; the recorded outcome is returned (FM-05)' },
  body_disconnected: { retryable: false, summary: 'the body went away (bot kicked, server closed)' },
  runner_error: { retryable: true, summary: 'the runner threw, rejected or reported a failure' },
  journal_unavailable: { retryable: false, summary: 'the plan journal could not record a plan or step (disk full, file-size limit, I/O error): a restart may run it again' },
} as const satisfies Record<string, { retryable: boolean; summary: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** zod schema of the closed error-code union. */
export const ErrorCodeSchema = z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]);

/** Whether the executor may retry a failure with this code locally. */
export function isRetryable(code: ErrorCode): boolean {
  return ERROR_CODES[code].retryable;
}
