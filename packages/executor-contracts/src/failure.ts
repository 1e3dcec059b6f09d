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

/** Summarizes zod issues into plain, serializable records (path, code, message). Never throws. */
export function summarizeIssues(issues: readonly z.core.$ZodIssue[]): ZodIssueSummary[] {
  try {
    return Array.from(issues, (issue) => ({
      path: Array.from(issue.path, (segment) => (typeof segment === 'number' ? segment : describeValue(segment))),
      code: describeValue(issue.code),
      message: describeValue(issue.message),
    }));
  } catch (error) {
    return [{ path: [], code: 'custom', message: `issues could not be read: ${describeError(error)}` }];
  }
}

const MAX_DESCRIPTION = 2_000;

/**
 * Human-readable message of anything thrown. Never throws: a throwing `message` getter, a revoked
 * Proxy, `Object.create(null)`, a cyclic object or a BigInt each get a safe description.
 */
export function describeError(error: unknown): string {
  try {
    if (error instanceof Error) {
      const message: unknown = error.message;
      return typeof message === 'string' ? clip(message) : describeValue(message);
    }
  } catch {
    // A revoked Proxy throws on instanceof; a hostile Error throws from its message getter.
  }
  return describeValue(error);
}

/** A short, safe text for any value (strings as they are); never throws. */
export function describeValue(value: unknown): string {
  try {
    if (typeof value === 'string') return clip(value);
    if (typeof value !== 'object' && typeof value !== 'function') return String(value);
    if (value === null) return 'null';
    const json = JSON.stringify(value);
    return json === undefined ? `a ${typeof value}` : clip(json);
  } catch {
    return unreadable(value);
  }
}

function unreadable(value: unknown): string {
  try {
    return `${Object.prototype.toString.call(value)} (not serialisable)`;
  } catch {
    return typeof value === 'function' ? 'an unreadable function' : 'an unreadable object (revoked proxy?)';
  }
}

function clip(text: string): string {
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION)}… (${text.length} characters)` : text;
}
