import { defineConfig, type TestProjectInlineConfiguration, type ViteUserConfig } from 'vitest/config';
import workspace from '../vitest.config.js';

/**
 * The vitest configuration Stryker runs for one package: only that package's `<pkg>:unit` project from the
 * root `vitest.config.ts` (same aliases, same file classification), minus the files named in `skip`.
 */
export function unitProjectOf(pkg: string, skip: readonly string[]): ViteUserConfig {
  const projects = (workspace.test?.projects ?? []) as TestProjectInlineConfiguration[];
  const unit = projects.find((project) => project.test?.name === `${pkg}:unit`);
  if (unit?.test?.include === undefined) throw new Error(`vitest.config.ts has no ${pkg}:unit project`);
  const missing = skip.filter((file) => !unit.test!.include!.includes(file));
  if (missing.length > 0) throw new Error(`${pkg}:unit has no ${missing.join(', ')} to skip`);
  const include = unit.test.include.filter((file) => !skip.includes(file));
  // Stryker runs vitest in worker threads, which refuse node flags such as bt-runtime's --expose-gc.
  const { execArgv: _flags, ...test } = unit.test;
  return defineConfig({
    resolve: workspace.resolve,
    // Instrumented code under `nice` on a shared machine runs several times slower than in `npm test`: Stryker's
    // own per-mutant timeout (from the dry run's times) is the one that matters, not vitest's.
    test: { passWithNoTests: false, projects: [{ ...unit, test: { ...test, include, testTimeout: 60_000, hookTimeout: 60_000 } }] },
  });
}
