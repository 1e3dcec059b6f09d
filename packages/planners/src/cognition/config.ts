import { summarizeIssues } from '@sinew/executor-contracts';
import { z } from 'zod';
import type { ConfigLoad } from '../llm/config.js';
import { CognitionGateConfigSchema } from '../llm/config.js';

const unit = z.number().min(0).max(1);

/** The belief saliency delta types (a `@sinew/belief` `DeltaType`), each with its own salience weight. */
export const BELIEF_DELTA_TYPES = ['new_threat', 'new_track', 'reclassified', 'threat_cleared', 'distance_changed', 'track_lost'] as const;
/** The delta types that carry the track's new summary (all but `track_lost`). @internal */
export const TRACK_DELTA_TYPES = ['new_threat', 'new_track', 'reclassified', 'threat_cleared', 'distance_changed'] as const;

/** The body signal edges the loop accepts: a band crossed, a day part begun, the body stuck. */
export const BODY_EDGES = ['health_ok', 'health_low', 'health_critical', 'food_ok', 'food_low', 'food_critical', 'day', 'night', 'stuck'] as const;
/** One body signal edge. */
export type BodyEdge = (typeof BODY_EDGES)[number];

const perDelta = z.strictObject(Object.fromEntries(BELIEF_DELTA_TYPES.map((type) => [type, unit])) as Record<(typeof BELIEF_DELTA_TYPES)[number], typeof unit>);
const perEdge = z.strictObject(Object.fromEntries(BODY_EDGES.map((edge) => [edge, unit])) as Record<BodyEdge, typeof unit>);
const band = z.strictObject({ ok: unit, low: unit, critical: unit });

/**
 * The cognition loop's signal functions as data (seeds/001 §3.3): how much each input matters (salience),
 * how hard the body's drives press, how a failing streak heats the arc, how thinking tires, and the gate
 * that reads the result. Every field is required and acted on; unknown keys are refused.
 */
export const CognitionLoopConfigSchema = z.strictObject({
  /** The seeds/001 gate the signal is judged by (the LLM config's `gate` shape). */
  gate: CognitionGateConfigSchema,
  salience: z.strictObject({
    /** Salience of one belief delta by type; a message's salience is its most salient delta. */
    deltas: perDelta,
    /** Multiplier of a delta's salience by the track's distance bucket (index 0 nearest; the last entry covers farther buckets). */
    proximity: z.array(unit).min(1).max(64),
    /** Multiplier for a track that is not hostile (a cow coming near matters less than a zombie). */
    peaceful: unit,
    /** Salience of a belief snapshot (a resync, not news). */
    snapshot: unit,
    /** Salience of each body edge. */
    body: perEdge,
    /** Salience of a chat or HTTP suggestion. */
    suggestion: unit,
    /** Salience of a plan outcome: a failed plan asks for a new decision, a completed one less so. */
    outcome: z.strictObject({ completed: unit, failed: unit }),
  }),
  drive: z.strictObject({
    /** Drive pressure of the health band the last health edge set. */
    health: band,
    /** Drive pressure of the food band the last food edge set. */
    food: band,
    /** Drive pressure while it is night. */
    night: unit,
    /** Drive pressure per tracked threat (capped at 1). */
    perThreat: unit,
  }),
  /** arcHot = min(1, consecutive failed plans × perFailure). */
  arc: z.strictObject({ perFailure: unit }),
  /** energy = max(0, 1 − perThought × gate openings within the last windowMs). */
  energy: z.strictObject({ windowMs: z.number().int().positive(), perThought: unit }),
  /** relStakes of an event: a person's suggestion, or anything else. */
  relStakes: z.strictObject({ user: unit, other: unit }),
  /** Plans the loop runs at once; a new decision while full is deferred (`busy`; the most urgent waiting one is taken up when a plan ends) unless its urgency is at least `urgentAt`. */
  maxPlansInFlight: z.number().int().min(1).max(8),
  /** Deferred decisions kept (most urgent first); beyond it the least urgent is dropped, and the busy event says so. */
  maxDeferred: z.number().int().min(0).max(64),
  urgentAt: unit,
  /** Urgency of a suggestion that names none. */
  suggestionUrgency: unit,
});

/** A validated cognition loop config. */
export type CognitionLoopConfig = z.output<typeof CognitionLoopConfigSchema>;
export type CognitionLoopConfigInput = z.input<typeof CognitionLoopConfigSchema>;

/** Validates a cognition loop config; each bad field is named (the same error shape as `loadCognitionConfig`). */
export function loadCognitionLoopConfig(input: unknown): ConfigLoad<CognitionLoopConfig> {
  const parsed = CognitionLoopConfigSchema.safeParse(input);
  if (parsed.success) return { ok: true, config: parsed.data };
  return { ok: false, error: { code: 'invalid_config', message: z.prettifyError(parsed.error), issues: summarizeIssues(parsed.error.issues) } };
}
