/// <reference lib="dom" />
import { el } from './dom.js';

type Data = Record<string, unknown>;
const MAX_FAILURES = 50;

/** One failure the executor reported: a retried attempt or a failed step, with its whole record. */
interface FailureRow {
  readonly planId: string;
  readonly stepId: string;
  readonly verb: string;
  /** `retried` (the step ran again) or `failed` (the step ended with it). */
  readonly ending: 'retried' | 'failed';
  readonly failure: Data;
}

/** The failure records of the steps seen, newest first: code, reason, what was missing or unmet, the full JSON. */
export class FailureList {
  readonly #rows: FailureRow[] = [];

  constructor(private readonly list: HTMLElement) {}

  /** Applies one event; returns true when the list changed. */
  apply(type: string, data: Data): boolean {
    if (type !== 'step.failed' && type !== 'step.retry') return false;
    const failure = data.failure as Data | undefined;
    if (!failure) return false;
    this.#rows.unshift({ planId: String(data.planId), stepId: String(data.stepId), verb: String(data.verb ?? ''), ending: type === 'step.failed' ? 'failed' : 'retried', failure });
    if (this.#rows.length > MAX_FAILURES) this.#rows.length = MAX_FAILURES;
    return true;
  }

  render(): void {
    this.list.replaceChildren(...this.#rows.map(failureItem));
  }
}

function failureItem(row: FailureRow): HTMLElement {
  const { failure } = row;
  const missing = [failure.missing, failure.unmet].filter(Array.isArray).flat().map(String);
  return el('li', { class: 'failure', 'data-plan-id': row.planId, 'data-step-id': row.stepId, 'data-code': String(failure.code) }, undefined, [
    el('div', { class: 'failure-head' }, `${row.planId}/${row.stepId} ${row.verb} ${row.ending}: ${String(failure.code)} — ${String(failure.reason ?? '')}${missing.length ? ` (missing ${missing.join(', ')})` : ''}`),
    el('pre', { class: 'failure-record' }, JSON.stringify(failure, null, 1)),
  ]);
}
