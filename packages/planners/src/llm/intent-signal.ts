import type { Intent } from '@sinew/executor-contracts';
import type { PlannerWorld } from '../contract.js';
import type { GateSignal } from './gate.js';

const unit = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : fallback);

/**
 * The seeds/001 gate signal of an intent, deterministic and documented:
 * - `eventType`: `context.eventType` when a string, else `intent:<source>`;
 * - `salience`: the intent's urgency;
 * - `drivePressure`: the larger of 1 − health/20 and 1 − food/20 (0 when the world has neither);
 * - `arcHot`: `context.arcHot` in [0, 1], else 0;
 * - `relStakes`: 1 when a person asked (`source: 'user'`), else `context.relStakes` or 0;
 * - `energy`: `context.energy` in [0, 1], else 1 (no fatigue model);
 * - `choices`: the verbs the model may use (fewer than two is no real choice).
 */
export function intentGateSignal(intent: Intent, world: unknown, verbs: readonly string[]): GateSignal {
  const { context } = intent;
  const body = world as Partial<PlannerWorld> | undefined;
  const pressure = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? unit(1 - value / 20, 0) : 0);
  return {
    eventType: typeof context.eventType === 'string' && context.eventType ? context.eventType : `intent:${intent.source}`,
    salience: intent.urgency,
    drivePressure: Math.max(pressure(body?.health), pressure(body?.food)),
    arcHot: unit(context.arcHot, 0),
    relStakes: intent.source === 'user' ? 1 : unit(context.relStakes, 0),
    energy: unit(context.energy, 1),
    choices: [...verbs],
  };
}
