import type { Intent } from '@sinew/executor-contracts';
import { planFailure, type PlanResult } from '../contract.js';
import { judgePlan, screenIntent, type SafetyRules } from './rules.js';

/** Before any planner runs: the intent through the input filter; a refused one is a `refused` failure (no tokens spent). */
export function refuseUnsafeIntent(rules: SafetyRules, input: Intent): { intent: Intent; refusal?: PlanResult } {
  const intent = screenIntent(rules, input);
  if (intent.safety.allowed) return { intent };
  return { intent, refusal: planFailure('router', 'refused', `intent ${intent.id} refused before planning: ${intent.safety.reason ?? 'safety.allowed is false'}`) };
}

/** After a planner answers: the plan through the constitutional check; a forbidden step refuses the whole plan, naming the rule. */
export function refuseUnsafePlan(rules: SafetyRules, result: PlanResult): PlanResult {
  if (!result.ok) return result;
  const verdict = judgePlan(rules, result.plan);
  if (verdict.allowed) return result;
  return planFailure('router', 'refused', `plan ${result.plan.planId} from ${result.planner} refused: ${verdict.rule}: ${verdict.reason}`);
}
