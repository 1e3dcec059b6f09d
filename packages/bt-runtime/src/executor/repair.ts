import { describeError, type Logger, type PlanStep, type RepairHook, type RepairResponse, type StepFailure } from '@sinew/executor-contracts';
import type { Clock, TimerHandle } from '../clock/clock.js';
import type { ExecutorMetrics } from '../metrics/metrics.js';
import type { PlanContext } from './plan-context.js';
import { safeRead } from './safe.js';

/** The repair hook's answer, read defensively: replacement steps (checked one by one later) or none. */
export function readRepair(response: unknown): { steps: unknown[]; replace: boolean } | undefined {
  const steps = (response as RepairResponse | undefined)?.steps;
  if (!Array.isArray(steps) || steps.length === 0) return undefined;
  return { steps: [...steps], replace: (response as RepairResponse).replace === true };
}

/** Failures the repair hook may answer: precond_missing (FM-02) and exhausted attempt failures. */
export function isRepairable(failure: StepFailure): boolean {
  switch (failure.code) {
    case 'unknown_verb':
    case 'invalid_args':
    case 'guard_failed':
    case 'aborted':
    case 'preempted':
    case 'duplicate':
    case 'body_disconnected':
    case 'journal_unavailable':
      return false;
    default:
      return true;
  }
}

/** What asking the repair hook needs of the executor. */
export interface RepairAsk {
  readonly hook: RepairHook;
  readonly clock: Clock;
  readonly metrics: ExecutorMetrics;
  readonly log: Logger;
  readonly timeoutMs: number;
}

/** Asks the repair hook, bounded by `timeoutMs`; a throw, a hang or an unreadable answer is no repair. */
export async function askRepair(ask: RepairAsk, planCtx: PlanContext, step: PlanStep, failure: StepFailure, repairsSoFar: number): Promise<{ steps: unknown[]; replace: boolean } | undefined> {
  const { clock, metrics, log, timeoutMs } = ask;
  let timer: TimerHandle | undefined;
  const timedOut = Symbol('timeout');
  const signal = planCtx.signal;
  let onAbort: (() => void) | undefined;
  try {
    const answer = Promise.resolve(ask.hook.repair({ plan: planCtx.plan, step, failure, repairsSoFar }));
    // The repair deadline, or the plan's own end (cancelled, out of time budget), whichever comes first.
    const deadline = new Promise<typeof timedOut>((resolve) => {
      timer = clock.setTimeout(() => resolve(timedOut), timeoutMs);
      onAbort = () => resolve(timedOut);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    const response = await Promise.race([answer, deadline]);
    if (response === timedOut) {
      if (signal?.aborted) return undefined; // the plan ended first: the loop reports why
      metrics.repairs.inc({ reason: failure.code, result: 'timeout' });
      log.warn('repair hook did not answer in time', { stepId: step.stepId, timeoutMs });
      return undefined;
    }
    const read = readRepair(response);
    metrics.repairs.inc({ reason: failure.code, result: read ? 'steps' : 'none' });
    // read defensively, as readRepair does: a reason getter that throws must not count this answer twice
    const refusal = read ? undefined : safeRead(response, 'reason');
    if (typeof refusal === 'string') log.warn('repair hook refused', { stepId: step.stepId, reason: refusal.slice(0, 500) });
    return read;
  } catch (error) {
    metrics.repairs.inc({ reason: failure.code, result: 'error' });
    log.error('repair hook threw', { error: describeError(error), stepId: step.stepId });
    return undefined;
  } finally {
    if (timer !== undefined) clock.clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
