/// <reference lib="dom" />
import { el } from './dom.js';

type Data = Record<string, unknown>;
const MAX_LADDERS = 50;

/** One rung a failed step climbed: a local retry, its failure, the planner's repair, the re-run, a navigation rung, the end. */
interface Rung {
  readonly kind: 'retry' | 'failed' | 'repair' | 'rerun' | 'navigation' | 'succeeded' | 'plan_failed';
  readonly text: string;
}

interface Ladder {
  readonly planId: string;
  readonly stepId: string;
  readonly verb: string;
  readonly rungs: Rung[];
  /** Steps dispatched in the plan since this step failed (the repair's steps), until it is tried again. */
  repairSteps: { readonly stepId: string; readonly verb: string }[] | undefined;
}

/**
 * The recovery ladder of every step that failed at least once, built from the stream's events in order:
 * retries with their failures, the failure that ended an attempt, the steps a planner's repair inserted,
 * the re-run, the navigation rungs a step reports, and how it ended. Live and in replay alike.
 */
export class RecoveryLadders {
  readonly #ladders: Ladder[] = [];

  constructor(private readonly list: HTMLElement) {}

  /** Applies one event; returns true when a ladder changed. */
  apply(type: string, data: Data): boolean {
    const planId = String(data.planId ?? '');
    const stepId = String(data.stepId ?? '');
    if (type === 'executionComplete') return this.#planEnded(planId, data);
    const ladder = this.#find(planId, stepId);
    if (type === 'step.retry') return this.#push(ladder ?? this.#open(planId, stepId, data), { kind: 'retry', text: `attempt ${String(data.attempt)} failed ${failureText(data.failure)}, retried after ${String(data.backoffMs)} ms` });
    if (type === 'step.failed') {
      const failed = ladder ?? this.#open(planId, stepId, data);
      // Failing again after a repair (a guard that still misses something): the repair was a rung.
      this.#closeRepair(failed);
      const failure = data.failure as Data | undefined;
      navigationRungs(String(failure?.reason ?? '')).forEach((rung) => failed.rungs.push(rung));
      failed.repairSteps = [];
      return this.#push(failed, { kind: 'failed', text: failureText(failure) });
    }
    if (type === 'step.dispatched') return this.#dispatched(planId, stepId, data, ladder);
    if (type === 'step.succeeded' && ladder) {
      observedRungs((data.observables as Data | undefined)?.ladder).forEach((rung) => ladder.rungs.push(rung));
      return this.#push(ladder, { kind: 'succeeded', text: `succeeded on attempt ${String(data.attempts ?? data.attempt ?? '?')}` });
    }
    return false;
  }

  render(): void {
    this.list.replaceChildren(
      ...this.#ladders.map((ladder) =>
        el('li', { class: 'ladder', 'data-plan-id': ladder.planId, 'data-step-id': ladder.stepId }, undefined, [
          el('div', { class: 'ladder-head' }, `${ladder.planId}/${ladder.stepId} ${ladder.verb}`),
          el('ol', { class: 'rungs' }, undefined, ladder.rungs.map((rung) => el('li', { class: 'rung', 'data-rung': rung.kind }, `${rung.kind}: ${rung.text}`))),
        ]),
      ),
    );
  }

  /** A step of a plan with an open repair: another step is a repair step; the failed step again is its re-run. */
  #dispatched(planId: string, stepId: string, data: Data, ladder: Ladder | undefined): boolean {
    let changed = false;
    for (const open of this.#ladders) {
      if (open.planId !== planId || open.repairSteps === undefined || open.stepId === stepId) continue;
      if (!open.repairSteps.some((s) => s.stepId === stepId)) open.repairSteps.push({ stepId, verb: String(data.verb ?? '') });
      changed = true;
    }
    if (ladder?.repairSteps !== undefined) {
      this.#closeRepair(ladder);
      changed = this.#push(ladder, { kind: 'rerun', text: `dispatched again (attempt ${String(data.attempt ?? '?')})` });
    }
    return changed;
  }

  /** The steps run since the failure become the repair rung. */
  #closeRepair(ladder: Ladder): void {
    const steps = ladder.repairSteps;
    ladder.repairSteps = undefined;
    if (steps && steps.length > 0) ladder.rungs.push({ kind: 'repair', text: `the planner inserted ${steps.map((s) => `${s.stepId} (${s.verb})`).join(', ')}` });
  }

  #planEnded(planId: string, data: Data): boolean {
    if (data.status === 'completed') return false;
    let changed = false;
    for (const ladder of this.#ladders) {
      if (ladder.planId !== planId || ladder.repairSteps === undefined) continue;
      this.#closeRepair(ladder);
      changed = this.#push(ladder, { kind: 'plan_failed', text: `the plan ended ${String(data.status)} ${failureText(data.failure)}` });
    }
    return changed;
  }

  #find(planId: string, stepId: string): Ladder | undefined {
    return this.#ladders.find((l) => l.planId === planId && l.stepId === stepId);
  }

  #open(planId: string, stepId: string, data: Data): Ladder {
    const ladder: Ladder = { planId, stepId, verb: String(data.verb ?? ''), rungs: [], repairSteps: undefined };
    this.#ladders.unshift(ladder);
    if (this.#ladders.length > MAX_LADDERS) this.#ladders.length = MAX_LADDERS;
    return ladder;
  }

  #push(ladder: Ladder, rung: Rung): boolean {
    ladder.rungs.push(rung);
    return true;
  }
}

function failureText(failure: unknown): string {
  const f = (failure ?? {}) as Data;
  const missing = [f.missing, f.unmet].filter(Array.isArray).flat().map(String);
  return `${String(f.code ?? '?')} — ${String(f.reason ?? '')}${missing.length ? ` (missing ${missing.join(', ')})` : ''}`;
}

/** The navigation ladder a `stuck` reason spells out (`recovery ladder exhausted: avoid_segment skipped (…); …`). */
function navigationRungs(reason: string): Rung[] {
  const record = /recovery ladder exhausted: (.*)$/.exec(reason)?.[1];
  if (!record) return [];
  return record.split('; ').map((text) => ({ kind: 'navigation', text }));
}

/** The navigation ladder a successful step reports in its observables (`[{ rung, result, reason }]`). */
function observedRungs(ladder: unknown): Rung[] {
  if (!Array.isArray(ladder)) return [];
  return (ladder as Data[]).map((r) => ({ kind: 'navigation', text: `${String(r.rung)} ${String(r.result)} (${String(r.reason)})` }));
}
