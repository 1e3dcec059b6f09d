import type { StepFailure, StepOutcome } from '@sinew/executor-contracts';
import type { ActuatorSource } from '../body/instrument.js';
import { Attempt } from './attempt.js';
import { attemptLimits, type AttemptReceiver, type ObservedPre, type StepScope } from './attempt-result.js';
import { capLabel } from './plan-context.js';
import type { takeBaseline } from './predicates.js';
import type { StepRunOptions } from './runtime.js';
import type { StepRef } from './types.js';

/** What a step's run() promise resolves with: its outcome, or the promise of it. */
export type SettleOutcome = (outcome: StepOutcome | Promise<StepOutcome>) => void;

/** The resolve function of the latest `new Promise(handOver)` (a promise's executor runs at once): a promise per step, no closure per step. */
export let handedOver: SettleOutcome | undefined;
export const handOver = (resolve: SettleOutcome): void => void (handedOver = resolve);

/** The step an attempt is of, as it dispatches one: the attempt's number, the step's trace, the evaluator's baseline; told the attempt's end. */
export interface AttemptOf extends AttemptReceiver {
  readonly ref: StepRef;
  readonly attempt: number;
  readonly scope: StepScope;
  readonly baseline: ReturnType<typeof takeBaseline> | undefined;
  /** The `pre` of the attempt a preemption interrupted, which this one continues from. */
  readonly resumedPre: ObservedPre | undefined;
  /** The guard a resume failed: the attempt only checks acceptance against `resumedPre` (nothing is dispatched). */
  readonly acceptOnly: StepFailure | undefined;
}

/** guarding → observing: the step's next attempt, made the target of the actuator pulse; the step starts it once it holds it. */
export function newAttempt<Body extends ActuatorSource>(run: StepRunOptions<Body>, of: AttemptOf): Attempt<Body> {
  const { rt, planCtx, capability, args, step, predicates } = run;
  const { ref, attempt: number, scope, baseline, resumedPre, acceptOnly } = of;
  if (acceptOnly === undefined && rt.events.has('step.dispatched')) rt.events.emit('step.dispatched', { planId: ref.planId, stepId: ref.stepId, verb: ref.verb, capability: capLabel(capability), attempt: number });
  const info = { planId: ref.planId, stepId: ref.stepId, verb: capability.name, version: capability.version, attempt: number };
  const limits = attemptLimits(rt.policy, capability, step);
  const effects = rt.predicates && predicates.effects.length > 0 ? { evaluator: rt.predicates, list: predicates.effects, baseline: baseline?.ok ? baseline.value : undefined } : undefined;
  const attempt = new Attempt<Body>({ rt, planCtx, ref, capability, args, info, scope, limits, effects, resumedPre, acceptOnly }, of);
  rt.pulse.target = attempt;
  return attempt;
}
