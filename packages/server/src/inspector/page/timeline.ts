/// <reference lib="dom" />
import { el, fmtMs } from './dom.js';

interface Row {
  planId: string;
  stepId: string;
  capability: string;
  status: string;
  code: string;
  ttfaMs?: number;
  durationMs?: number;
  retries: number;
}

interface PlanHeader {
  planId: string;
  status: string;
  steps: number;
  code: string;
}

type Data = Record<string, unknown>;
const MAX_PLANS = 30;

/** The plan timeline: one header per plan, one row per step, fed by stream events. */
export class Timeline {
  readonly #plans = new Map<string, { header: PlanHeader; rows: Map<string, Row> }>();

  constructor(private readonly body: HTMLTableSectionElement) {}

  /** Applies one event; returns true when the table changed. */
  apply(type: string, data: Data): boolean {
    const planId = String(data.planId ?? '');
    if (type === 'plan.started') {
      this.#plan(planId).header.steps = Number(data.steps ?? 0);
      return true;
    }
    if (type === 'executionComplete') {
      const header = this.#plan(planId).header;
      header.status = String(data.status ?? '');
      header.code = String((data.failure as Data | undefined)?.code ?? '');
      return true;
    }
    if (!type.startsWith('step.')) return false;
    const row = this.#row(planId, String(data.stepId ?? ''));
    stepEvent(row, type, data);
    return true;
  }

  render(): void {
    const rows: Node[] = [];
    for (const { header, rows: steps } of [...this.#plans.values()].reverse()) {
      rows.push(
        el('tr', { class: 'plan-row', 'data-plan-id': header.planId }, undefined, [
          el('td', {}, header.planId),
          el('td', {}, `${header.steps} steps`),
          el('td', {}, ''),
          el('td', { 'data-status': header.status, class: 'plan-status' }, header.status),
          el('td', {}, header.code),
          el('td', { colspan: '3' }, ''),
        ]),
      );
      for (const row of steps.values()) rows.push(stepRow(row));
    }
    this.body.replaceChildren(...rows);
  }

  #plan(planId: string): { header: PlanHeader; rows: Map<string, Row> } {
    let plan = this.#plans.get(planId);
    if (!plan) {
      plan = { header: { planId, status: 'running', steps: 0, code: '' }, rows: new Map() };
      this.#plans.set(planId, plan);
      if (this.#plans.size > MAX_PLANS) this.#plans.delete(this.#plans.keys().next().value as string);
    }
    return plan;
  }

  #row(planId: string, stepId: string): Row {
    const rows = this.#plan(planId).rows;
    let row = rows.get(stepId);
    if (!row) {
      row = { planId, stepId, capability: '', status: 'queued', code: '', retries: 0 };
      rows.set(stepId, row);
    }
    return row;
  }
}

function stepEvent(row: Row, type: string, data: Data): void {
  switch (type) {
    case 'step.dispatched':
      row.capability = String(data.capability ?? data.verb ?? '');
      row.status = 'running';
      return;
    case 'step.first_action':
      row.ttfaMs = Number(data.ttfaMs);
      return;
    case 'step.retry':
      row.retries += 1;
      row.status = 'retrying';
      row.code = String((data.failure as Data | undefined)?.code ?? '');
      return;
    case 'step.preempted':
      row.status = 'preempted';
      return;
    case 'step.resumed':
      row.status = 'running';
      return;
    case 'step.succeeded':
    case 'step.failed':
      finished(row, data);
  }
}

function finished(row: Row, outcome: Data): void {
  const capability = outcome.capability as { name?: string; version?: string } | undefined;
  if (capability?.name) row.capability = `${capability.name}@${capability.version ?? ''}`;
  else if (!row.capability) row.capability = String(outcome.verb ?? '');
  row.status = String(outcome.status ?? '');
  row.code = String((outcome.failure as Data | undefined)?.code ?? '');
  if (typeof outcome.ttfaMs === 'number') row.ttfaMs = outcome.ttfaMs;
  if (typeof outcome.startedAt === 'number' && typeof outcome.endedAt === 'number') row.durationMs = outcome.endedAt - outcome.startedAt;
  if (typeof outcome.attempts === 'number') row.retries = Math.max(row.retries, outcome.attempts - 1);
}

function stepRow(row: Row): HTMLElement {
  return el('tr', { class: 'step-row', 'data-plan-id': row.planId, 'data-step-id': row.stepId }, undefined, [
    el('td', {}, ''),
    el('td', {}, row.stepId),
    el('td', {}, row.capability),
    el('td', { 'data-status': row.status, class: 'step-status' }, row.status),
    el('td', {}, row.code),
    el('td', {}, fmtMs(row.ttfaMs)),
    el('td', {}, fmtMs(row.durationMs)),
    el('td', {}, String(row.retries)),
  ]);
}
