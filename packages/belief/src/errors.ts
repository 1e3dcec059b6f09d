import type { z } from 'zod';

/** Codes of the belief package's errors (values, never thrown across the public API except by constructors). */
export type BeliefErrorCode = 'invalid_config' | 'invalid_evidence' | 'tick_not_monotonic' | 'listener_error';

/** One problem found in belief input: where and what. */
export interface BeliefIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** A structured belief error: which field, what was expected, what arrived. */
export interface BeliefError {
  readonly code: BeliefErrorCode;
  readonly message: string;
  readonly issues: readonly BeliefIssue[];
}

/** Thrown only by factories given a bad config (a bad policy is rejected when it is built). */
export class BeliefConfigError extends Error {
  readonly code = 'invalid_config' as const;
  constructor(readonly issues: readonly BeliefIssue[]) {
    super(`invalid belief config: ${issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
    this.name = 'BeliefConfigError';
  }
}

export function issuesOf(error: z.ZodError): BeliefIssue[] {
  return error.issues.map((i) => ({ path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), message: i.message }));
}
