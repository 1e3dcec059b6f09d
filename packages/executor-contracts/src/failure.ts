import type { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from './codes.js';
import type { RunnerResult, StepFailure, StepFailureOf, ZodIssueSummary } from './schemas.js';

/** The fields a failure of `Code` may carry beside code and reason; `retryable` defaults to the code table's. */
export type FailureFields<Code extends ErrorCode> = {
  readonly [Field in Exclude<keyof StepFailureOf<Code>, 'code' | 'reason' | 'retryable'>]?: ReadonlyArrays<StepFailureOf<Code>[Field]>;
} & { readonly retryable?: boolean };
type ReadonlyArrays<Value> = Value extends readonly (infer Item)[] ? readonly Item[] : Value;

/** Builds the coded failure of a step outcome; `retryable` comes from the code table unless `fields` overrides it. */
export function stepFailure<const Code extends ErrorCode>(code: Code, reason: string, fields?: FailureFields<Code>): StepFailureOf<Code> {
  // The spread keeps the wire order of every failure: code, reason, retryable, then the code's fields.
  return { code, reason, retryable: ERROR_CODES[code].retryable, ...fields } as StepFailureOf<Code>;
}

/** The codes a runner reports itself; the others (unknown_verb, invalid_args, …) only the executor decides. */
export type RunnerFailureCode = 'guard_failed' | 'precond_missing' | 'stuck' | 'timeout' | 'effects_unmet' | 'aborted' | 'body_disconnected' | 'runner_error';

/** What `fail.*` builds: a runner's failed result, the step failure of its code with `ok: false`. */
export type RunnerFailure<Code extends RunnerFailureCode = RunnerFailureCode> = { readonly ok: false } & StepFailureOf<Code>;

function runnerFailure<const Code extends RunnerFailureCode>(code: Code) {
  return (reason: string, fields?: FailureFields<Code>): RunnerFailure<Code> => ({ ok: false, ...stepFailure(code, reason, fields) });
}

/**
 * The failures a runner returns, one builder per code, typed by the fields that code carries.
 * @example
 * const noPath = fail.stuck('no path to the tree', { retryable: false });
 * const noPlanks = fail.precondMissing('no planks', { missing: ['has_item:oak_planks:4'] });
 */
export const fail = {
  /** The step cannot be done as asked (`missing` may name what would make it possible); not retried by default. */
  guardFailed: runnerFailure('guard_failed'),
  /** A precondition does not hold: `missing` names it as wire predicates, for a planner to subgoal. */
  precondMissing: runnerFailure('precond_missing'),
  /** No progress (no path, boxed in, flapping); retried by default. */
  stuck: runnerFailure('stuck'),
  /** The runner's own budget ran out; retried by default. */
  timeout: runnerFailure('timeout'),
  /** The runner acted but the world did not change as it should (`unmet` names the effects); retried by default. */
  effectsUnmet: runnerFailure('effects_unmet'),
  /** The attempt stopped because its signal aborted. */
  aborted: runnerFailure('aborted'),
  /** The body went away mid-step. */
  bodyDisconnected: runnerFailure('body_disconnected'),
  /** Anything else that went wrong in the runner; retried by default. */
  runnerError: runnerFailure('runner_error'),
} as const;

/**
 * The step failure of a runner's failed result: code (default runner_error), reason, retryable (default
 * the code's), and only the fields its code carries (`missing`, `unmet`, `nodePath`). @internal
 */
export function runnerStepFailure(result: Extract<RunnerResult, { ok: false }>): StepFailure {
  const code = result.code ?? 'runner_error';
  const retryable = result.retryable ?? ERROR_CODES[code].retryable;
  const at = result.nodePath ? { nodePath: result.nodePath } : {};
  switch (code) {
    case 'guard_failed':
    case 'precond_missing':
      return stepFailure(code, result.reason, { retryable, ...(result.missing ? { missing: [...result.missing] } : {}), ...at });
    case 'effects_unmet':
      return stepFailure(code, result.reason, { retryable, ...(result.unmet ? { unmet: [...result.unmet] } : {}), ...at });
    case 'stuck':
    case 'timeout':
    case 'aborted':
    case 'body_disconnected':
    case 'runner_error':
      return stepFailure(code, result.reason, { retryable, ...at });
    default:
      return stepFailure(code, result.reason, { retryable });
  }
}

/** Summarizes zod issues into plain, serializable records (path, code, message). Never throws. */
export function summarizeIssues(issues: readonly z.core.$ZodIssue[]): ZodIssueSummary[] {
  try {
    return Array.from(issues, (issue) => ({
      path: Array.from(issue.path, (segment) => (typeof segment === 'number' ? segment : describeValue(segment))),
      code: describeValue(issue.code),
      message: describeValue(issue.message),
    }));
  } catch (error) {
    return [{ path: [], code: 'custom', message: `issues could not be read: ${describeError(error)}` }];
  }
}

const MAX_DESCRIPTION = 2_000;

/**
 * Human-readable message of anything thrown. Never throws: a throwing `message` getter, a revoked
 * Proxy, `Object.create(null)`, a cyclic object or a BigInt each get a safe description.
 */
export function describeError(error: unknown): string {
  try {
    if (error instanceof Error) {
      const message: unknown = error.message;
      return typeof message === 'string' ? clip(message) : describeValue(message);
    }
  } catch {
    // A revoked Proxy throws on instanceof; a hostile Error throws from its message getter.
  }
  return describeValue(error);
}

/** A short, safe text for any value (strings as they are); never throws. */
export function describeValue(value: unknown): string {
  try {
    if (typeof value === 'string') return clip(value);
    if (typeof value !== 'object' && typeof value !== 'function') return String(value);
    if (value === null) return 'null';
    const json = JSON.stringify(value);
    return json === undefined ? `a ${typeof value}` : clip(json);
  } catch {
    return unreadable(value);
  }
}

function unreadable(value: unknown): string {
  try {
    return `${Object.prototype.toString.call(value)} (not serialisable)`;
  } catch {
    return typeof value === 'function' ? 'an unreadable function' : 'an unreadable object (revoked proxy?)';
  }
}

function clip(text: string): string {
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION)}… (${text.length} characters)` : text;
}
