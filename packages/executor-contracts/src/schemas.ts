import { z } from 'zod';
import { ErrorCodeSchema, type ErrorCode } from './codes.js';
import { PredicateStringSchema } from './predicates.js';

const id = z.string().min(1).max(256);

const coord = z.number().finite();

/** A position in the body's world: finite `x`, `y`, `z` and nothing else (one shape for planners, bodies and the belief layer). */
export const Vec3Schema = z.strictObject({ x: coord, y: coord, z: coord });
export type Vec3 = z.infer<typeof Vec3Schema>;

/**
 * The world fields every snapshot carries: what acceptance compares and planners plan on. Packages
 * `.extend(...).strict()` it with their own fields (`ObservedWorldSchema` in @sinew/capabilities,
 * `PlannerWorldSchema` in @sinew/planners); parsing any of them with this core keeps the shared fields.
 */
export const WorldSnapshotSchema = z.object({
  position: Vec3Schema,
  health: z.number(),
  food: z.number(),
  heldItem: z.string().nullable(),
  /** Item name → total count. */
  inventory: z.record(z.string(), z.number().int().nonnegative()),
  /** `blockKey` (`"x,y,z"`) → block name, for the positions in focus. */
  blocks: z.record(z.string(), z.string()),
  /** Time of day in ticks. */
  time: z.number().optional(),
});
export type WorldSnapshot = z.infer<typeof WorldSnapshotSchema>;

/** How dangerous a step is: `safe`, `caution` or `restricted`. */
export const SafetyLevelSchema = z.enum(['safe', 'caution', 'restricted']);
export type SafetyLevel = z.infer<typeof SafetyLevelSchema>;

/** A normalized goal: what the bot should achieve, from whom, how urgently. */
export const IntentSchema = z.strictObject({
  id,
  source: z.enum(['user', 'system', 'memory', 'planner']),
  goal: z.string().min(1),
  context: z.record(z.string(), z.unknown()).default({}),
  urgency: z.number().min(0).max(1),
  safety: z
    .strictObject({
      allowed: z.boolean(),
      reason: z.string().optional(),
      /** An explicit grant: this intent's `restricted` steps may run (the executor refuses them otherwise). */
      allowRestricted: z.boolean().optional(),
    })
    .default({ allowed: true }),
  /** Routing traits, e.g. `safety_critical`, `multi_step`, `social`, `ambiguous`. */
  traits: z.array(z.string()).default([]),
  /** The plan's deadline: the executor ends the plan `timeout` once this much time has passed. */
  timeBudgetMs: z.number().int().positive().optional(),
  /** Where the suggestion came from (a chat message id, an HTTP request): recorded on every provenance record of the plan. */
  provenanceRef: z.string().max(256).optional(),
});
export type Intent = z.output<typeof IntentSchema>;
export type IntentInput = z.input<typeof IntentSchema>;

/** One executable atom of a plan: a canonical verb and its structured args. Unknown keys are refused (a misspelled `efects` must not drop the effects). */
export const PlanStepSchema = z.strictObject({
  stepId: id,
  type: z.string().min(1).max(128),
  args: z.record(z.string(), z.unknown()).default({}),
  /** Predicates that must hold before dispatch (wire strings; one that `parsePredicate` rejects fails validation). */
  preconds: z.array(PredicateStringSchema).optional(),
  /** Predicates that must hold after acceptance (same vocabulary and validation as `preconds`). */
  effects: z.array(PredicateStringSchema).optional(),
  /** Advisory: a planner's estimate for ranking plans; the executor never reads it. */
  cost: z.number().nonnegative().optional(),
  priority: z.number().optional(),
  safetyLevel: SafetyLevelSchema.optional(),
  expectedDurationMs: z.number().int().positive().optional(),
  idempotencyKey: id.optional(),
  /** A semver range the resolved capability must satisfy; default: the highest version. */
  capabilityVersion: z.string().min(1).optional(),
});
export type PlanStep = z.output<typeof PlanStepSchema>;
export type PlanStepInput = z.input<typeof PlanStepSchema>;

/** An ordered list of steps serving one intent (unknown keys refused, as on its steps). */
export const PlanSchema = z.strictObject({
  planId: id,
  intentId: id,
  steps: z.array(PlanStepSchema),
  planner: z.string().optional(),
  /** Hash of the cognition config that made the plan (seeds/002), recorded on every provenance record. */
  configHash: z.string().min(1).max(128).optional(),
});
export type Plan = z.output<typeof PlanSchema>;
export type PlanInput = z.input<typeof PlanSchema>;

/** One zod issue as plain data (path, code, message), as failures carry it. */
export const ZodIssueSummarySchema = z.object({
  path: z.array(z.union([z.string(), z.number()])),
  code: z.string(),
  message: z.string(),
});
export type ZodIssueSummary = z.infer<typeof ZodIssueSummarySchema>;

