import { stepFailure, type Capability, type Intent, type PlanStep, type SafetyLevel, type StepFailure } from '@sinew/executor-contracts';
import type { ExecutorPolicy } from './policy.js';

const RANK: Readonly<Record<SafetyLevel, number>> = { safe: 0, caution: 1, restricted: 2 };

/** A step's safety level: the stricter of the step's own and its capability's (a plan cannot make `flee` safer than it is). */
export function effectiveSafetyLevel(step: PlanStep, capability: Capability<never>): SafetyLevel {
  const own = step.safetyLevel ?? 'safe';
  return RANK[own] >= RANK[capability.safetyLevel] ? own : capability.safetyLevel;
}

/** `restricted` runs only under an explicit grant: the policy's `allowRestricted` or the intent's `safety.allowRestricted`. */
export function restrictedRefusal(level: SafetyLevel, policy: ExecutorPolicy, intent: Intent | undefined): StepFailure | undefined {
  if (level !== 'restricted' || policy.allowRestricted || intent?.safety.allowRestricted === true) return undefined;
  return stepFailure('guard_failed', 'safetyLevel restricted: not granted (set executor policy allowRestricted or intent safety.allowRestricted)', { retryable: false });
}

/**
 * Intent urgency → the priority of its plan's steps that set none (the slot serves higher first; a higher
 * one takes over from a lower one at its next safe point, which resumes after). Upper bounds exclusive.
 */
export const URGENCY_PRIORITY: readonly { readonly atLeast: number; readonly priority: number; readonly name: string }[] = [
  { atLeast: 0.9, priority: 3, name: 'critical' },
  { atLeast: 0.7, priority: 2, name: 'urgent' },
  { atLeast: 0.4, priority: 1, name: 'normal' },
  { atLeast: 0, priority: 0, name: 'routine' },
];

/** The step's rank in the slot: its own `priority`, else its intent's urgency through `URGENCY_PRIORITY`, else 0. */
export function stepRank(step: PlanStep, intent: Intent | undefined): number {
  if (step.priority !== undefined) return step.priority;
  if (intent === undefined) return 0;
  return URGENCY_PRIORITY.find((row) => intent.urgency >= row.atLeast)?.priority ?? 0;
}

/** How long a plain `caution` step must still wait: the rest of the self-preservation hold a preemption left (0: dispatch now). */
export function cautionWaitMs(level: SafetyLevel, rt: { readonly clock: { now(): number }; readonly cautionHeldUntil: number }): number {
  return level === 'caution' ? Math.max(0, rt.cautionHeldUntil - rt.clock.now()) : 0;
}

/** After a self-preservation preemption (`holdMs` given): plain caution steps wait `holdMs` more (a bad value holds nothing). */
export function holdCaution(rt: { readonly clock: { now(): number }; cautionHeldUntil: number }, holdMs: unknown): void {
  if (typeof holdMs !== 'number' || !(holdMs > 0) || !Number.isFinite(holdMs)) return;
  rt.cautionHeldUntil = Math.max(rt.cautionHeldUntil, rt.clock.now() + Math.min(holdMs, MAX_HOLD_MS));
}

/** The longest hold one preemption may ask (a timer's range). */
const MAX_HOLD_MS = 2_147_483_647;
