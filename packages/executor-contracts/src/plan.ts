import { types } from 'node:util';
import { explainUnknownKeys } from './checks.js';
import { PlanSchema, type Plan, type PlanStep } from './schemas.js';

/**
 * `PlanSchema.safeParse`, with a cheaper path for the common shape (plain objects; steps with only
 * `stepId`, `type` and `args`). That path only ever accepts, with the output zod would give; anything
 * else (including every refusal) goes through the schema, so refusals are zod's own (unknown keys name the
 * nearest known one).
 */
export function parsePlan(input: unknown): ReturnType<typeof PlanSchema.safeParse> {
  const plan = commonPlan(input);
  if (plan) return { success: true, data: plan };
  const parsed = PlanSchema.safeParse(input);
  // An unknown key names the nearest known one: `efects` → did you mean `effects`?
  if (!parsed.success) explainUnknownKeys(PlanSchema, parsed.error.issues);
  return parsed;
}

const PLAN_KEYS = new Set(['planId', 'intentId', 'steps', 'planner']);

/** The plan as PlanSchema outputs it, or undefined when it is not the common shape (then zod decides). */
function commonPlan(input: unknown): Plan | undefined {
  if (!isPlain(input) || !onlyKeys(input, PLAN_KEYS)) return undefined;
  // Read in zod's order (planId, intentId, steps, then planner): a throwing getter throws the same error.
  const { planId, intentId, steps } = input;
  if (!isId(planId, 256) || !isId(intentId, 256) || !Array.isArray(steps)) return undefined;
  const out: PlanStep[] = new Array<PlanStep>(steps.length);
  for (let i = 0; i < steps.length; i += 1) {
    const step = commonStep(steps[i]);
    if (!step) return undefined;
    out[i] = step;
  }
  const planner = input.planner;
  if (planner !== undefined && typeof planner !== 'string') return undefined;
  // Same keys as zod's output: a `planner` key present (even undefined) is kept.
  return 'planner' in input ? { planId, intentId, steps: out, planner } : { planId, intentId, steps: out };
}

function commonStep(raw: unknown): PlanStep | undefined {
  if (!isPlain(raw) || !onlyStepKeys(raw)) return undefined;
  const { stepId, type, args } = raw;
  if (!isId(stepId, 256) || !isId(type, 128)) return undefined;
  // `args` defaults to {}; a record is copied as zod copies it.
  const copied = args === undefined ? {} : copyRecord(args);
  // zod reads every field of the shape: a hidden (non-enumerable) one with a value or a getter is the schema's to judge.
  return copied && absent(raw) ? { stepId, type, args: copied } : undefined;
}

/** Every enumerable key is `stepId`, `type` or `args`, and its own (compared, not looked up in a set: this runs per step). */
function onlyStepKeys(raw: Record<string, unknown>): boolean {
  for (const key in raw) if ((key !== 'stepId' && key !== 'type' && key !== 'args') || !Object.hasOwn(raw, key)) return false;
  return true;
}

/**
 * The optional step fields are all undefined, read in PlanStepSchema's order (a getter that throws throws what zod's read
 * throws). Named reads, not a loop over the names: each is one cached load of a missing property on the step's shape.
 */
function absent(raw: Record<string, unknown>): boolean {
  return (
    raw.preconds === undefined &&
    raw.effects === undefined &&
    raw.cost === undefined &&
    raw.priority === undefined &&
    raw.safetyLevel === undefined &&
    raw.expectedDurationMs === undefined &&
    raw.idempotencyKey === undefined &&
    raw.capabilityVersion === undefined
  );
}

/**
 * A fresh copy of a plain object with only enumerable string keys (as z.record(z.string(), z.unknown()) outputs it).
 * A spread copies own enumerable keys in order through their getters, as the record schema reads them, into an object of
 * the source's size (the plan keeps every copy until it ends); zod drops an own `__proto__` key: that shape is zod's.
 */
function copyRecord(value: unknown): Record<string, unknown> | undefined {
  // zod refuses symbol keys: let it say so.
  if (!isPlain(value) || Object.hasOwn(value, '__proto__') || Object.getOwnPropertySymbols(value).length > 0) return undefined;
  return { ...value };
}

/** Only plain object literals (Object.prototype, no proxy): anything more exotic takes the schema path. */
function isPlain(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !types.isProxy(value) && Object.getPrototypeOf(value) === Object.prototype;
}

/** Every enumerable key is one of `allowed`; an unknown one (the schema refuses it) or an explicit undefined optional field takes the schema path. */
function onlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key) || !Object.hasOwn(value, key)) return false;
  return true;
}

function isId(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= max;
}
