import type { Executor } from '@sinew/bt-runtime';
import type { StepOutcome } from '@sinew/executor-contracts';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface TimelineOptions {
  readonly out: NodeJS.WriteStream;
  /** Draw a live spinner line while a step runs (only on a terminal). */
  readonly live: boolean;
}

/** One finished step as the summary shows it. */
export interface TimelineRow {
  readonly stepId: string;
  readonly verb: string;
  readonly status: StepOutcome['status'];
  readonly code?: string;
  readonly attempts: number;
  readonly ttfaMs?: number;
  readonly durationMs: number;
}

/** Prints the live step timeline from executor events; returns the rows and a detach function. */
export function attachTimeline<Body>(
  executor: Executor<Body>,
  options: TimelineOptions,
): { rows: TimelineRow[]; print(line: string): void; detach(): void } {
  const { out, live } = options;
  const rows: TimelineRow[] = [];
  let spinner: NodeJS.Timeout | undefined;
  let current: { stepId: string; verb: string; startedAt: number; ttfaMs?: number } | undefined;
  const clearLine = () => {
    if (live) out.write('\r\x1b[2K');
  };
  const stopSpinner = () => {
    if (spinner) clearInterval(spinner);
    spinner = undefined;
    clearLine();
  };
  const offs = [
    executor.on('step.dispatched', ({ stepId, verb, attempt }) => {
      stopSpinner();
      current = { stepId, verb, startedAt: Date.now() };
      if (!live) {
        out.write(`  ▶ ${stepId.padEnd(14)} ${verb}${attempt > 1 ? ` (attempt ${attempt})` : ''}\n`);
        return;
      }
      let frame = 0;
      spinner = setInterval(() => {
        if (!current) return;
        const seconds = ((Date.now() - current.startedAt) / 1000).toFixed(1);
        const ttfa = current.ttfaMs === undefined ? 'waiting for first action' : `TTFA ${current.ttfaMs} ms`;
        out.write(`\r\x1b[2K  ${SPINNER[frame++ % SPINNER.length]} ${current.stepId.padEnd(14)} ${current.verb.padEnd(12)} ${seconds}s  ${ttfa}`);
      }, 100);
      spinner.unref();
    }),
    executor.on('step.first_action', ({ ttfaMs }) => {
      if (current) current.ttfaMs = ttfaMs;
    }),
    executor.on('step.retry', ({ stepId, failure, backoffMs }) => {
      clearLine();
      out.write(`  ↻ ${stepId.padEnd(14)} retry after ${failure.code} in ${backoffMs} ms: ${failure.reason}\n`);
    }),
    ...(['step.succeeded', 'step.failed'] as const).map((event) =>
      executor.on(event, (outcome) => {
        stopSpinner();
        current = undefined;
        const row: TimelineRow = {
          stepId: outcome.stepId,
          verb: outcome.verb,
          status: outcome.status,
          ...(outcome.failure ? { code: outcome.failure.code } : {}),
          attempts: outcome.attempts,
          ...(outcome.ttfaMs !== undefined ? { ttfaMs: Math.round(outcome.ttfaMs) } : {}),
          durationMs: Math.round(outcome.endedAt - outcome.startedAt),
        };
        rows.push(row);
        const mark = outcome.status === 'succeeded' ? '✔' : '✘';
        const ttfa = row.ttfaMs === undefined ? '—' : `${row.ttfaMs} ms`;
        const why = outcome.failure ? `  ${outcome.failure.code}: ${outcome.failure.reason}` : '';
        out.write(`  ${mark} ${row.stepId.padEnd(14)} ${row.verb.padEnd(12)} ${outcome.status.padEnd(9)} TTFA ${ttfa.padStart(7)}  ${(row.durationMs / 1000).toFixed(1).padStart(5)}s${why}\n`);
      }),
    ),
  ];
  return {
    rows,
    // Lines from outside the executor (repair decisions) go between step lines, never into the spinner's.
    print(line) {
      clearLine();
      out.write(`${line}\n`);
    },
    detach() {
      stopSpinner();
      for (const off of offs) off();
    },
  };
}

/** The summary table printed at the end. */
export function summaryTable(rows: readonly TimelineRow[]): string {
  const header = ['step', 'verb', 'outcome', 'attempts', 'TTFA', 'duration'];
  const body = rows.map((row) => [
    row.stepId,
    row.verb,
    row.code ? `${row.status} (${row.code})` : row.status,
    String(row.attempts),
    row.ttfaMs === undefined ? '—' : `${row.ttfaMs} ms`,
    `${(row.durationMs / 1000).toFixed(1)} s`,
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...body.map((cells) => cells[i]!.length)));
  const line = (cells: string[]) => `  │ ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' │ ')} │`;
  const rule = (left: string, mid: string, right: string) => `  ${left}${widths.map((w) => '─'.repeat(w + 2)).join(mid)}${right}`;
  return [rule('┌', '┬', '┐'), line(header), rule('├', '┼', '┤'), ...body.map(line), rule('└', '┴', '┘')].join('\n');
}
