import { describeError, formatPredicate, parsePredicate, stepFailure, type Predicate, type PlanStep, type StepFailure } from '@sinew/executor-contracts';
import type { PredicateEvaluator } from './types.js';

/** A step's declared preconds and effects, parsed, with their wire strings for failures. */
export interface StepPredicates {
  readonly preconds: readonly Predicate[];
  readonly effects: readonly Predicate[];
}

const NONE = { ok: true, value: { preconds: [], effects: [] } } as const;
const NO_EVALUATOR =
  'the step declares preconds/effects but nothing can check them: give the body a predicate evaluator (body.sinew.predicates: the mineflayer plugin sets it) or pass createExecutor({ predicates })';

/**
 * Parses a step's `preconds`/`effects` for `evaluator`; a predicate it cannot check (unknown kind, or a
 * `<placeholder>` target no body can locate) refuses the step with invalid_args; so does a step that
 * declares any while there is no evaluator (a declared precondition is checked or refused, never ignored).
 */
export function stepPredicates(step: PlanStep, evaluator: PredicateEvaluator<never> | undefined): { ok: true; value: StepPredicates } | { ok: false; failure: StepFailure } {
  if (!step.preconds?.length && !step.effects?.length) return NONE;
  if (!evaluator) return { ok: false, failure: stepFailure('invalid_args', NO_EVALUATOR) };
  const lists = { preconds: [] as Predicate[], effects: [] as Predicate[] };
  for (const field of ['preconds', 'effects'] as const) {
    for (const [index, text] of (step[field] ?? []).entries()) {
      const parsed = parsePredicate(text);
      const reason = !parsed.ok ? parsed.reason : uncheckable(parsed.predicate, evaluator);
      if (reason !== undefined) return { ok: false, failure: stepFailure('invalid_args', `${field}[${index}] cannot be checked: ${reason}`) };
      if (parsed.ok) lists[field].push(parsed.predicate);
    }
  }
  return { ok: true, value: lists };
}

function uncheckable(predicate: Predicate, evaluator: PredicateEvaluator<never>): string | undefined {
  if (!evaluator.kinds.includes(predicate.kind)) return `the predicate evaluator does not check "${predicate.kind}" (it checks ${evaluator.kinds.join(', ') || 'nothing'})`;
  const target = 'position' in predicate ? predicate.position : 'entity' in predicate ? predicate.entity : undefined;
  if (target && 'placeholder' in target) return `"${formatPredicate(predicate)}" names an unobserved target`;
  return undefined;
}

/** The wire strings of the predicates that do not hold, or the evaluator's error (user code: never trusted). */
export function unmetPredicates<Body>(evaluator: PredicateEvaluator<Body>, list: readonly Predicate[], body: Body, baseline: unknown): { unmet: string[] } | { error: string } {
  const unmet: string[] = [];
  try {
    for (const predicate of list) if (evaluator.holds(predicate, body, baseline) !== true) unmet.push(formatPredicate(predicate));
  } catch (error) {
    return { error: describeError(error) };
  }
  return { unmet };
}

/** The step's preconds before an attempt, on the evaluator's `baseline` (a baseline that threw refuses the step). */
export function precondsFailure<Body>(evaluator: PredicateEvaluator<Body>, preconds: readonly Predicate[], body: Body, baseline: ReturnType<typeof takeBaseline>): StepFailure | undefined {
  if (!baseline.ok) return stepFailure('guard_failed', `the predicate evaluator's baseline threw: ${baseline.error}`);
  if (preconds.length === 0) return undefined;
  const result = unmetPredicates(evaluator, preconds, body, baseline.value);
  if ('error' in result) return stepFailure('guard_failed', `the predicate evaluator threw on the preconds: ${result.error}`);
  return result.unmet.length > 0 ? stepFailure('precond_missing', `preconds do not hold: ${result.unmet.join(', ')}`, { missing: result.unmet }) : undefined;
}

/** A step's declared preconds before an attempt; the evaluator's baseline is taken before its first and kept on the step (gains are measured from it). */
export function declaredPrecondsFailure<Body>(evaluator: PredicateEvaluator<Body> | undefined, declared: StepPredicates, body: Body, step: { baseline: ReturnType<typeof takeBaseline> | undefined }): StepFailure | undefined {
  if (!evaluator || (declared.preconds.length === 0 && declared.effects.length === 0)) return undefined;
  return precondsFailure(evaluator, declared.preconds, body, (step.baseline ??= takeBaseline(evaluator, body)));
}

/** The evaluator's baseline (what gains are measured against), taken before the step's first attempt. */
export function takeBaseline<Body>(evaluator: PredicateEvaluator<Body>, body: Body): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: evaluator.baseline?.(body) };
  } catch (error) {
    return { ok: false, error: describeError(error) };
  }
}

/** The step's declared effects after acceptance (V4 beyond the capability's own check), as effects_unmet. */
export function effectsFailure<Body>(effects: { readonly evaluator: PredicateEvaluator<Body>; readonly list: readonly Predicate[]; readonly baseline: unknown } | undefined, body: Body): StepFailure | undefined {
  if (!effects) return undefined;
  const result = unmetPredicates(effects.evaluator, effects.list, body, effects.baseline);
  if ('error' in result) return stepFailure('effects_unmet', `the predicate evaluator threw on the effects: ${result.error}`, { unmet: [] });
  return result.unmet.length > 0 ? stepFailure('effects_unmet', `declared effects not observed: ${result.unmet.join(', ')}`, { unmet: result.unmet }) : undefined;
}
