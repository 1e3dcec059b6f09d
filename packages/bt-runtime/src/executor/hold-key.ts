import { describeError, stepFailure, type StepFailure, type StepOutcome } from '@sinew/executor-contracts';
import type { ActuatorSource } from '../body/instrument.js';
import type { CanaryTrials, Trial } from './canary.js';
import { answerDuplicate, settled, whenDurable, type IdempotencyEntry, type IdempotencyStore, type InFlight } from './idempotency.js';
import type { StepRunOptions } from './runtime.js';
import { StepRun } from './step-run.js';

/** What a step's key is held with: the idempotency store and the canary trials. */
export interface KeyHolders<Body extends ActuatorSource> {
  readonly idempotency: IdempotencyStore;
  readonly canaries: CanaryTrials<Body>;
}

/**
 * The key's answer (known here, claimed from a shared journal, or none), then the step's own run holding the key:
 * a duplicate is answered, a refusal ends the step, else the step runs (as a canary trial when one is due).
 */
export function holdKey<Body extends ActuatorSource>(keys: KeyHolders<Body>, run: StepRunOptions<Body>, known: IdempotencyEntry | StepFailure | undefined): StepOutcome | Promise<StepOutcome> {
  const { rt, planCtx, step, capability, args, key, startedAt } = run;
  if (known) {
    const base = { planCtx, stepId: step.stepId, verb: step.type, capability, key, args, startedAt };
    if ('code' in known) return rt.report.end({ ...base, status: 'failed', failure: known, attempts: 0 });
    if (known.state === 'completed' || planCtx.preemptReason === undefined) return answerDuplicate(rt, base, known);
    // The in-flight attempt may be the very step this preemption interrupted: joining it would deadlock.
    const failure = stepFailure('duplicate', `idempotency key "${key}" is in flight in the interrupted step; not dispatched again`);
    return rt.report.end({ ...base, status: 'failed', failure, attempts: 0 });
  }
  const flight = keys.idempotency.begin(key, planCtx.preemptReason === undefined);
  let trial: Trial<Body> | undefined;
  try {
    // The canary is decided before the step's machine starts; the common case has none.
    trial = keys.canaries.decide(run);
  } catch (error) {
    return broken(run, flight, error);
  }
  // The common case: the step's run settles its key as it ends (it never rejects), so no async frame of ours waits on it.
  if (!trial) return whenDurable(flight, new StepRun(run, flight).run());
  return keys.canaries.runTrial(trial, run).then(
    (outcome) => settled(flight.end(outcome), outcome),
    (error: unknown) => broken(run, flight, error),
  );
}

/** A bug on the canary path still ends the step with a code (A2), and its key is released, never left in flight. */
function broken<Body extends ActuatorSource>(run: StepRunOptions<Body>, flight: InFlight, error: unknown): StepOutcome | Promise<StepOutcome> {
  const failure = stepFailure('runner_error', `executor error: ${describeError(error)}`);
  const { rt, planCtx, step, capability, key, args, startedAt } = run;
  const outcome = rt.report.end({ planCtx, stepId: step.stepId, verb: step.type, capability, key, args, status: 'failed', failure, attempts: 0, startedAt });
  return settled(flight.end(outcome), outcome);
}
