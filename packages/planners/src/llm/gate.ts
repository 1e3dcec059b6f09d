import { z } from 'zod';
import type { CognitionGateConfig } from './config.js';

const unit = z.number().min(0).max(1);

/** What the gate reads about an event (seeds/001 §3.3), every number in [0, 1]. */
export const GateSignalSchema = z.object({
  eventType: z.string().min(1),
  salience: unit,
  drivePressure: unit,
  arcHot: unit,
  relStakes: unit,
  energy: unit,
  /** The behavioural options open right now; fewer than two distinct is no real choice. */
  choices: z.array(z.string()),
});
export type GateSignal = z.infer<typeof GateSignalSchema>;

/** What the gate decided for one signal, and why. */
export interface GateDecision {
  readonly think: boolean;
  /** The meaningfulness score M. */
  readonly meaningfulness: number;
  /** Each failed check, in words; empty when `think`. */
  readonly blocked: readonly ('below_threshold' | 'trivial_event' | 'cooldown' | 'no_real_choice' | 'invalid_signal')[];
  readonly reason: string;
}

/** The seeds/001 gate: decides whether a signal is worth planning for. */
export interface CognitionGate {
  /** Decides whether to call the LLM now; a positive decision starts the cooldown. */
  evaluate(signal: GateSignal): GateDecision;
}

/**
 * The seeds/001 eligibility check: think only when M ≥ threshold, the event is not trivial, the
 * cooldown has elapsed and there is a real choice. Time comes from the injected clock.
 */
export function createCognitionGate(config: CognitionGateConfig, clock: { now(): number }): CognitionGate {
  let lastThought: number | undefined;
  return {
    evaluate(input) {
      const parsed = GateSignalSchema.safeParse(input);
      if (!parsed.success) {
        return { think: false, meaningfulness: 0, blocked: ['invalid_signal'], reason: `invalid gate signal: ${z.prettifyError(parsed.error)}` };
      }
      const signal = parsed.data;
      const w = config.weights;
      const m =
        w.salience * signal.salience +
        w.drivePressure * signal.drivePressure +
        w.arcHot * signal.arcHot +
        w.relStakes * signal.relStakes -
        w.fatigue * (1 - signal.energy);
      const now = clock.now();
      const blocked: GateDecision['blocked'][number][] = [];
      const why: string[] = [];
      if (m < config.threshold) blocked.push('below_threshold'), why.push(`M ${m.toFixed(3)} < threshold ${config.threshold}`);
      if (config.trivialEvents.includes(signal.eventType)) blocked.push('trivial_event'), why.push(`event "${signal.eventType}" is trivial`);
      if (lastThought !== undefined && now - lastThought < config.cooldownMs) {
        blocked.push('cooldown');
        why.push(`cooldown: ${now - lastThought} ms of ${config.cooldownMs} ms elapsed`);
      }
      if (new Set(signal.choices).size < 2) blocked.push('no_real_choice'), why.push(`only ${new Set(signal.choices).size} option(s): no real choice`);
      const think = blocked.length === 0;
      if (think) lastThought = now;
      return { think, meaningfulness: m, blocked, reason: think ? `M ${m.toFixed(3)} ≥ ${config.threshold}, a real choice among ${signal.choices.length}` : why.join('; ') };
    },
  };
}
