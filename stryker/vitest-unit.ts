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
  return defineConfig({
    resolve: workspace.resolve,
    test: { passWithNoTests: false, projects: [{ ...unit, test: { ...unit.test, include } }] },
  });
}
