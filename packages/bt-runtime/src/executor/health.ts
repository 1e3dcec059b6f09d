import type { StepOutcome } from '@sinew/executor-contracts';

/** Per-capability SLA as served by `/api/cognitive/health`. */
export interface CapabilityHealth {
  readonly capability: string;
  readonly steps: number;
  readonly succeeded: number;
  /** succeeded / steps, 0..1 (null before the first step). */
  readonly successRate: number | null;
  readonly meanDurationMs: number | null;
  /** p95 of the last 200 TTFA samples. */
  readonly ttfaP95Ms: number | null;
  /** The last 5 failures, newest first. */
  readonly lastFailures: readonly { readonly code: string; readonly reason: string; readonly stepId: string; readonly at: number }[];
}

const SAMPLES = 200;

interface Stats {
  steps: number;
  succeeded: number;
  durationSumMs: number;
  ttfa: number[];
  failures: { code: string; reason: string; stepId: string; at: number }[];
}

/** Rolling per-capability statistics fed by finished steps. */
export class HealthTracker {
  readonly #stats = new Map<string, Stats>();

  record(capability: string, outcome: StepOutcome): void {
    let stats = this.#stats.get(capability);
    if (!stats) {
      stats = { steps: 0, succeeded: 0, durationSumMs: 0, ttfa: [], failures: [] };
      this.#stats.set(capability, stats);
    }
    stats.steps += 1;
    stats.durationSumMs += Math.max(0, outcome.endedAt - outcome.startedAt);
    if (outcome.status === 'succeeded') stats.succeeded += 1;
    if (outcome.ttfaMs !== undefined) {
      stats.ttfa.push(outcome.ttfaMs);
      if (stats.ttfa.length > SAMPLES) stats.ttfa.shift();
    }
    if (outcome.status !== 'succeeded' && outcome.failure) {
      stats.failures.unshift({ code: outcome.failure.code, reason: outcome.failure.reason, stepId: outcome.stepId, at: outcome.endedAt });
      if (stats.failures.length > 5) stats.failures.pop();
    }
  }

  report(): CapabilityHealth[] {
    return [...this.#stats.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([capability, s]) => ({
        capability,
        steps: s.steps,
        succeeded: s.succeeded,
        successRate: s.steps ? s.succeeded / s.steps : null,
        meanDurationMs: s.steps ? s.durationSumMs / s.steps : null,
        ttfaP95Ms: percentile(s.ttfa, 0.95),
        lastFailures: s.failures.map((f) => ({ ...f })),
      }));
  }
}

function percentile(samples: readonly number[], q: number): number | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? null;
}
