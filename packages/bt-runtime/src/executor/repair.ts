import type { RepairResponse, StepFailure } from '@sinew/executor-contracts';

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
