import { checkArgs, describeError, runGuard, type Canary, type Capability, type CapabilityRegistry, type ErrorCode, type Logger, type StepFailure, type StepOutcome } from '@sinew/executor-contracts';
import type { ActuatorSource } from '../body/instrument.js';
import type { ExecutorMetrics } from '../metrics/metrics.js';
import type { EventHub } from './events.js';
import type { HealthTracker, SlaFigures } from './health.js';
import type { StepRunOptions } from './runtime.js';
import { StepRun } from './step-run.js';

/** Failures that are not the canary's doing (the stable version could not run either). */
const NOT_THE_CANARY: ReadonlySet<ErrorCode> = new Set(['aborted', 'preempted', 'body_disconnected', 'duplicate']);

/** A trial decided for one step (see `CanaryTrials.decide`). */
export interface Trial<Body> {
  readonly stable: Capability<Body>;
  /** Set when the step runs on the canary (`canaryRun`: the step with the canary's capability and args). */
  readonly canary?: Canary<Body>;
  readonly canaryRun?: StepRunOptions<Body & ActuatorSource>;
  readonly shadow?: { readonly canary: Canary<Body>; readonly refusal: StepFailure | undefined } | undefined;
}

/** Runtime canaries (seed 004): which steps run the canary, its fallbacks, and the SLA verdict. */
export class CanaryTrials<Body> {
  readonly #credit = new Map<string, number>();

  constructor(
    private readonly deps: {
      readonly registry: CapabilityRegistry<Body>;
      readonly health: HealthTracker;
      readonly metrics: ExecutorMetrics;
      readonly events: EventHub;
      readonly log: Logger;
    },
  ) {}

  /**
   * The canary's part in a step, decided before its machine starts: nothing (no trial of this verb: the
   * common case), the canary's run when the step is one of its share, or the shadow verdict to compare.
   */
  decide<B extends Body & ActuatorSource>(run: StepRunOptions<B>): Trial<B> | undefined {
    const registry = this.deps.registry;
    if (typeof registry.canary !== 'function' || !registry.canary(run.capability.name)) return undefined;
    const stable = run.capability;
    const canary = run.step.capabilityVersion === undefined ? this.pick(stable) : undefined;
    if (!canary) return { stable, shadow: this.shadow(stable, run.rt.body, run.step.args) };
    const parsed = checkArgs(canary.capability, run.step.args);
    if (parsed.ok) return { stable, canary, canaryRun: { ...run, capability: canary.capability, args: parsed.args } };
    this.refusedArgs(canary, stable, run.step.stepId, parsed.failure);
    return { stable };
  }

  /** Runs a decided trial: the canary first (falling back to the stable version when it failed before acting), then the verdict. */
  async runTrial<B extends Body & ActuatorSource>(trial: Trial<B>, run: StepRunOptions<B>): Promise<StepOutcome> {
    if (trial.canary && trial.canaryRun) {
      const tried = await new StepRun<B>(trial.canaryRun).run();
      if (!this.fallsBack(trial.canary, trial.stable, tried)) {
        this.judge(trial.stable);
        return tried;
      }
    }
    const outcome = await new StepRun<B>(trial.canary ? { ...run, startedAt: run.rt.clock.now() } : run).run();
    if (trial.shadow) this.compareShadow(trial.shadow, trial.stable, outcome);
    else this.judge(trial.stable);
    return outcome;
  }

