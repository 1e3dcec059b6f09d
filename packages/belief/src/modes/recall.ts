/** The modes an emergency can be of: the self-preservation tier and defense (hunger is maintenance, never an emergency). */
export const EMERGENCY_MODES = ['hazard_block', 'drowning', 'low_health', 'defense'] as const;
/** A mode whose emergencies hazard recall counts. */
export type EmergencyMode = (typeof EMERGENCY_MODES)[number];
/** How an emergency ended, for hazard recall. */
export const EMERGENCY_RESULTS = ['preempted_before_damage', 'damaged_first', 'no_damage'] as const;
/** How an emergency ended. */
export type EmergencyResult = (typeof EMERGENCY_RESULTS)[number];

/**
 * Hazard recall's bookkeeping. An **emergency** is the onset (rising edge) of a self-preservation mode's
 * signal (`hazard_block`: lava/fire/burning; `drowning`: eyes under water with oxygen below threshold;
 * `low_health`: health below threshold or falling fast) or of `defense` (the nearest hostile coming within
 * `dangerWithinBlocks`). It ends in exactly one result:
 * - `preempted_before_damage`: the mode's fast path was dispatched to the preemptor before the body lost health;
 * - `damaged_first`: the body's health fell (the first drop after onset — the damage attributed to it) before that dispatch;
 * - `no_damage`: neither happened within `windowMs` of onset, or the signal released first.
 * Recall = preempted_before_damage / (preempted_before_damage + damaged_first).
 */
export interface EmergencyTracker {
  onset(mode: EmergencyMode, atMs: number): void;
  /** The mode's fast path went to the preemptor. */
  dispatched(mode: EmergencyMode, atMs: number): void;
  /** A health reading: a drop since the previous one is damage; also closes expired emergencies. */
  health(health: number, atMs: number): void;
  /** The signal released: an emergency still open ends `no_damage`. */
  released(mode: EmergencyMode, atMs: number): void;
}

/** Tracks open emergencies (one per mode) and reports each one's result once. */
export function createEmergencyTracker(
  windowMs: number,
  onResult: (mode: EmergencyMode, result: EmergencyResult, atMs: number, onsetMs: number) => void,
): EmergencyTracker {
  const open = new Map<EmergencyMode, number>();
  let lastHealth: number | undefined;
  const close = (mode: EmergencyMode, result: EmergencyResult, atMs: number) => {
    const onsetMs = open.get(mode);
    if (onsetMs === undefined) return;
    open.delete(mode);
    onResult(mode, result, atMs, onsetMs);
  };
  const expire = (atMs: number) => {
    for (const [mode, onsetMs] of open) if (atMs - onsetMs > windowMs) close(mode, 'no_damage', onsetMs + windowMs);
  };
  return {
    onset(mode, atMs) {
      expire(atMs);
      if (!open.has(mode)) open.set(mode, atMs);
    },
    dispatched(mode, atMs) {
      expire(atMs);
      close(mode, 'preempted_before_damage', atMs);
    },
    health(health, atMs) {
      expire(atMs);
      const damaged = lastHealth !== undefined && health < lastHealth;
      lastHealth = health;
      if (damaged) for (const mode of [...open.keys()]) close(mode, 'damaged_first', atMs);
    },
    released(mode, atMs) {
      expire(atMs);
      close(mode, 'no_damage', atMs);
    },
  };
}
