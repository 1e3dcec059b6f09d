import type { ActuatorSource } from '../body/instrument.js';
import { btState } from '../metrics/metrics.js';
import type { AttemptOptions } from './attempt-result.js';

/** An attempt's first actuator command: its TTFA observed, and `step.first_action` told to whoever listens. */
export function reportFirstAction(o: AttemptOptions<ActuatorSource>, command: string, ttfaMs: number, at: number): void {
  const { rt, ref, info } = o;
  rt.report.ttfa(o.capability).observe(ttfaMs / 1000);
  // Literals, not `{ ...ref }`: a spread copy was a tenth of a listened step's CPU.
  if (rt.events.has('step.first_action')) rt.events.emit('step.first_action', { planId: ref.planId, stepId: ref.stepId, verb: ref.verb, command, ttfaMs, attempt: info.attempt, at });
}

/** A behavior tree's node transition during an attempt: counted, and `bt.transition` told to whoever listens. */
export function reportTransition(o: AttemptOptions<ActuatorSource>, nodePath: string, state: string | undefined): void {
  const { rt, ref, info } = o;
  rt.metrics.btTransitions.inc({ capability: o.capability.name, state: btState(state) });
  if (rt.events.has('bt.transition')) rt.events.emit('bt.transition', { planId: ref.planId, stepId: ref.stepId, verb: ref.verb, attempt: info.attempt, nodePath, state: state ?? '' });
}
