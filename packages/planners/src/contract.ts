import { z } from 'zod';
import { describeError, describeValue, PlanSchema, Vec3Schema, WorldSnapshotSchema, type Intent, type RepairRequest, type RepairResponse } from '@sinew/executor-contracts';

/** A perceived threat (from the belief layer's hazard summary or a mob scan). */
export const ThreatSchema = z.strictObject({
  entity: z.string().min(1),
  position: Vec3Schema.optional(),
  distance: z.number().nonnegative(),
});
export type Threat = z.infer<typeof ThreatSchema>;

/**
 * The world as planners read it: the contracts' `WorldSnapshotSchema` (what `observeWorld(bot, { positions })`
 * returns) plus optional threats; unknown keys are refused. Parsed at the boundary so planners never read an unchecked snapshot.
 */
export const PlannerWorldSchema = WorldSnapshotSchema.extend({
  threats: z.array(ThreatSchema).optional(),
}).strict();
export type PlannerWorld = z.infer<typeof PlannerWorldSchema>;

/** Why a planner produced no plan; planner errors are values with a code, like step failures. */
export const PLANNER_ERROR_CODES = [
  'no_method',
  'depth_exceeded',
  'unsupported_goal',
  'gate_closed',
  'llm_unavailable',
  'llm_output_rejected',
  'no_route',
  'invalid_world',
  'invalid_intent',
  'prompt_too_large',
  'planner_error',
  /** The safety rules refused the intent (input filter) or the plan (constitutional check). */
  'refused',
  /** The goal needs an item nothing in the world gives (no block, mob, recipe or furnace leads to it); the reason names it. */
  'no_source',
] as const;
/** A planner failure code. */
export type PlannerErrorCode = (typeof PLANNER_ERROR_CODES)[number];

/** The closed set of planner failure codes. */
export const PlannerErrorCodeSchema = z.enum(PLANNER_ERROR_CODES);

/** Why a planner produced no plan: a code and a reason. */
export const PlannerFailureSchema = z.object({
  code: PlannerErrorCodeSchema,
  reason: z.string(),
  planner: z.string(),
  /** Complaints per attempt (LLM), or tried methods (HTN), when useful for debugging. */
  details: z.array(z.string()).readonly().optional(),
});
export type PlannerFailure = z.infer<typeof PlannerFailureSchema>;

/** What a planner returns; the router checks every result against it (the plan with `PlanSchema`). */
export const PlanResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), plan: PlanSchema, planner: z.string(), methods: z.array(z.string()).readonly().optional() }),
  z.object({ ok: z.literal(false), failure: PlannerFailureSchema }),
]);
export type PlanResult = z.infer<typeof PlanResultSchema>;

/** Reads a planner's result defensively: garbage (or a value that throws when read) is a `planner_error` naming what arrived. */
export function readPlanResult(planner: string, value: unknown): PlanResult {
  try {
    const parsed = PlanResultSchema.safeParse(value);
    if (parsed.success) return parsed.data;
    return planFailure(planner, 'planner_error', `plan() returned ${describeValue(value).slice(0, 120)}, not a PlanResult: ${z.prettifyError(parsed.error)}`);
  } catch (error) {
    return planFailure(planner, 'planner_error', `plan() returned a result that could not be read: ${describeError(error)}`);
  }
}

/**
 * A planner turns an Intent into a Plan of registry verbs. `verbs()` lists every verb it can emit —
 * the verb-divergence gate compares it with the registry. `repair` answers the executor's repair hook.
 */
export interface Planner<World = PlannerWorld> {
  readonly name: string;
  /** The verbs its plans may use. */
  verbs(): readonly string[];
  /** A plan for the intent in this world, or a coded failure. */
  plan(intent: Intent, world: World): PlanResult | Promise<PlanResult>;
  /** Steps that repair a failed step, or undefined when it cannot. */
  repair?(request: RepairRequest, world: World): RepairResponse | undefined | Promise<RepairResponse | undefined>;
  /** Learns from how one of its plans ended (HTN: method effectiveness); the router forwards outcomes here. */
  recordOutcome?(planId: string, success: boolean): void;
}

/** A failed PlanResult. */
export function planFailure(planner: string, code: PlannerErrorCode, reason: string, details?: readonly string[]): PlanResult {
  return { ok: false, failure: { planner, code, reason, ...(details ? { details } : {}) } };
}
