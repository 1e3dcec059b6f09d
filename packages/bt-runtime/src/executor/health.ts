import type { StepOutcome } from '@sinew/executor-contracts';

/** SLA figures of one capability version (or of all its versions together). */
export interface SlaFigures {
  readonly steps: number;
  readonly succeeded: number;
  /** succeeded / steps, 0..1 (null before the first step). */
  readonly successRate: number | null;
  readonly meanDurationMs: number | null;
  /** p95 of the last 200 TTFA samples. */
  readonly ttfaP95Ms: number | null;
  /** p95 of the last 200 step durations. */
  readonly durationP95Ms: number | null;
}

/** Per-capability SLA as served by `/api/cognitive/health`, with each version's own figures. */
export interface CapabilityHealth extends SlaFigures {
  readonly capability: string;
  /** The last 5 failures, newest first. */
  readonly lastFailures: readonly { readonly code: string; readonly reason: string; readonly stepId: string; readonly version: string; readonly at: number }[];
  /** One entry per version that ran, highest step count first. */
  readonly versions: readonly (SlaFigures & { readonly version: string })[];
}

const SAMPLES = 200;

/** Rolling counts and samples behind one set of SLA figures. */
class Sla {
  steps = 0;
  succeeded = 0;
  durationSumMs = 0;
  readonly ttfa = new Samples();
  readonly durations = new Samples();

  add(outcome: StepOutcome): void {
    const durationMs = Math.max(0, outcome.endedAt - outcome.startedAt);
    this.steps += 1;
    this.durationSumMs += durationMs;
    if (outcome.status === 'succeeded') this.succeeded += 1;
    this.durations.push(durationMs);
    if (outcome.ttfaMs !== undefined) this.ttfa.push(outcome.ttfaMs);
  }

  figures(): SlaFigures {
    return {
      steps: this.steps,
      succeeded: this.succeeded,
      successRate: this.steps ? this.succeeded / this.steps : null,
      meanDurationMs: this.steps ? this.durationSumMs / this.steps : null,
      ttfaP95Ms: this.ttfa.percentile(0.95),
      durationP95Ms: this.durations.percentile(0.95),
    };
  }
}

interface Stats {
  readonly all: Sla;
  readonly versions: Map<string, Sla>;
  readonly failures: { code: string; reason: string; stepId: string; version: string; at: number }[];
}

/** Where the steps of one capability version are recorded: its own SLA and its capability's (looked up once, not per step). */
export class VersionHealth {
  constructor(
    private readonly stats: Stats,
    private readonly sla: Sla,
    private readonly version: string,
  ) {}

  record(outcome: StepOutcome): void {
    const stats = this.stats;
    stats.all.add(outcome);
    this.sla.add(outcome);
    if (outcome.status !== 'succeeded' && outcome.failure) {
      stats.failures.unshift({ code: outcome.failure.code, reason: outcome.failure.reason, stepId: outcome.stepId, version: this.version, at: outcome.endedAt });
      if (stats.failures.length > 5) stats.failures.pop();
    }
  }
}

/** Rolling per-capability (and per-version) statistics fed by finished steps. */
export class HealthTracker {
  readonly #stats = new Map<string, Stats>();

  record(capability: string, version: string, outcome: StepOutcome): void {
    this.of(capability, version).record(outcome);
  }

  /** The recorder of a capability version's steps. */
  of(capability: string, version: string): VersionHealth {
    let stats = this.#stats.get(capability);
    if (!stats) {
      stats = { all: new Sla(), versions: new Map(), failures: [] };
      this.#stats.set(capability, stats);
    }
    let sla = stats.versions.get(version);
    if (!sla) stats.versions.set(version, (sla = new Sla()));
    return new VersionHealth(stats, sla, version);
  }

  /** SLA figures of one capability version, once it ran. */
  version(capability: string, version: string): SlaFigures | undefined {
    return this.#stats.get(capability)?.versions.get(version)?.figures();
  }

  report(): CapabilityHealth[] {
    return [...this.#stats.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([capability, s]) => ({
        capability,
        ...s.all.figures(),
        lastFailures: s.failures.map((f) => ({ ...f })),
        versions: [...s.versions.entries()].map(([version, sla]) => ({ version, ...sla.figures() })).sort((a, b) => b.steps - a.steps),
      }));
  }
}

/**
 * The last SAMPLES values, in a ring allocated in full up front: a growing array of boxed doubles would keep
 * adding heap until its 200th step (minutes into a fleet's run), and a step's record costs no array shift.
 */
class Samples {
  readonly #values = new Float64Array(SAMPLES);
  #count = 0;
  #next = 0;

  push(value: number): void {
    const next = this.#next;
    this.#values[next] = value;
    // Compared, not `%` and Math.min: twice per step on the hot path.
    this.#next = next + 1 === SAMPLES ? 0 : next + 1;
    if (this.#count < SAMPLES) this.#count += 1;
  }

  percentile(q: number): number | null {
    if (this.#count === 0) return null;
    const sorted = this.#values.slice(0, this.#count).sort();
    return sorted[Math.min(this.#count - 1, Math.ceil(q * this.#count) - 1)] ?? null;
  }
}
