import { z } from 'zod';
import type { AcceptanceResult, Capability, GuardContext } from './capability.js';
import { describeError, stepFailure, summarizeIssues } from './failure.js';
import type { CapabilityRegistry } from './registry.js';
import { PlanStepSchema, type PlanStep, type StepFailure } from './schemas.js';

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
      const suggestions = resolution.reason === 'unknown_verb' ? closest(planStep.type, resolution.available) : [];
      const hint = suggestions.length ? ` (did you mean ${suggestions.join(', ')}?)` : '';
      return {
        ok: false,
        failure: stepFailure('unknown_verb', `${resolution.message}${hint}`, suggestions.length ? { suggestions } : {}),
      };
    }
    const { capability } = resolution;
    // V2: args must satisfy the capability's input schema.
    const parsed = capability.inputSchema.safeParse(planStep.args);
    if (!parsed.success) {
      return {
        ok: false,
        failure: stepFailure(
          'invalid_args',
          `invalid args for ${capability.name}@${capability.version}:\n${z.prettifyError(parsed.error)}`,
          { issues: summarizeIssues(parsed.error.issues) },
        ),
      };
    }
    const alias = resolution.alias;
    const passed = { ok: true as const, step: planStep, capability, args: parsed.data, ...(alias ? { alias } : {}) };
    if (!ctx) return passed;
    // V3: the guard, a cheap synchronous feasibility gate.
    const guard = runGuard(capability, ctx, parsed.data);
    return guard ? { ok: false, failure: guard } : passed;
  } catch (error) {
    // Unreachable for schema-valid input; kept so hostile objects (throwing getters, proxies) still get a code.
    return { ok: false, failure: stepFailure('invalid_args', `plan step could not be read: ${describeError(error)}`) };
  }
}

/** V3 alone: the capability's guard as a coded failure, or undefined when it passes. Never throws. */
export function runGuard<Body>(capability: Capability<Body>, ctx: GuardContext<Body>, args: unknown): StepFailure | undefined {
  let result;
  try {
    result = capability.guard(ctx, args);
  } catch (error) {
    return stepFailure('guard_failed', `guard of ${capability.name} threw: ${describeError(error)}`);
  }
  if (result.ok) return undefined;
  return stepFailure(result.code, result.reason, result.missing ? { missing: [...result.missing] } : {});
}

/** V4: acceptance on the pre/post snapshots; an unmet effect (or a throwing check) is `effects_unmet`. */
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
  if (result.ok) return undefined;
  const reason = result.reason ?? `effects not observed: ${result.unmet.join(', ')}`;
  return stepFailure('effects_unmet', reason, { unmet: [...result.unmet] });
}

/** Up to three registered verbs within a small edit distance of `verb`. */
function closest(verb: string, verbs: readonly string[]): string[] {
  const limit = Math.max(2, Math.floor(verb.length / 3));
  return verbs
    .map((candidate) => ({ candidate, distance: editDistance(verb.slice(0, 64), candidate) }))
    .filter(({ distance }) => distance <= limit)
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, 3)
    .map(({ candidate }) => candidate);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
    }
    previous = current;
  }
  return previous[b.length] as number;
}
