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

const STEP_KEYS = new Set(['stepId', 'type', 'args']);

function commonStep(raw: unknown): PlanStep | undefined {
  if (!isPlain(raw) || !onlyKeys(raw, STEP_KEYS)) return undefined;
  const { stepId, type, args } = raw;
  if (!isId(stepId, 256) || !isId(type, 128)) return undefined;
  // `args` defaults to {}; a record is copied as zod copies it.
  const copied = args === undefined ? {} : copyRecord(args);
  // zod reads every field of the shape: a hidden (non-enumerable) one with a value or a getter is the schema's to judge.
  return copied && absent(raw) ? { stepId, type, args: copied } : undefined;
}

/** The optional step fields, in PlanStepSchema's order. */
const OPTIONAL_STEP_KEYS = ['preconds', 'effects', 'cost', 'priority', 'safetyLevel', 'expectedDurationMs', 'idempotencyKey', 'capabilityVersion'] as const;

function absent(raw: Record<string, unknown>): boolean {
  for (const key of OPTIONAL_STEP_KEYS) if (raw[key] !== undefined) return false;
  return true;
}

/** A fresh copy of a plain object with only enumerable string keys (as z.record(z.string(), z.unknown()) outputs it). */
function copyRecord(value: unknown): Record<string, unknown> | undefined {
  // zod refuses symbol keys: let it say so.
  if (!isPlain(value) || Object.getOwnPropertySymbols(value).length > 0) return undefined;
  const copy: Record<string, unknown> = {};
  // for-in: enumerable string keys in own-key order; inherited ones (a polluted Object.prototype) are not the record's.
  for (const key in value) if (key !== '__proto__' && Object.hasOwn(value, key)) copy[key] = value[key];
  return copy;
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
