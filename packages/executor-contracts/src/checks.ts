import { z } from 'zod';
import type { AcceptanceResult, Capability, GuardContext, GuardResult } from './capability.js';
import { describeError, describeValue, stepFailure, summarizeIssues } from './failure.js';
import type { CapabilityRegistry } from './registry.js';
import { closestNames } from './suggest.js';
import { PlanStepSchema, type PlanStep, type StepFailure } from './schemas.js';

/** The result of `checkStep`: the resolved capability and parsed args, or exactly one coded failure. */
export type StepCheck<Body> =
  | {
      readonly ok: true;
      readonly step: PlanStep;
      readonly capability: Capability<Body>;
      /** The args after `inputSchema` parsing (defaults applied). */
      readonly args: unknown;
      /** Set when the step used a deprecated alias. */
      readonly alias?: string;
    }
  | { readonly ok: false; readonly failure: StepFailure };

/**
 * The PBI quick checks V1–V3 on untrusted input: step shape, V1 registry match, V2 `inputSchema`
 * parse, and V3 guard (only when `ctx` is given). Never throws; returns ok or exactly one coded failure.
 */
export function checkStep<Body>(registry: CapabilityRegistry<Body>, step: unknown, ctx?: GuardContext<Body>): StepCheck<Body> {
  try {
    const shape = PlanStepSchema.safeParse(step);
    if (!shape.success) {
      explainUnknownKeys(PlanStepSchema, shape.error.issues);
      return {
        ok: false,
        failure: stepFailure('invalid_args', `malformed plan step:\n${z.prettifyError(shape.error)}`, {
          issues: summarizeIssues(shape.error.issues),
        }),
      };
    }
    const planStep = shape.data;
    // V1: the verb must be registered (I4).
    const resolution = registry.resolve(planStep.type, planStep.capabilityVersion);
    if (!resolution.ok) {
      const suggestions = resolution.reason === 'unknown_verb' ? closestNames(planStep.type, resolution.available) : [];
      const hint = suggestions.length ? ` (did you mean ${suggestions.join(', ')}?)` : '';
      return {
        ok: false,
        failure: stepFailure('unknown_verb', `${resolution.message}${hint}`, suggestions.length ? { suggestions } : {}),
      };
    }
    const { capability } = resolution;
    // V2: args must satisfy the capability's input schema.
    const parsed = checkArgs(capability, planStep.args);
    if (!parsed.ok) return parsed;
    const alias = resolution.alias;
    const passed = { ok: true as const, step: planStep, capability, args: parsed.args, ...(alias ? { alias } : {}) };
    if (!ctx) return passed;
    // V3: the guard, a cheap synchronous feasibility gate.
    const guard = runGuard(capability, ctx, parsed.args);
    return guard ? { ok: false, failure: guard } : passed;
  } catch (error) {
    // Unreachable for schema-valid input; kept so hostile objects (throwing getters, proxies) still get a code.
    return { ok: false, failure: stepFailure('invalid_args', `plan step could not be read: ${describeError(error)}`) };
  }
}

/** V2 alone: `args` parsed by the capability's `inputSchema` (defaults applied), or an `invalid_args` failure. Never throws. */
export function checkArgs<Body>(
  capability: Capability<Body>,
  args: unknown,
): { readonly ok: true; readonly args: unknown } | { readonly ok: false; readonly failure: StepFailure } {
  let parsed: ReturnType<typeof capability.inputSchema.safeParse>;
  try {
    parsed = capability.inputSchema.safeParse(args);
  } catch (error) {
    // A refinement that throws (or is async) is the capability's bug, but the step still gets a code.
    return {
      ok: false,
      failure: stepFailure('invalid_args', `input schema of ${capability.name}@${capability.version} threw: ${describeError(error)}`),
    };
  }
  if (!parsed.success) {
    try {
      explainUnknownKeys(capability.inputSchema, parsed.error.issues);
      const issues = summarizeIssues(parsed.error.issues);
      return { ok: false, failure: stepFailure('invalid_args', `invalid args for ${capability.name}@${capability.version}:\n${z.prettifyError(parsed.error)}`, { issues }) };
    } catch (error) {
      return { ok: false, failure: stepFailure('invalid_args', `invalid args for ${capability.name}@${capability.version} (issues unreadable: ${describeError(error)})`) };
    }
  }
  return { ok: true, args: parsed.data };
}

