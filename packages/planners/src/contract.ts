import { z } from 'zod';
import {
  describeError,
  describeValue,
  PlanResultSchema,
  Vec3Schema,
  WorldSnapshotSchema,
  type Intent,
  type PlannerErrorCode,
  type PlannerFailure,
  type PlanResult,
  type RepairRequest,
  type RepairResponse,
} from '@sinew/executor-contracts';

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

// The planner result vocabulary (PLANNER_ERROR_CODES, PlannerFailureSchema, PlanResultSchema) lives in the
// contracts, so the control plane validates a router's answer with the same schema the router checks each
// planner's with; the types are re-exported here for planner authors.
export type { PlannerErrorCode, PlannerFailure, PlanResult };

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
