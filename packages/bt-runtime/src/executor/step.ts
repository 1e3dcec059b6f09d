import type { Capability, StepFailure, StepOutcome } from '@sinew/executor-contracts';
import type { ProvenanceRecord, TraceEntry } from '../provenance/provenance.js';
import { capRef, type PlanContext } from './plan-context.js';
import type { ActiveStepState } from './types.js';

/**
 * A step's life as one closed set of phases. A step waits for the body (`queued`), holds it (`admitted`),
 * is guarded (`guarding`); each attempt observes (`observing`), runs its runner under the watchdogs
 * (`running`), waits out an ignored abort (`grace`) or observes again and checks acceptance (`accepting`);
 * then the step waits to retry (`backoff`), gives the body to a preemption (`interrupted`) or is `ended`.
 */
export const STEP_PHASES = ['queued', 'admitted', 'guarding', 'observing', 'running', 'grace', 'accepting', 'backoff', 'interrupted', 'ended'] as const;

export type StepPhaseName = (typeof STEP_PHASES)[number];

/** Each phase as its index in STEP_PHASES: the machine compares numbers on the hot path, names are for people. */
export const Phase = { queued: 0, admitted: 1, guarding: 2, observing: 3, running: 4, grace: 5, accepting: 6, backoff: 7, interrupted: 8, ended: 9 } as const satisfies { readonly [P in StepPhaseName]: number };

export type StepPhase = (typeof Phase)[StepPhaseName];

/** The phases an attempt lives in (an attempt that is over is `ended`, whatever the step does next). */
export type AttemptPhase = (typeof Phase)['observing' | 'running' | 'grace' | 'accepting' | 'ended'];

/** Where an attempt's end takes the step: a retry after backoff, a yield to a preemption, or its end. */
const AFTER_ATTEMPT = ['backoff', 'interrupted', 'ended'] as const;

/** Every legal phase change; the README's diagram is checked against this table. */
export const STEP_TRANSITIONS: { readonly [P in StepPhaseName]: readonly StepPhaseName[] } = {
  queued: ['admitted', 'ended'],
  admitted: ['guarding', 'interrupted', 'ended'],
  guarding: ['observing', 'ended'],
  // observing → accepting: a resumed step whose guard no longer holds checks acceptance against its kept `pre` only.
  observing: ['running', 'accepting', ...AFTER_ATTEMPT],
  running: ['grace', 'accepting', ...AFTER_ATTEMPT],
  grace: AFTER_ATTEMPT,
  accepting: ['backoff', 'ended'],
  backoff: ['guarding', 'interrupted', 'ended'],
  interrupted: ['admitted', 'ended'],
  ended: [],
};

/** A phase change the machine does not have: an executor bug, never user input. */
export class StepPhaseError extends Error {
  override readonly name = 'StepPhaseError';
  constructor(
    readonly from: StepPhaseName,
    readonly to: StepPhaseName,
  ) {
    super(`illegal step phase change ${from} → ${to}`);
  }
}

/** The table as one bit mask of successors per phase. */
const SUCCESSORS: readonly number[] = STEP_PHASES.map((from) => STEP_TRANSITIONS[from].reduce((mask, to) => mask | (1 << Phase[to]), 0));

/** The one transition function: `to` when the machine has the edge `from → to`, else a StepPhaseError. */
export function transition<To extends StepPhase>(from: StepPhase, to: To): To {
  if ((SUCCESSORS[from]! & (1 << to)) === 0) throw new StepPhaseError(STEP_PHASES[from], STEP_PHASES[to]);
  return to;
}

/** The phase `state()` shows for a live step (the public four; the finer phases are internal). */
export function shownPhase(phase: StepPhase, attempts: number): ActiveStepState['phase'] {
  switch (phase) {
    case Phase.backoff:
      return 'backoff';
    case Phase.interrupted:
      return 'interrupted';
    case Phase.queued:
    case Phase.admitted:
      return 'starting';
    case Phase.guarding:
      return attempts === 0 ? 'starting' : 'running';
    default:
      return 'running';
  }
}

/**
 * Everything known about a step when it ends; `buildOutcome` turns it into the outcome, the reporter records it. A step
 * run writes every field in one literal (unset ones undefined): no property store grown per step, one shape for the reporter.
 */
export interface StepEnd {
  readonly planCtx: PlanContext;
  readonly stepId: string;
  readonly verb: string;
  readonly capability?: Capability<never>;
  readonly status: StepOutcome['status'];
  readonly failure?: StepFailure;
  readonly attempts: number;
  readonly startedAt: number;
  readonly ttfaMs?: number;
  readonly observables?: Record<string, unknown>;
  readonly key?: string;
  readonly args?: unknown;
  readonly trace?: readonly TraceEntry[];
  readonly traceDropped?: number;
  /** Every failure of every attempt (default: the final failure alone). */
  readonly failures?: readonly StepFailure[];
  readonly preemptions?: number;
  readonly acceptance?: ProvenanceRecord['acceptance'];
  /** Answered from the idempotency store, not dispatched. */
  readonly duplicate?: boolean;
}

/** `T` with its readonly fields writable: hot-path objects are assigned field by field, not spread. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The failures of a step that had none (shared, frozen). */
export const NO_FAILURES: readonly StepFailure[] = Object.freeze([]);

/** The one outcome builder: every step, refused, answered from the store or run, ends through here. */
export function buildOutcome(end: StepEnd, endedAt: number): StepOutcome {
  const { planCtx, stepId, verb, status, attempts, startedAt, capability, failure, ttfaMs, observables } = end;
  const planId = planCtx.plan.planId;
  // A run step's common endings in one literal each, in the general path's key order: every field in the object itself
  // (fields added to a literal later go to a separate property store, kept as long as the outcome: the plan's whole run).
  if (capability !== undefined && observables === undefined) {
    const cap = capRef(capability);
    if (failure === undefined) return ttfaMs === undefined ? { planId, stepId, verb, status, attempts, startedAt, endedAt, capability: cap } : { planId, stepId, verb, status, attempts, startedAt, endedAt, capability: cap, ttfaMs };
    if (ttfaMs === undefined) return { planId, stepId, verb, status, attempts, startedAt, endedAt, capability: cap, failure };
  }
  // Assigned, not spread: this runs once per step.
  const outcome: Mutable<StepOutcome> = { planId, stepId, verb, status, attempts, startedAt, endedAt };
  if (capability) outcome.capability = capRef(capability);
  if (failure) outcome.failure = failure;
  if (ttfaMs !== undefined) outcome.ttfaMs = ttfaMs;
  if (observables) outcome.observables = observables;
  return outcome;
}
