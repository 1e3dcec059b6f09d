import { stepFailure, type Capability, type Intent, type PlanStep, type SafetyLevel, type StepFailure } from '@sinew/executor-contracts';
import type { ExecutorPolicy } from './policy.js';
import { safeRead } from './safe.js';

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

/** How long a plan step must still wait: the rest of the hold a self-preservation preemption left (0: dispatch now). */
export function heldWaitMs(level: SafetyLevel, rt: HeldRuntime): number {
  const until = level === 'caution' ? Math.max(rt.heldUntil, rt.cautionHeldUntil) : rt.heldUntil;
  // never held (the common case): no clock read on the step's hot path
  return until === 0 ? 0 : Math.max(0, until - rt.clock.now());
}

/** What a hold reads and writes of the executor's runtime. */
export interface HeldRuntime {
  readonly clock: { now(): number };
  /** Plain `caution` steps wait until then… */
  cautionHeldUntil: number;
  /** …every plan step until then (a hurt body sheltering: any step might walk it back into reach). */
  heldUntil: number;
}

/**
 * After a self-preservation preemption (`holdMs` given): plain caution steps (`holds: 'caution'`, the default) or every
 * plan step (`'all'`) wait `holdMs` more; a bad value (or one that throws when read) holds nothing. A hold only ever extends.
 */
export function holdBody(rt: HeldRuntime, options: unknown): void {
  const holdMs = safeRead(options, 'holdMs');
  const holds = safeRead(options, 'holds');
  if (typeof holdMs !== 'number' || !(holdMs > 0) || !Number.isFinite(holdMs)) return;
  const until = rt.clock.now() + Math.min(holdMs, MAX_HOLD_MS);
  if (holds === 'all') rt.heldUntil = Math.max(rt.heldUntil, until);
  else rt.cautionHeldUntil = Math.max(rt.cautionHeldUntil, until);
}

/** The longest hold one preemption may ask (a timer's range). */
const MAX_HOLD_MS = 2_147_483_647;
