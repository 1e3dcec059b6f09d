import { CapabilityRetrySchema, ConfigError, RETRY_POLICY_DEFAULTS, RetryPolicySchema, summarizeIssues, timerMsSchema as deadline, type Backoff } from '@sinew/executor-contracts';
import { z } from 'zod';
import type { Clock, TimerHandle } from '../clock/clock.js';
import { stopFailure, type ExecutorLiveness, type PlanContext } from './plan-context.js';

const count = (what: string) => z.number().int({ error: `${what} must be an integer` }).nonnegative({ error: `${what} must be >= 0` });

/** Per-verb overrides of the watchdog deadlines. */
export const CapabilityPolicySchema = z.strictObject({
  ttfaMs: deadline('ttfaMs').optional(),
  stuckMs: deadline('stuckMs').optional(),
  timeoutMs: deadline('timeoutMs').optional(),
});

/**
 * The executor policy, validated when built (like Temporal's RetryPolicy): deadlines, retries,
 * backoff, preemption bound. Every field has a documented default.
 */
export const ExecutorPolicySchema = z
  .strictObject({
    /** A1: time from dispatch to the first actuator command. */
    ttfaMs: deadline('ttfaMs').default(2000),
    /** A4: longest gap without an actuator command, BT node transition or `progress()`. */
    stuckMs: deadline('stuckMs').default(3000),
    /** I2: attempt timeout = expectedDurationMs × this multiplier. */
    timeoutMultiplier: z.number().min(1, { error: 'timeoutMultiplier must be >= 1' }).finite().default(3),
    /** I2: attempt timeout when neither the step nor the capability declares expectedDurationMs. */
    defaultTimeoutMs: deadline('defaultTimeoutMs').default(30_000),
    /** How long a runner may ignore an abort before it is abandoned and its late result dropped. */
    abortGraceMs: deadline('abortGraceMs').default(1000),
    /** A3: local retries of a retryable failure before escalating to repair (the schema lives in contracts). */
    maxLocalRetries: RetryPolicySchema.shape.maxLocalRetries.default(RETRY_POLICY_DEFAULTS.maxLocalRetries),
    /** Backoff before local retry n: min(initial × factor^(n-1), max); any part given, the rest from the defaults. */
    backoff: CapabilityRetrySchema.shape.backoff
      .unwrap()
      .prefault({})
      .transform((given): Backoff => ({ ...RETRY_POLICY_DEFAULTS.backoff, ...given })),
    /** How long the repair hook may take to answer before the plan fails with the step's code. */
    repairTimeoutMs: deadline('repairTimeoutMs').default(60_000),
    /** Repairs (replacement step batches) one plan may receive. */
    maxRepairsPerPlan: count('maxRepairsPerPlan').default(3),
    /** Times one step may be interrupted by preemption and resumed before it ends `preempted`. */
    maxResumes: count('maxResumes').default(3),
    /** Completed idempotency keys remembered (oldest forgotten first). */
    idempotencyCapacity: z.number().int().positive({ error: 'idempotencyCapacity must be > 0' }).default(10_000),
    /** Actuator commands kept in each provenance record's trace. */
    traceLimit: z.number().int().positive().default(200),
    /** Grants every plan's `restricted` steps (default false: only an intent with `safety.allowRestricted` runs them). */
    allowRestricted: z.boolean().default(false),
    /** Per-verb deadline overrides. */
    capabilities: z.record(z.string(), CapabilityPolicySchema).default({}),
  })
  .check((ctx) => {
    const { backoff } = ctx.value;
    if (backoff.maxMs < backoff.initialMs) {
      ctx.issues.push({ code: 'custom', input: backoff, path: ['backoff', 'maxMs'], message: 'backoff.maxMs must be >= backoff.initialMs' });
    }
  });

export type ExecutorPolicy = z.output<typeof ExecutorPolicySchema>;
export type ExecutorPolicyInput = z.input<typeof ExecutorPolicySchema>;

/** An executor policy that `defineExecutorPolicy` refused: a {@link ConfigError} (`where: 'executor.policy'`) naming each bad field. */
export class PolicyError extends ConfigError {
  override name = 'PolicyError';
}

/** Validates and fills in a policy; throws a PolicyError naming each bad field. */
export function defineExecutorPolicy(input: ExecutorPolicyInput = {}): ExecutorPolicy {
  const parsed = ExecutorPolicySchema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new PolicyError('executor.policy', summarizeIssues(parsed.error.issues), `invalid executor policy:\n${z.prettifyError(parsed.error)}`);
}

/** Backoff before local retry `retry` (1-based): the policy's, with a capability's overrides field by field. */
export function backoffMs(policy: ExecutorPolicy, retry: number, override?: Partial<Backoff>): number {
  const { initialMs, factor, maxMs } = { ...policy.backoff, ...override };
  return Math.min(initialMs * factor ** Math.max(0, retry - 1), maxMs);
}

/** Why a backoff wait ended. */
export type Wake = 'elapsed' | 'preempted' | 'aborted';

/** Waits `ms` on `clock`; `signal` cuts it short (`aborted`), and so does the function handed to `setWake` (cleared when the wait ends). */
export function backoffWait(clock: Clock, ms: number, signal: AbortSignal | undefined, setWake: (wake: ((how: Wake) => void) | undefined) => void): Promise<Wake> {
  return new Promise((resolve) => {
    const finish = (how: Wake) => {
      clock.clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      setWake(undefined);
      resolve(how);
    };
    const onAbort = () => finish('aborted');
    setWake(finish);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer: TimerHandle = clock.setTimeout(() => finish('elapsed'), ms);
  });
}

/** A step's backoff (A3): over at once when a preemption already waits (`takenOver`) or the plan must stop, else a wait that either cuts short. */
export function stepBackoff(call: { readonly rt: ExecutorLiveness & { readonly clock: Clock }; readonly planCtx: PlanContext }, takenOver: boolean, ms: number, setWake: (wake: ((how: Wake) => void) | undefined) => void): Promise<Wake> {
  const { rt, planCtx } = call;
  if (takenOver) return Promise.resolve('preempted');
  if (planCtx.signal?.aborted || stopFailure(rt, planCtx)) return Promise.resolve('aborted');
  return backoffWait(rt.clock, ms, planCtx.signal, setWake);
}
