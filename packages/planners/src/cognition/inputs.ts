import { z } from 'zod';
import { BODY_EDGES, TRACK_DELTA_TYPES } from './config.js';

const tick = z.number().int().nonnegative();

/** One track as the belief stream summarizes it (a `@sinew/belief` `TrackSummary` fits): bucketed, no raw positions. */
const TrackSummary = z.strictObject({
  trackId: z.number().int().positive(),
  cls: z.string().min(1),
  hostile: z.boolean(),
  threat: z.boolean(),
  distanceBucket: z.number().int().nonnegative(),
});

const Delta = z.discriminatedUnion('type', [
  z.strictObject({ type: z.enum(TRACK_DELTA_TYPES), trackId: z.number().int().positive(), track: TrackSummary }),
  z.strictObject({ type: z.literal('track_lost'), trackId: z.number().int().positive(), reason: z.enum(['unseen', 'evicted']) }),
]);

const envelope = { version: z.literal('sinew.belief/1'), streamId: z.string().min(1), seq: z.number().int().positive(), tickId: tick };

/**
 * The only perception cognition accepts (seeds/003): a belief stream message — a snapshot or one tick's
 * saliency deltas — in the `@sinew/belief` wire shape. Raw detections (entity lists) do not fit it.
 */
export const BeliefMessageSchema = z.discriminatedUnion('kind', [
  z.strictObject({ ...envelope, kind: z.literal('snapshot'), tracks: z.array(TrackSummary) }),
  z.strictObject({ ...envelope, kind: z.literal('deltas'), deltas: z.array(Delta).min(1) }),
]);
/** A belief stream message as cognition reads it. */
export type BeliefMessage = z.infer<typeof BeliefMessageSchema>;

/** What enters the loop: belief messages, body signal edges, suggestions from chat or HTTP, plan outcomes. */
export const CognitionInputSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('belief'), message: BeliefMessageSchema }),
  z.strictObject({ kind: z.literal('body'), tick, edge: z.enum(BODY_EDGES) }),
  z.strictObject({
    kind: z.literal('suggestion'),
    tick,
    via: z.enum(['chat', 'http']),
    /** What the person asked for, in words (the intent's goal). */
    text: z.string().min(1).max(256),
    /** Who asked (a player name or the HTTP caller). */
    by: z.string().min(1).max(64),
    urgency: z.number().min(0).max(1).optional(),
    timeBudgetMs: z.number().int().positive().optional(),
    /** The chat message id or HTTP request id: the plan's provenance names it. */
    provenanceRef: z.string().max(256).optional(),
  }),
  z.strictObject({
    kind: z.literal('outcome'),
    tick,
    planId: z.string().min(1),
    status: z.string().min(1),
    failure: z.strictObject({ code: z.string(), reason: z.string() }).optional(),
  }),
]);
/** One input of the loop. */
export type CognitionInput = z.input<typeof CognitionInputSchema>;
/** A validated input. */
export type CognitionInputParsed = z.output<typeof CognitionInputSchema>;

/** The tick an input happened at (a belief message carries its own). */
export function tickOf(input: CognitionInputParsed): number {
  return input.kind === 'belief' ? input.message.tickId : input.tick;
}