const failureBase = { reason: z.string(), retryable: z.boolean() };
/** Missing preconditions as wire predicates, e.g. `has_item:stick` (a planner subgoals them). */
const missing = z.array(z.string()).optional();
/** Path of the behavior-tree node that failed, when known (failures a runner reports). */
const nodePath = z.string().optional();

/** One variant of the failure union: its code, reason, retryable and the fields that code carries, nothing else. */
function failureOf<const Code extends ErrorCode, Shape extends z.ZodRawShape>(code: Code, shape: Shape) {
  return z.strictObject({ code: z.literal(code), ...failureBase, ...shape });
}

/**
 * A coded failure, one variant per code of `ERROR_CODES`: what went wrong, whether it may be retried, and
 * the fields a planner needs to repair it — `missing` on a precondition, `unmet` on effects, `issues` on
 * args, `suggestions` on an unknown verb, `nodePath` where a runner can report one. A field another code
 * carries is refused. Build one with `stepFailure` (executor) or `fail.*` (runners).
 */
export const StepFailureSchema = z.discriminatedUnion('code', [
  /** Registered verbs close to the unknown one. */
  failureOf('unknown_verb', { suggestions: z.array(z.string()).optional() }),
  /** The schema issues of the step or its args. */
  failureOf('invalid_args', { issues: z.array(ZodIssueSummarySchema).optional() }),
  failureOf('guard_failed', { missing, nodePath }),
  failureOf('precond_missing', { missing, nodePath }),
  failureOf('ttfa_exceeded', {}),
  failureOf('stuck', { nodePath }),
  failureOf('timeout', { nodePath }),
  /** Declared effects acceptance did not observe. */
  failureOf('effects_unmet', { unmet: z.array(z.string()).optional(), nodePath }),
  failureOf('preempted', {}),
  failureOf('aborted', { nodePath }),
  failureOf('duplicate', {}),
  failureOf('body_disconnected', { nodePath }),
  failureOf('runner_error', { nodePath }),
  failureOf('journal_unavailable', {}),
]);
/** Every field name any failure variant carries. */
type FailureKey = z.infer<typeof StepFailureSchema> extends infer Variant ? (Variant extends unknown ? keyof Variant : never) : never;
/** A variant whose absent fields read as `undefined`: `failure.missing` type-checks on any failure, narrowing by code gives the exact variant. */
type WithAbsentFields<Variant> = Variant extends unknown ? Variant & { readonly [Key in Exclude<FailureKey, keyof Variant>]?: never } : never;
export type StepFailure = WithAbsentFields<z.infer<typeof StepFailureSchema>>;
/** The failure variant of one code, e.g. `StepFailureOf<'precond_missing'>` has `missing`. */
export type StepFailureOf<Code extends ErrorCode> = Extract<StepFailure, { code: Code }>;

/** What a runner returns: nothing (success), `{ ok: true }` with observables, or a failure (code defaults to runner_error; `fail.*` builds one). */
export const RunnerResultSchema = z.union([
  z.void(),
  z.object({ ok: z.literal(true), observables: z.record(z.string(), z.unknown()).optional() }),
  z.object({
    ok: z.literal(false),
    code: ErrorCodeSchema.optional(),
    reason: z.string(),
    retryable: z.boolean().optional(),
    /** Kept on precond_missing and guard_failed. */
    missing: z.array(z.string()).readonly().optional(),
    /** Kept on effects_unmet. */
    unmet: z.array(z.string()).readonly().optional(),
    nodePath: z.string().optional(),
  }),
]);
export type RunnerResult = z.infer<typeof RunnerResultSchema>;

/** How a step ended: `succeeded`, `failed` or `preempted`. */
export const StepStatusSchema = z.enum(['succeeded', 'failed', 'preempted']);
export type StepStatus = z.infer<typeof StepStatusSchema>;

/** How a step ended — always one of succeeded, failed (with a code) or preempted (A2). */
export const StepOutcomeSchema = z.object({
  planId: id,
  stepId: id,
  verb: z.string(),
  capability: z.object({ name: z.string(), version: z.string() }).optional(),
  status: StepStatusSchema,
  failure: StepFailureSchema.optional(),
  attempts: z.number().int().nonnegative(),
  startedAt: z.number(),
  endedAt: z.number(),
  /** Milliseconds from dispatch to the first actuator command of the last attempt. */
  ttfaMs: z.number().nonnegative().optional(),
  observables: z.record(z.string(), z.unknown()).optional(),
});
/** A step outcome; its failure reads as `StepFailure` (absent fields of other codes read as undefined). */
export type StepOutcome = Omit<z.infer<typeof StepOutcomeSchema>, 'failure'> & { failure?: StepFailure };
