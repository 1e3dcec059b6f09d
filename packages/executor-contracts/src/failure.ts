import type { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from './codes.js';
import type { StepFailure, ZodIssueSummary } from './schemas.js';

/** Builds a coded failure; `retryable` comes from the code table unless `extra` overrides it. */
export function stepFailure(
  code: ErrorCode,
  reason: string,
  extra: Partial<Omit<StepFailure, 'code' | 'reason'>> = {},
): StepFailure {
  return { code, reason, retryable: ERROR_CODES[code].retryable, ...extra };
}

/** Summarizes zod issues into plain, serializable records (path, code, message). */
export function summarizeIssues(issues: readonly z.core.$ZodIssue[]): ZodIssueSummary[] {
  return issues.map((issue) => ({
    path: issue.path.map((segment) => (typeof segment === 'symbol' ? String(segment) : segment)),
    code: issue.code,
    message: issue.message,
  }));
}

/** Human-readable message of anything thrown. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  try {
    return typeof error === 'string' ? error : JSON.stringify(error) ?? String(error);
  } catch {
    return Object.prototype.toString.call(error);
  }
}
