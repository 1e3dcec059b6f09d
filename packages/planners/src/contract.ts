import { z } from 'zod';
import { Vec3Schema, type Intent, type Plan, type RepairRequest, type RepairResponse, type Vec3 } from '@sinew/executor-contracts';

export type { Vec3 };

/** A perceived threat (from the belief layer's hazard summary or a mob scan). */
export const ThreatSchema = z.object({
  entity: z.string().min(1),
  position: Vec3Schema.optional(),
  distance: z.number().nonnegative(),
});
export type Threat = z.infer<typeof ThreatSchema>;

/**
 * The world as planners read it: the same shape as `observeWorld(bot, focus)` in @sinew/capabilities,
 * plus optional threats. Parsed at the boundary so planners never read an unchecked snapshot.
 */
export const WorldSnapshotSchema = z.object({
  position: Vec3Schema,
  health: z.number(),
  food: z.number(),
  heldItem: z.string().nullable(),
  /** item name → total count */
  inventory: z.record(z.string(), z.number().int().nonnegative()),
  /** "x,y,z" → block name, for positions in focus */
  blocks: z.record(z.string(), z.string()),
  /** time of day in ticks */
  time: z.number().optional(),
  threats: z.array(ThreatSchema).optional(),
});
export type WorldSnapshot = z.infer<typeof WorldSnapshotSchema>;

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
  'planner_error',
] as const;
export type PlannerErrorCode = (typeof PLANNER_ERROR_CODES)[number];

export interface PlannerFailure {
  readonly code: PlannerErrorCode;
  readonly reason: string;
  readonly planner: string;
  /** Complaints per attempt (LLM), or tried methods (HTN), when useful for debugging. */
  readonly details?: readonly string[];
}

export type PlanResult =
  | { readonly ok: true; readonly plan: Plan; readonly planner: string; readonly methods?: readonly string[] }
  | { readonly ok: false; readonly failure: PlannerFailure };

/**
 * A planner turns an Intent into a Plan of registry verbs. `verbs()` lists every verb it can emit —
 * the verb-divergence gate compares it with the registry. `repair` answers the executor's repair hook.
 */
export interface Planner<World = WorldSnapshot> {
  readonly name: string;
  verbs(): readonly string[];
  plan(intent: Intent, world: World): PlanResult | Promise<PlanResult>;
  repair?(request: RepairRequest, world: World): RepairResponse | undefined | Promise<RepairResponse | undefined>;
  /** Learns from how one of its plans ended (HTN: method effectiveness); the router forwards outcomes here. */
  recordOutcome?(planId: string, success: boolean): void;
}

/** A failed PlanResult. */
export function planFailure(planner: string, code: PlannerErrorCode, reason: string, details?: readonly string[]): PlanResult {
  return { ok: false, failure: { planner, code, reason, ...(details ? { details } : {}) } };
}