/** V3 alone: the capability's guard as a coded failure, or undefined when it passes. Never throws. */
export function runGuard<Body>(capability: Capability<Body>, ctx: GuardContext<Body>, args: unknown): StepFailure | undefined {
  let result: GuardResult;
  try {
    result = capability.guard(ctx, args);
  } catch (error) {
    return stepFailure('guard_failed', `guard of ${capability.name} threw: ${describeError(error)}`);
  }
  try {
    return readGuardResult(capability.name, result);
  } catch (error) {
    // Getters that throw, revoked proxies: the result itself is the fault.
    return stepFailure('guard_failed', `guard of ${capability.name} returned a result that could not be read: ${describeError(error)}`);
  }
}

function readGuardResult(name: string, result: GuardResult): StepFailure | undefined {
  // A guard written in plain JS (or async by mistake) may return anything; only `{ ok: true }` passes.
  if (!isPlainResult(result)) return stepFailure('guard_failed', `guard of ${name} returned ${describeResult(result)}, not a GuardResult`);
  if (result.ok === true) return undefined;
  const code = result.code === 'precond_missing' ? 'precond_missing' : 'guard_failed';
  const missing = Array.isArray(result.missing) ? Array.from(result.missing as unknown[], describeValue) : undefined;
  const reason = typeof result.reason === 'string' ? describeValue(result.reason) : `guard of ${name} refused the step`;
  return stepFailure(code, reason, missing ? { missing } : {});
}

/** V4: acceptance on the pre/post snapshots; an unmet effect (or a throwing check) is `effects_unmet`. Never throws. */
export function checkAcceptance<Body, World>(
  capability: Capability<Body, World>,
  pre: World,
  post: World,
  args: unknown,
): StepFailure | undefined {
  let result: AcceptanceResult;
  try {
    result = capability.acceptance(pre, post, args);
  } catch (error) {
    return stepFailure('effects_unmet', `acceptance of ${capability.name} threw: ${describeError(error)}`);
  }
  try {
    return readAcceptanceResult(capability.name, result);
  } catch (error) {
    return stepFailure('effects_unmet', `acceptance of ${capability.name} returned a result that could not be read: ${describeError(error)}`);
  }
}

function readAcceptanceResult(name: string, result: AcceptanceResult): StepFailure | undefined {
  if (!isPlainResult(result)) return stepFailure('effects_unmet', `acceptance of ${name} returned ${describeResult(result)}, not an AcceptanceResult`);
  if (result.ok === true) return undefined;
  const unmet = Array.isArray(result.unmet) ? Array.from(result.unmet as unknown[], describeValue) : [];
  const reason = typeof result.reason === 'string' ? describeValue(result.reason) : `effects not observed: ${unmet.join(', ') || '(none named)'}`;
  return stepFailure('effects_unmet', reason, { unmet });
}

function isPlainResult(value: unknown): value is object {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then !== 'function';
}

/** Rewrites zod's "Unrecognized key" messages to name the nearest known key (a misspelled argument is never dropped). @internal */
export function explainUnknownKeys(schema: z.ZodType, issues: z.core.$ZodIssue[]): void {
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const known = knownKeysAt(schema, issue.path);
    (issue as { message: string }).message = issue.keys
      .map((key) => {
        const [nearest] = closestNames(key, known);
        return `unknown key \`${key}\` — ${nearest ? `did you mean \`${nearest}\`?` : `known keys: ${known.join(', ') || '(none)'}`}`;
      })
      .join('; ');
  }
}

/**
 * The keys of the object schema at `path` inside `schema`, through optional/default/array/record/pipe wrappers; at a
 * union, the keys of every option at the rest of the path, each once, in option order. Each step either takes one
 * element of the path (object, array, record) or opens a wrapper, whose inner schema was built before it, so the walk
 * ends: no step bound (the issue's path may be as deep as the args), and `at` indexes the path (no copy per level).
 */
function knownKeysAt(schema: z.core.$ZodType, path: readonly PropertyKey[], at = 0): string[] {
  for (let current: z.core.$ZodType | undefined = schema; current; ) {
    if (current instanceof z.core.$ZodUnion) return [...new Set(current._zod.def.options.flatMap((option) => knownKeysAt(option, path, at)))];
    const def = current._zod.def as { type: string; shape?: Record<string, z.core.$ZodType>; innerType?: z.core.$ZodType; in?: z.core.$ZodType; element?: z.core.$ZodType; valueType?: z.core.$ZodType };
    if (def.type === 'object' && at >= path.length) return Object.keys(def.shape ?? {});
    if (def.type === 'object') current = def.shape?.[String(path[at])];
    else if (def.type === 'array') current = def.element;
    else if (def.type === 'record') current = def.valueType;
    else current = def.innerType ?? def.in;
    if (def.type === 'object' || def.type === 'array' || def.type === 'record') at += 1;
  }
  return [];
}

function describeResult(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function') return 'a Promise (guards and acceptance are synchronous)';
  return typeof value;
}
