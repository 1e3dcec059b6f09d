import { createExecutor, type PlanOutcome } from '@sinew/bt-runtime';
import { observeWorld, type SinewBot } from '@sinew/capabilities';
import { IntentSchema, type CapabilityRegistry } from '@sinew/executor-contracts';
import { DEFAULT_SAFETY_RULES, planFailure, screenIntent, type Planner, type PlanResult, type PlannerWorld, type SafetyRules } from '@sinew/planners';

export interface PlanAndRunOptions {
  readonly body: SinewBot;
  readonly registry: CapabilityRegistry<SinewBot>;
  readonly planner: Planner<PlannerWorld>;
  /** What the user asked for, in words. */
  readonly goal: string;
  /** The input filter's rules (default `DEFAULT_SAFETY_RULES`): a refused goal is never planned. */
  readonly safety?: SafetyRules;
}

/** Asks the planner for a plan toward `goal` from what the bot sees, then runs it through the executor. */
export async function planAndRun(options: PlanAndRunOptions): Promise<{ planned: PlanResult; outcome?: PlanOutcome }> {
  const { body, registry, planner } = options;
  const suggested = IntentSchema.parse({ id: `goal-${Date.now()}`, source: 'user', goal: options.goal, urgency: 0.5 });
  const intent = screenIntent(options.safety ?? DEFAULT_SAFETY_RULES, suggested);
  if (!intent.safety.allowed) return { planned: planFailure('input_filter', 'refused', `"${intent.goal}" refused: ${intent.safety.reason}`) };
  const planned = await planner.plan(intent, observeWorld(body));
  if (!planned.ok) return { planned };
  const executor = createExecutor({ registry, body });
  try {
    return { planned, outcome: await executor.run(planned.plan, { intent }) };
  } finally {
    await executor.close();
  }
}