  /** The verb's canary when this step is one of its `share` (an even spread: credit accrues per step). */
  pick(stable: Capability<Body>): Canary<Body> | undefined {
    const canary = typeof this.deps.registry.canary === 'function' ? this.deps.registry.canary(stable.name) : undefined;
    if (!canary || canary.capability === stable || canary.options.mode === 'shadow') return undefined;
    const credit = (this.#credit.get(stable.name) ?? 0) + canary.options.share;
    const take = credit >= 1 - 1e-9;
    this.#credit.set(stable.name, take ? credit - 1 : credit);
    return take ? canary : undefined;
  }

  /** The verb's canary in shadow mode: its guard's verdict on the step's args, taken before the stable version runs. */
  shadow(stable: Capability<Body>, body: Body, rawArgs: unknown): { readonly canary: Canary<Body>; readonly refusal: StepFailure | undefined } | undefined {
    const canary = typeof this.deps.registry.canary === 'function' ? this.deps.registry.canary(stable.name) : undefined;
    if (!canary || canary.options.mode !== 'shadow') return undefined;
    const parsed = checkArgs(canary.capability, rawArgs);
    return { canary, refusal: parsed.ok ? runGuard(canary.capability, { body }, parsed.args) : parsed.failure };
  }

  /** Compares the shadow's verdict with what the stable version did; agreement is counted, the difference logged as an event. */
  compareShadow(shadow: { readonly canary: Canary<Body>; readonly refusal: StepFailure | undefined }, stable: Capability<Body>, outcome: StepOutcome): void {
    const wouldRun = shadow.refusal === undefined;
    const stableRan = outcome.status === 'succeeded' || outcome.ttfaMs !== undefined;
    const verdict = wouldRun === stableRan ? 'agree' : 'disagree';
    const { name, version } = shadow.canary.capability;
    this.deps.metrics.canaryShadow.inc({ capability: name, version, verdict });
    const would = wouldRun ? 'would have run' : `would have refused (${shadow.refusal!.code}: ${shadow.refusal!.reason})`;
    this.deps.events.emit('canary.shadow', { capability: name, version, stable: stable.version, stepId: outcome.stepId, verdict, reason: `${version} ${would}; ${stable.version} ${outcome.status}` });
  }

  /** Whether a canary step re-runs on the stable version: it failed before any actuator command, for its own reasons. */
  fallsBack(canary: Canary<Body>, stable: Capability<Body>, outcome: StepOutcome): boolean {
    const code = outcome.failure?.code;
    if (outcome.status !== 'failed' || outcome.ttfaMs !== undefined || code === undefined || NOT_THE_CANARY.has(code)) return false;
    this.#decide(canary.capability, stable, 'fallback', `${outcome.stepId} failed before acting (${code}); re-run on ${stable.version}`);
    return true;
  }

  /** The canary's schema refused the step's args: the stable version runs it (a fallback like any other). */
  refusedArgs(canary: Canary<Body>, stable: Capability<Body>, stepId: string, failure: StepFailure): void {
    this.#decide(canary.capability, stable, 'fallback', `${stepId}: ${canary.capability.version} refused the args (${failure.reason}); run on ${stable.version}`);
  }

  /** Once the canary ran `minSteps`, promotes it when its SLA is no worse than the stable version's, else demotes it; a registry that throws is logged (the step's outcome stands). */
  judge(stable: Capability<Body>): void {
    try {
      this.#judge(stable);
    } catch (error) {
      this.deps.log.error(`canary verdict on ${stable.name} failed`, { error: describeError(error) });
    }
  }

  #judge(stable: Capability<Body>): void {
    const canary = typeof this.deps.registry.canary === 'function' ? this.deps.registry.canary(stable.name) : undefined;
    if (!canary || canary.capability === stable) return;
    const { health, registry } = this.deps;
    const canarySla = health.version(stable.name, canary.capability.version);
    const stableSla = health.version(stable.name, stable.version);
    if (!canarySla || !stableSla || canarySla.steps < canary.options.minSteps) return;
    const regression = regressionOf(canarySla, stableSla, canary.options.latencyTolerance);
    if (regression) registry.demote(stable.name);
    else registry.promote(stable.name);
    const reason = regression ?? `no worse than ${stable.version} over ${canarySla.steps} steps`;
    this.#decide(canary.capability, stable, regression ? 'demoted' : 'promoted', reason, { canarySla, stableSla });
  }

  #decide(canary: Capability<Body>, stable: Capability<Body>, decision: 'promoted' | 'demoted' | 'fallback', reason: string, sla?: { canarySla: SlaFigures; stableSla: SlaFigures }): void {
    this.deps.metrics.canaryDecisions.inc({ capability: canary.name, version: canary.version, decision });
    this.deps.events.emit('canary.decision', { capability: canary.name, version: canary.version, stable: stable.version, decision, reason, ...sla });
  }
}

/** Why the canary is worse than the stable version (success rate, TTFA p95, duration p95), if it is. */
function regressionOf(canary: SlaFigures, stable: SlaFigures, tolerance: number): string | undefined {
  if ((canary.successRate ?? 0) < (stable.successRate ?? 0)) return `success rate ${fmt(canary.successRate)} < stable ${fmt(stable.successRate)}`;
  for (const key of ['ttfaP95Ms', 'durationP95Ms'] as const) {
    const [c, s] = [canary[key], stable[key]];
    if (c !== null && s !== null && c > s * (1 + tolerance)) return `${key} ${c} ms > stable ${s} ms (+${tolerance * 100} %)`;
  }
  return undefined;
}

function fmt(rate: number | null): string {
  return rate === null ? 'n/a' : rate.toFixed(3);
}
