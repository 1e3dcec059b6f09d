import { parseConfig } from '@sinew/executor-contracts';
import { z } from 'zod';

/** FM-04 thresholds: more than `maxReversals` direction reversals within `windowMs` is flapping. */
export const FlapPolicySchema = z.object({
  windowMs: z.number().positive().default(10_000),
  maxReversals: z.number().int().nonnegative().default(3),
  /** Horizontal displacement (blocks) below which a sample is standing still, not a direction. */
  minStep: z.number().positive().default(0.15),
  /** Angle between successive moves (degrees) above which the move counts as a reversal. */
  reversalAngleDeg: z.number().min(90).max(180).default(120),
});
export type FlapPolicy = z.output<typeof FlapPolicySchema>;
export type FlapPolicyInput = z.input<typeof FlapPolicySchema>;

/** Watches navigation progress for flapping (FM-04): moving back and forth without getting closer. */
export interface FlapDetector {
  /** Feeds one position sample; returns true once the body is flapping (FM-04). */
  sample(position: { x: number; z: number }, now: number): boolean;
  /** Reversals inside the current window. */
  reversals(now: number): number;
}

/**
 * Detects navigation flapping (FM-04): the body walking back and forth without getting anywhere.
 * Pure and clock-free: the caller supplies the time of each sample.
 */
export function createFlapDetector(policy: FlapPolicyInput = {}): FlapDetector {
  const { windowMs, maxReversals, minStep, reversalAngleDeg } = parseConfig('createFlapDetector', FlapPolicySchema, policy);
  const cosLimit = Math.cos((reversalAngleDeg * Math.PI) / 180);
  let anchor: { x: number; z: number } | undefined;
  let lastDirection: { x: number; z: number } | undefined;
  const reversalTimes: number[] = [];
  const prune = (now: number): void => {
    while (reversalTimes.length > 0 && now - (reversalTimes[0] as number) > windowMs) reversalTimes.shift();
  };
  return {
    sample(position, now) {
      if (!anchor) {
        anchor = { x: position.x, z: position.z };
        return false;
      }
      const dx = position.x - anchor.x;
      const dz = position.z - anchor.z;
      const length = Math.hypot(dx, dz);
      if (length >= minStep) {
        const direction = { x: dx / length, z: dz / length };
        if (lastDirection && direction.x * lastDirection.x + direction.z * lastDirection.z <= cosLimit) reversalTimes.push(now);
        lastDirection = direction;
        anchor = { x: position.x, z: position.z };
      }
      prune(now);
      return reversalTimes.length > maxReversals;
    },
    reversals(now) {
      prune(now);
      return reversalTimes.length;
    },
  };
}
