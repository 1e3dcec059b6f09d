/**
 * Shared StrykerJS options for `npm run mutate` (docs/mutation.md). Each target mutates one directory against
 * its own package's unit tests, so the two scores come separately and the first one early.
 *
 * @param {{ name: string, mutate: string[], vitestConfig: string }} target
 * @returns {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export function strykerTarget({ name: target, mutate, vitestConfig }) {
  // STRYKER_GROUP=<label> runs a second group of files of the same target beside the first: its own sandbox,
  // incremental file and reports (`<target>-<label>.*`), so neither overwrites the other's (docs/mutation.md).
  const group = process.env.STRYKER_GROUP;
  if (group !== undefined && !/^[a-z0-9-]+$/.test(group)) throw new Error(`STRYKER_GROUP must be [a-z0-9-]+, got ${JSON.stringify(group)}`);
  const name = group === undefined ? target : `${target}-${group}`;
  return {
    testRunner: 'vitest',
    vitest: { configFile: vitestConfig, related: false },
    coverageAnalysis: 'perTest',
    // No bail: with vitest's bail, a killed mutant's run cancels itself through an RPC the worker sends after its first
    // failure, and under load that cancellation can land in the NEXT mutant's run, which then completes no test at all
    // and is reported Survived (testsCompleted 0 of its covering tests). Measured on gate/format.ts (74 mutants): with
    // bail 3 and 5 such survivors in two runs, none without it. The cost is wall time where a mutant makes one covering
    // test fail and another hang: it now waits out Stryker's timeout (counted Timeout, still detected) instead of
    // stopping at the failure (docs/mutation.md, session 28).
    disableBail: true,
    // A static mutant (module-level code: the zod schemas, the code tables) is covered by no single test, so
    // Stryker reruns the whole unit project for each; in executor-contracts that is 1,062 of 2,605 mutants and
    // 97 % of the estimated time. They are left out of the score and listed as ignored (docs/mutation.md).
    ignoreStatic: true,
    mutate,
    // The machine is shared: one or two test workers (STRYKER_CONCURRENCY), never one per core.
    concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 1),
    // Git-ignored: it holds the mutated sources and test names of this checkout and changes on every edit.
    incremental: true,
    incrementalFile: `reports/mutation/${name}.incremental.json`,
    // clear-text prints the score per directory and file; html and json keep the whole report.
    reporters: ['clear-text', 'progress', 'html', 'json'],
    clearTextReporter: { reportMutants: true, reportTests: false, reportScoreTable: true, skipFull: false },
    htmlReporter: { fileName: `reports/mutation/${name}.html` },
    jsonReporter: { fileName: `reports/mutation/${name}.json` },
    // One sandbox folder per target, so the two can run side by side; neither copies the other's.
    tempDirName: `.stryker-tmp-${name}`,
    ignorePatterns: ['/.stryker-tmp-*', '/reports', '/.sinew'],
    thresholds: { high: 90, low: 80, break: null },
    timeoutMS: 10_000,
  };
}
