import type { GateDecision, GateSignal } from '../llm/gate.js';

/** What every decision event carries: its order in the loop, the tick of the input, and a hash of what it was decided from. */
export interface DecisionStamp {
  readonly seq: number;
  readonly tick: number;
  /** `sha256:` (16 hex) of the canonical JSON of the input, the world it was judged in and the loop's state. */
  readonly inputHash: string;
}

/** Where a refusal happened: a malformed input, the input filter, the router's constitutional check, the world could not be read, or a collaborator threw. */
export type RefusalStage = 'invalid_input' | 'input_filter' | 'constitution' | 'observe_failed' | 'loop_error';

/** The inner monologue (seeds/000): one event per decision, each with its tick and input hash. */
export type CognitionEvent = DecisionStamp &
  (
    | ({ readonly type: 'cognition.gate'; readonly signal: GateSignal } & Pick<GateDecision, 'think' | 'meaningfulness' | 'blocked' | 'reason'>)
    | { readonly type: 'cognition.refused'; readonly stage: RefusalStage; readonly rule?: string; readonly reason: string; readonly intentId?: string }
    | { readonly type: 'cognition.busy'; readonly intentId: string; readonly goal: string; readonly plansInFlight: number; readonly reason: string }
    | { readonly type: 'cognition.route'; readonly intentId: string; readonly goal: string; readonly urgency: number; readonly chosen: string | undefined; readonly reason: string }
    | { readonly type: 'cognition.plan'; readonly intentId: string; readonly planner: string; readonly planId: string; readonly verbs: readonly string[] }
    | { readonly type: 'cognition.no_plan'; readonly intentId: string; readonly code: string; readonly reason: string }
    | { readonly type: 'cognition.outcome'; readonly planId: string; readonly status: string; readonly code?: string; readonly reason: string }
  );

/** The name of a cognition event. */
export type CognitionEventType = CognitionEvent['type'];

/** Every cognition event name (what a stream or inspector forwards). */
export const COGNITION_EVENT_TYPES = [
  'cognition.gate',
  'cognition.refused',
  'cognition.busy',
  'cognition.route',
  'cognition.plan',
  'cognition.no_plan',
  'cognition.outcome',
] as const satisfies readonly CognitionEventType[];

/** `rule: reason` (the input filter's `safety.reason`, the router's refusal) split into its rule and reason. */
export function splitRule(text: string): { rule?: string; reason: string } {
  const match = /(?:^|refused: )([a-z_]+(?:\.[a-z_]+)*): (.*)$/s.exec(text);
  return match ? { rule: match[1]!, reason: match[2]! } : { reason: text };
}
