import { z } from 'zod';

/** Longest delay a timer holds: Node fires larger ones after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A delay in milliseconds that a timer can hold (> 0, <= MAX_TIMER_MS), errors naming `what`.
 * @internal shared by the retry policy here and the executor policy in @sinew/bt-runtime.
 */
export function timerMsSchema(what: string) {
  return z
    .number({ error: `${what} must be a number of milliseconds` })
    .positive({ error: `${what} must be > 0 ms (a zero or negative deadline would never let a step act)` })
    .max(MAX_TIMER_MS, { error: `${what} must be <= ${MAX_TIMER_MS} ms (a longer timer would fire at once)` });
}

const BackoffFields = z.strictObject({
  initialMs: timerMsSchema('backoff.initialMs'),
  factor: z.number({ error: 'backoff.factor must be a number' }).min(1, { error: 'backoff.factor must be >= 1' }).finite(),
  maxMs: timerMsSchema('backoff.maxMs'),
}, { error: 'backoff must be an object' });

/** A backoff whose cap is below its first wait is a mistake, whichever fields were given. */
function backoffOrder(ctx: z.core.ParsePayload<{ initialMs?: number | undefined; maxMs?: number | undefined }>): void {
  const { initialMs, maxMs } = ctx.value;
  if (initialMs !== undefined && maxMs !== undefined && maxMs < initialMs) {
    ctx.issues.push({ code: 'custom', input: ctx.value, path: ['maxMs'], message: 'backoff.maxMs must be >= backoff.initialMs' });
  }
}

/** Backoff before local retry n: min(initialMs × factor^(n-1), maxMs). */
export const BackoffSchema = BackoffFields.check(backoffOrder);
export type Backoff = z.infer<typeof BackoffSchema>;

/**
 * The retry fields of the executor policy (A3): how many local retries of a retryable failure before
 * escalating to repair, and the backoff between them. `@sinew/bt-runtime`'s `ExecutorPolicySchema` is
 * built from it; a capability overrides any of its fields (`CapabilityRetrySchema`).
 */
export const RetryPolicySchema = z.strictObject({
  maxLocalRetries: z
    .number({ error: 'maxLocalRetries must be a number' })
    .int({ error: 'maxLocalRetries must be an integer' })
    .nonnegative({ error: 'maxLocalRetries must be >= 0' })
    .max(10, { error: 'maxLocalRetries must be <= 10' }),
  backoff: BackoffSchema,
});
export type RetryPolicy = z.infer<typeof RetryPolicySchema>;

/** The documented defaults of the retry policy (frozen: every executor starts from them). */
export const RETRY_POLICY_DEFAULTS: Readonly<RetryPolicy> = Object.freeze({
  maxLocalRetries: 2,
  backoff: Object.freeze({ initialMs: 250, factor: 2, maxMs: 5000 }),
});

/**
 * A capability's retry overrides: a partial of `RetryPolicySchema` (backoff fields one by one); a field
 * left out comes from the executor policy, and `maxLocalRetries` never exceeds the executor's.
 */
export const CapabilityRetrySchema = RetryPolicySchema.extend({ backoff: BackoffFields.partial().check(backoffOrder) }).partial().strict();
export type CapabilityRetry = z.infer<typeof CapabilityRetrySchema>;
