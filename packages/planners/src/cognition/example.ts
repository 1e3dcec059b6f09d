import type { CognitionLoopConfigInput } from './config.js';

/**
 * A complete, validated-on-load starting point for `loadCognitionLoopConfig` (seeds/002: nothing is defaulted —
 * copy it and change what your bot needs). A close new threat (1 × 0.6) or a person's ask (0.6 × 0.6 + 0.3) opens
 * the gate at threshold 0.5; a far peaceful track, a snapshot or a completed plan does not.
 */
export const COGNITION_LOOP_EXAMPLE: CognitionLoopConfigInput = {
  gate: { threshold: 0.5, weights: { salience: 0.6, drivePressure: 0.4, arcHot: 0.2, relStakes: 0.3, fatigue: 0.3 }, cooldownMs: 2_000, trivialEvents: ['belief:snapshot'] },
  salience: {
    deltas: { new_threat: 1, new_track: 0.3, reclassified: 0.4, threat_cleared: 0.3, distance_changed: 0.2, track_lost: 0.1 },
    proximity: [1, 0.8, 0.5, 0.2],
    peaceful: 0.3,
    snapshot: 0.05,
    body: { health_ok: 0.1, health_low: 0.7, health_critical: 1, food_ok: 0.05, food_low: 0.6, food_critical: 0.9, day: 0.2, night: 0.6, stuck: 0.8 },
    suggestion: 0.6,
    outcome: { completed: 0.1, failed: 0.6 },
  },
  drive: { health: { ok: 0, low: 0.6, critical: 1 }, food: { ok: 0, low: 0.5, critical: 0.9 }, night: 0.4, perThreat: 0.25 },
  arc: { perFailure: 0.34 },
  energy: { windowMs: 60_000, perThought: 0.1 },
  relStakes: { user: 1, other: 0 },
  maxPlansInFlight: 1,
  maxDeferred: 4,
  urgentAt: 0.9,
  suggestionUrgency: 0.5,
};
