import type { StepFailure, StepOutcome } from '@sinew/executor-contracts';
import type { ActuatorSource } from '../body/instrument.js';
import type { JournalWriteError } from '../journal/records.js';
import type { ExecutorMetrics } from '../metrics/metrics.js';
import type { EventHub } from './events.js';
import type { Runtime } from './runtime.js';
import type { PlanOutcome, PlanStatus } from './types.js';

/** How a plan ended, as its loop knows it. */
export interface PlanEnd {
  readonly steps: StepOutcome[];
  readonly failure: StepFailure | undefined;
  readonly repairs: number;
  readonly startedAt: number;
  readonly failedStepId?: string | undefined;
}

/** The plan's outcome, counted (last, so a scrape that shows the plan shows all it did), flushed to provenance and announced. */
export async function endPlan(rt: Runtime<ActuatorSource>, ids: { readonly planId: string; readonly intentId: string; readonly goal?: string }, end: PlanEnd): Promise<PlanOutcome> {
  const { steps, failure, repairs, startedAt, failedStepId } = end;
  const status: PlanStatus = failure === undefined ? 'completed' : failure.code === 'aborted' ? 'aborted' : 'failed';
  const outcome: PlanOutcome = {
    planId: ids.planId,
    intentId: ids.intentId,
    status,
    steps,
    ...(failure ? { failure } : {}),
    ...(failedStepId ? { failedStepId } : {}),
    repairs,
    startedAt,
    endedAt: rt.clock.now(),
  };
  if (repairs > 0) rt.metrics.plansRepaired.inc({ status });
  if (status === 'completed') rt.metrics.stepsToSuccess.observe({ goal: ids.goal ?? 'unspecified' }, steps.length);
  // Last: once a scrape shows the plan, it shows everything the plan did.
  rt.metrics.plans.inc({ status });
  await rt.report.flush();
  rt.events.emit(status === 'completed' ? 'plan.completed' : 'plan.failed', outcome);
  return outcome;
}

/** A journal record that did not land: counted and announced (the plan that wrote it ends `journal_unavailable` at its next boundary). */
export function journalFailed(metrics: ExecutorMetrics, events: EventHub, error: JournalWriteError): void {
  metrics.journalWriteFailures.inc({ record: error.what });
  events.emit('journal.write_failed', { record: error.what, errno: error.errno, message: error.message });
}
