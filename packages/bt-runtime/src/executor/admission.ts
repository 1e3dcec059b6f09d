import { describeError, IntentSchema, MAX_TIMER_MS, parsePlan, stepFailure, summarizeIssues, type Intent, type Plan, type StepFailure } from '@sinew/executor-contracts';
import { z } from 'zod';
import { stopFailure, type ExecutorLiveness } from './plan-context.js';
import { safeRead } from './safe.js';
import type { RunOptions } from './types.js';

export type Admission =
  | { readonly ok: true; readonly plan: Plan; readonly intent?: Intent }
  | { readonly ok: false; readonly ids: { readonly planId: string; readonly intentId: string }; readonly failure: StepFailure };

/** Validates a plan and its intent (any input, however hostile); refuses what must not run. Never throws. */
export function admitPlan(rt: ExecutorLiveness, input: unknown, options: RunOptions): Admission {
  const ids = { planId: safeId(input, 'planId'), intentId: safeId(input, 'intentId') };
  try {
    const stop = stopFailure(rt);
    if (stop) return { ok: false, ids, failure: stop };
    const parsed = parsePlan(input);
    if (!parsed.success) return { ok: false, ids, failure: malformed('plan', parsed.error) };
    const plan = parsed.data;
    if (options.intent === undefined) return { ok: true, plan };
    const intent = IntentSchema.safeParse(options.intent);
    if (!intent.success) return { ok: false, ids, failure: malformed('intent', intent.error) };
    const refusal = intentRefusal(intent.data, plan);
    return refusal ? { ok: false, ids: { planId: plan.planId, intentId: plan.intentId }, failure: refusal } : { ok: true, plan, intent: intent.data };
  } catch (error) {
    return { ok: false, ids, failure: stepFailure('invalid_args', `the plan cannot be read: ${describeError(error)}`) };
  }
}

/** Why an intent must not run: refused by safety, or a time budget no timer can hold. */
function intentRefusal(intent: Intent, plan: Plan): StepFailure | undefined {
  if (!intent.safety.allowed) return stepFailure('guard_failed', `intent ${intent.id} refused by safety${intent.safety.reason ? `: ${intent.safety.reason}` : ''}`);
  if (intent.timeBudgetMs !== undefined && intent.timeBudgetMs > MAX_TIMER_MS) return stepFailure('invalid_args', `intent.timeBudgetMs must be <= ${MAX_TIMER_MS} ms`);
  if (intent.id !== plan.intentId) return stepFailure('invalid_args', `plan ${plan.planId} serves intent "${plan.intentId}", not "${intent.id}"`);
  return undefined;
}

function malformed(what: string, error: z.ZodError): StepFailure {
  return stepFailure('invalid_args', `malformed ${what}:\n${z.prettifyError(error)}`, { issues: summarizeIssues(error.issues) });
}

/** An id read from user input for an outcome that refuses it (truncated; `fallback` when absent or unreadable). */
export function safeId(input: unknown, key: string, fallback = 'invalid'): string {
  const value = safeRead(input, key);
  return typeof value === 'string' && value ? value.slice(0, 256) : fallback;
}
