import { checkArgs, checkStep, describeError, PlanStepSchema, runGuard, stepFailure, type Capability, type CapabilityRegistry, type PlanStep, type SafetyLevel, type StepCheck, type StepFailure } from '@sinew/executor-contracts';
import type { ActuatorSource } from '../body/instrument.js';
import { declaredPrecondsFailure, type takeBaseline } from './predicates.js';
import type { StepRunOptions } from './runtime.js';
import { restrictedRefusal } from './safety-level.js';

/** V1 + V2's answer; a refusal of a verb that resolved names the capability it resolved to (its metrics label). */
export type Checked<Body> = StepCheck<Body> | { readonly ok: false; readonly failure: StepFailure; readonly capability: Capability<Body> };

/** V1 + V2 of any step value (`shapeChecked`: PlanSchema already passed it); a value that throws when read is invalid_args. Never throws. */
export function checkStepValue<Body>(registry: CapabilityRegistry<Body>, rawStep: unknown, shapeChecked: boolean): Checked<Body> {
  try {
    if (shapeChecked) return quickCheck(registry, rawStep as PlanStep);
    const shape = PlanStepSchema.safeParse(rawStep);
    // A malformed step gets checkStep's explanation (unknown keys named); a well-formed one resolves once.
    return shape.success ? quickCheck(registry, shape.data) : checkStep(registry, rawStep);
  } catch (error) {
    return { ok: false, failure: stepFailure('invalid_args', `the step cannot be read: ${describeError(error)}`) };
  }
}

/** V1 + V2 for a step whose shape is known good; resolves once (alias uses are counted once). */
function quickCheck<Body>(registry: CapabilityRegistry<Body>, step: PlanStep): Checked<Body> {
  const resolution = registry.resolve(step.type, step.capabilityVersion);
  if (!resolution.ok) return checkStep(registry, step);
  const { capability, alias } = resolution;
  const parsed = checkArgs(capability, step.args);
  if (!parsed.ok) return { ok: false, failure: parsed.failure, capability };
  return alias ? { ok: true, step, capability, args: parsed.args, alias } : { ok: true, step, capability, args: parsed.args };
}

/** V3 before every attempt (a resumed step re-guards): the grant a restricted step needs, the capability's guard (runGuard never throws: contracts), then the step's declared preconds on its baseline. */
export function guardFailure<Body extends ActuatorSource>(run: StepRunOptions<Body>, level: SafetyLevel, step: { baseline: ReturnType<typeof takeBaseline> | undefined }): StepFailure | undefined {
  const { rt, planCtx, capability, args, predicates } = run;
  return restrictedRefusal(level, rt.policy, planCtx.intent) ?? runGuard(capability, { body: rt.body }, args) ?? declaredPrecondsFailure(rt.predicates, predicates, rt.body, step);
}
