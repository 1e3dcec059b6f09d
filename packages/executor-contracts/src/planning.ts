import { z } from 'zod';
import { PlanSchema } from './schemas.js';

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

