import { relative } from 'node:path';

/** Which runner shape a capability was wrapped from (a dispatcher is a class or a free function). */
export type RunnerShape = 'function' | 'dispatcher' | 'leaf' | 'command' | 'script';

/** Why something was not wrapped (or, for `wrapped`, that it was). Closed union: tools may switch on it. */
export type FindingCode =
  | 'wrapped'
  | 'not_exported'
  | 'not_async'
  | 'default_export'
  | 'unsupported_type'
  | 'no_bot'
  | 'constructor_needs_more'
  | 'unmappable_context'
  | 'no_runner_call'
  | 'dynamic_dispatch'
  | 'non_literal_case'
  | 'unmappable_args'
  | 'overloaded'
  | 'spread_args'
  | 'name_collision'
  | 'context_incomplete'
  | 'hand_edited'
  | 'not_generated'
  | 'no_runners'
  | 'generated_file'
  | 'test_file';

/**
 * `wrapped`: a capability was generated. `skipped`: not a runner or not wrappable, for a plain reason.
 * `unsafe`: a rewrite would have to guess (dynamic dispatch, overloads, spread args, collisions); a
 * marked `sinew-codemod:` comment was left in the generated file.
 */
export type FindingKind = 'wrapped' | 'skipped' | 'unsafe';

/** One line of the codemod's report. */
export interface Finding {
  readonly kind: FindingKind;
  readonly code: FindingCode;
  /** Absolute path of the file the finding is about. */
  readonly file: string;
  readonly line: number;
  /** `craftItem`, `ActionExecutor.executeAction#craft_item`, `MineLeaf.run`. */
  readonly symbol: string;
  readonly reason: string;
  readonly verb?: string;
  readonly shape?: RunnerShape;
}

/** Counts and findings of one run, in file then line order. */
export interface WrapReport {
  readonly findings: readonly Finding[];
  readonly wrapped: number;
  readonly skipped: number;
  readonly unsafe: number;
}

/** Builds the report from findings (sorted by file, then line). */
export function buildReport(findings: readonly Finding[]): WrapReport {
  const sorted = [...findings].sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
  const count = (kind: FindingKind) => sorted.filter((f) => f.kind === kind).length;
  return { findings: sorted, wrapped: count('wrapped'), skipped: count('skipped'), unsafe: count('unsafe') };
}

/** The report as text, one finding per line, paths relative to `cwd`. */
export function formatReport(report: WrapReport, cwd = process.cwd()): string {
  const lines = report.findings.map((f) => {
    const where = `${relative(cwd, f.file) || f.file}:${f.line}`;
    const what = f.kind === 'wrapped' ? `${f.symbol} → ${f.verb ?? '?'} (${f.shape ?? '?'})` : `${f.symbol} [${f.code}] ${f.reason}`;
    return `${f.kind.padEnd(7)} ${where} ${what}`;
  });
  lines.push(`${report.wrapped} wrapped, ${report.skipped} skipped, ${report.unsafe} unsafe (left a sinew-codemod comment)`);
  return lines.join('\n');
}
