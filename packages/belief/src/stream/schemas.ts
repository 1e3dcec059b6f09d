import { z } from 'zod';

/** Wire version of the stream (pivot 9: consumers choose by version, never by payload shape). */
export const STREAM_VERSION = 'sinew.belief/1' as const;

/** The compact, bucketed view of one track — the same shape in snapshots and deltas. */
export const TrackSummarySchema = z
  .object({
    trackId: z.number().int().positive(),
    cls: z.string().min(1),
    hostile: z.boolean(),
    threat: z.boolean(),
    distanceBucket: z.number().int().nonnegative(),
  })
  .strict();
export type TrackSummary = z.infer<typeof TrackSummarySchema>;

/** What a saliency delta reports about a track (new, moved, threat raised, lost, …). */
export const DeltaTypeSchema = z.enum([
  'new_threat',
  'track_lost',
  'reclassified',
  'new_track',
  'threat_cleared',
  'distance_changed',
]);
export type DeltaType = z.infer<typeof DeltaTypeSchema>;

/** One saliency delta. Every type but track_lost carries the track's new summary. */
export const SaliencyDeltaSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.enum(['new_threat', 'reclassified', 'new_track', 'threat_cleared', 'distance_changed']),
      trackId: z.number().int().positive(),
      track: TrackSummarySchema,
    })
    .strict(),
  z
    .object({
      type: z.literal('track_lost'),
      trackId: z.number().int().positive(),
      reason: z.enum(['unseen', 'evicted']),
    })
    .strict(),
]);
export type SaliencyDelta = z.infer<typeof SaliencyDeltaSchema>;

const envelope = {
  version: z.literal(STREAM_VERSION),
  streamId: z.string().min(1),
  seq: z.number().int().positive(),
  tickId: z.number().int().nonnegative(),
};

/** A stream message carrying a full snapshot of the tracks. */
export const SnapshotMessageSchema = z
  .object({ ...envelope, kind: z.literal('snapshot'), tracks: z.array(TrackSummarySchema) })
  .strict();
export type SnapshotMessage = z.infer<typeof SnapshotMessageSchema>;

/** A stream message carrying one tick's saliency deltas. */
export const DeltasMessageSchema = z
  .object({ ...envelope, kind: z.literal('deltas'), deltas: z.array(SaliencyDeltaSchema).min(1) })
  .strict();
export type DeltasMessage = z.infer<typeof DeltasMessageSchema>;

/** Everything the bus sends to cognition: snapshots (resync) and deltas (normal path), nothing else. */
export const StreamMessageSchema = z.discriminatedUnion('kind', [SnapshotMessageSchema, DeltasMessageSchema]);
export type StreamMessage = z.infer<typeof StreamMessageSchema>;
