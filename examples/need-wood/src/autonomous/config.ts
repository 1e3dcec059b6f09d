import type { CapabilityRegistry } from '@sinew/executor-contracts';
import { COGNITION_LOOP_EXAMPLE, loadCognitionConfig, loadCognitionLoopConfig, planOutputSchema, type CognitionConfig, type CognitionEvent, type CognitionLoopConfig } from '@sinew/planners';
import type { ScriptedAnswer } from './scripted-model.js';

/** The loop's signal weights for the demo: a new day, nightfall and a finished plan are worth a thought, a snapshot never is; a person's ask, hunger and nightfall are urgent enough to take over a running plan at its next safe point. */
export function loopConfig(): CognitionLoopConfig {
  return orThrow(
    loadCognitionLoopConfig({
      ...COGNITION_LOOP_EXAMPLE,
      gate: { ...COGNITION_LOOP_EXAMPLE.gate, cooldownMs: 1_000 },
      // A finished or failed plan is a moment to choose again (pickaxe → sword → …, a preempted hut resumed); when no real
      // choice is left the gate stays shut.
      salience: { ...COGNITION_LOOP_EXAMPLE.salience, body: { ...COGNITION_LOOP_EXAMPLE.salience.body, food_low: 0.8, food_critical: 1, day: 0.9, night: 0.8 }, outcome: { completed: 1, failed: 0.9 } },
      energy: { windowMs: 60_000, perThought: 0.05 },
      urgentAt: 0.6,
      suggestionUrgency: 0.7,
    }),
  );
}

/** The model planner's prompts and reply schema (from the registry); the loop gates, so its own gate is opened wide. */
export function llmConfig(registry: Pick<CapabilityRegistry, 'toolDefinitions'>): CognitionConfig {
  return orThrow(
    loadCognitionConfig({
      system: 'You plan for a Minecraft bot. Reply with one JSON object matching the schema. Use only the listed verbs. Never set numeric state.',
      userTemplate: 'Intent:\n{intent}\n\nWorld:\n{world}\n\nVerbs:\n{verbs}',
      correctiveTemplate: 'Your previous reply was rejected: {complaint}\nReturn a corrected JSON object.',
      outputSchema: planOutputSchema(registry),
      retryBudget: 1,
      completeTimeoutMs: 10_000,
      gate: { threshold: 0, weights: { salience: 1, drivePressure: 0, arcHot: 0, relStakes: 0, fatigue: 0 }, cooldownMs: 0, trivialEvents: [] },
    }),
  );
}

/** What the scripted model answers, by what the prompt asks. */
export const MODEL_SCRIPT: readonly ScriptedAnswer[] = [
  { when: /goal: .*\bwood\b/i, rationale: 'the player wants wood: gather a couple of logs', steps: [{ verb: 'gather', args: { block: 'log', count: 2 } }] },
  { when: /goal: /, rationale: 'nothing better to do: say so', steps: [{ verb: 'chat', args: { message: 'standing by' } }] },
];

/** One decision as a monologue line. */
export function describeDecision(event: CognitionEvent): string {
  switch (event.type) {
    case 'cognition.gate':
      return `gate     ${event.think ? 'OPEN  ' : 'closed'} ${event.signal.eventType} M=${event.meaningfulness.toFixed(2)}${event.think ? '' : ` (${event.blocked.join(', ')})`}`;
    case 'cognition.route':
      return `route    "${event.goal}" → ${event.chosen ?? 'none'}`;
    case 'cognition.plan':
      return `plan     ${event.planner}: ${event.verbs.join(' → ')}`;
    case 'cognition.no_plan':
      return `no plan  ${event.code}: ${event.reason.slice(0, 120)}`;
    case 'cognition.refused':
      return `REFUSED  ${event.stage}${event.rule ? ` [${event.rule}]` : ''}: ${event.reason.slice(0, 120)}`;
    case 'cognition.busy':
      return `busy     "${event.goal}" waits: ${event.reason}`;
    case 'cognition.outcome':
      return `outcome  ${event.planId} ${event.status}${event.code ? ` (${event.code})` : ''}`;
  }
}

function orThrow<T>(loaded: { ok: true; config: T } | { ok: false; error: { message: string } }): T {
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.config;
}
