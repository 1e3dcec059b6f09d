import { ConfigError } from '@sinew/executor-contracts';
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

/**
 * Thrown only by factories given a bad config (a bad policy is rejected when it is built): a
 * {@link ConfigError} (`where: 'belief'`, code `invalid_config`) like every package's bad-option error.
 */
export class BeliefConfigError extends ConfigError {
  override name = 'BeliefConfigError';
  constructor(issues: readonly (BeliefIssue & { readonly code?: string })[]) {
    const summaries = issues.map((i) => ({ path: [...i.path], code: i.code ?? 'custom', message: i.message }));
    super('belief', summaries, `invalid belief config: ${issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  }
}

export function issuesOf(error: z.ZodError): (BeliefIssue & { readonly code: string })[] {
  return error.issues.map((i) => ({ path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), code: i.code, message: i.message }));
}
