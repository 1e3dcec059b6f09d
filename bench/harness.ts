// The shared bench harness: warm-up, then ≥ 7 rounds alternating the figure and its same-run baseline; every
// figure printed as median (min–max) beside its baseline, the ratio and the target, and appended as one JSON line
// to $SINEW_BENCH_RESULTS so `scripts/bench.mjs` can end the whole run with one summary table.
import { appendFileSync } from 'node:fs';

export const DEFAULT_ROUNDS = 7;

/** A target on the figure's median (`value`) or on its ratio to the baseline (`ratio`); both are upper bounds. */
export type Target = { readonly value: number } | { readonly ratio: number };

export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly n: number;
}

/** One line of the summary table (also the JSON line written for scripts/bench.mjs). */
export interface Figure {
  readonly figure: string;
  readonly unit: string;
  readonly value: Spread;
  readonly baseline?: Spread;
  readonly ratio?: number;
  readonly target?: string;
  readonly ok?: boolean;
}

/** The nearest-rank quantile (q in 0..1) of `values`; NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

/** Median, min and max of `values`. */
export function spread(values: readonly number[]): Spread {
  return { median: quantile(values, 0.5), min: Math.min(...values), max: Math.max(...values), n: values.length };
}

export interface CompareOptions {
  readonly figure: string;
  readonly unit: string;
  /** One round of the measured thing → its figure in `unit`. */
  readonly run: (round: number) => number | Promise<number>;
  /** One round of the same-run baseline → its figure in `unit`. */
  readonly baseline?: (round: number) => number | Promise<number>;
  readonly target?: Target;
  readonly warmup?: number;
  readonly rounds?: number;
  readonly digits?: number;
}

/**
 * Runs `warmup` discarded rounds, then `rounds` rounds of `run` and `baseline`, the baseline first in every other
 * round (so neither always pays for what the other left behind); records and returns the figure.
 */
export async function compare(options: CompareOptions): Promise<Figure> {
  const { warmup = 1, rounds = DEFAULT_ROUNDS, run, baseline } = options;
  const values: number[] = [];
  const bases: number[] = [];
  for (let round = -warmup; round < rounds; round += 1) {
    const baseFirst = baseline !== undefined && round % 2 !== 0;
    const early = baseFirst ? await baseline(round) : undefined;
    const value = await run(round);
    const base = baseFirst ? early : await baseline?.(round);
    if (round < 0) continue;
    values.push(value);
    if (base !== undefined) bases.push(base);
  }
  return record({ figure: options.figure, unit: options.unit, values, ...(bases.length ? { baselines: bases } : {}), ...(options.target ? { target: options.target } : {}), ...(options.digits !== undefined ? { digits: options.digits } : {}) });
}

export interface RecordOptions {
  readonly figure: string;
  readonly unit: string;
  /** Samples of the figure (rounds, or one value when the figure is itself a statistic such as a p95). */
  readonly values: readonly number[];
  readonly baselines?: readonly number[];
  readonly target?: Target;
  readonly digits?: number;
}

/** Builds a figure from samples measured elsewhere, prints it and appends it to the run's results. */
export function record(options: RecordOptions): Figure {
  const value = spread(options.values);
  const baseline = options.baselines?.length ? spread(options.baselines) : undefined;
  const ratio = baseline ? value.median / baseline.median : undefined;
  const target = options.target;
  const bounded = target && ('ratio' in target ? ratio : value.median);
  const limit = target && ('ratio' in target ? target.ratio : target.value);
  const figure: Figure = {
    figure: options.figure,
    unit: options.unit,
    value,
    ...(baseline ? { baseline } : {}),
    ...(ratio !== undefined ? { ratio } : {}),
    ...(target ? { target: 'ratio' in target ? `≤ ${target.ratio}×` : `≤ ${target.value} ${options.unit}` } : {}),
    ...(limit !== undefined ? { ok: bounded !== undefined && bounded <= limit } : {}),
  };
  console.log(describe(figure, options.digits ?? 2));
  const sink = process.env.SINEW_BENCH_RESULTS;
  if (sink) appendFileSync(sink, `${JSON.stringify({ ...figure, digits: options.digits ?? 2 })}\n`);
  return figure;
}

/** `median (min–max)` of a spread; just the value when there is one sample. */
export function formatSpread(s: Spread, digits: number): string {
  return s.n === 1 ? s.median.toFixed(digits) : `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
}

function describe(f: Figure, digits: number): string {
  const rounds = f.value.n > 1 ? `, median of ${f.value.n}` : '';
  const base = f.baseline ? ` | baseline ${formatSpread(f.baseline, digits)} ${f.unit} | ratio ${f.ratio!.toFixed(3)}×` : '';
  const verdict = f.target ? ` | target ${f.target}: ${f.ok ? 'ok' : 'MISSED'}` : '';
  return `${f.figure}: ${formatSpread(f.value, digits)} ${f.unit}${rounds}${base}${verdict}`;
}

/** Runs a bench's `main` and exits: 0 when it measured, 1 (with the error) when it could not. */
export function runMain(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
