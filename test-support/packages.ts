import { relative, sep } from 'node:path';

/**
 * The folders with tests, each with its time limit per test and hook (real-server suites get longer ones) and the
 * Node flags its workers need. `vitest.config.ts` makes the projects from it; the server files' setup
 * (`server-file-guard.ts`) sets each file's limits from it, since the server files of every folder share one project.
 */
export const TEST_PACKAGES: readonly { dir: string; timeoutMs: number; execArgv?: string[] }[] = [
  { dir: 'packages/executor-contracts', timeoutMs: 10_000 },
  // --expose-gc: the memory regression test measures the heap after a full GC.
  { dir: 'packages/bt-runtime', timeoutMs: 10_000, execArgv: ['--expose-gc'] },
  { dir: 'packages/testkit', timeoutMs: 60_000 },
  { dir: 'packages/capabilities', timeoutMs: 90_000 },
  { dir: 'packages/belief', timeoutMs: 60_000 },
  { dir: 'packages/planners', timeoutMs: 90_000 },
  { dir: 'packages/server', timeoutMs: 90_000 },
  { dir: 'packages/fleet', timeoutMs: 60_000 },
  { dir: 'codemods', timeoutMs: 60_000 },
  { dir: 'examples/need-wood', timeoutMs: 120_000 },
  { dir: 'examples/custom-capability', timeoutMs: 90_000 },
  { dir: 'examples/llm-planner', timeoutMs: 90_000 },
];

/** The folder `file` (absolute) belongs to; throws for a file outside every folder. */
export function testPackageOf(root: string, file: string): (typeof TEST_PACKAGES)[number] {
  const path = relative(root, file).split(sep).join('/');
  const found = TEST_PACKAGES.find(({ dir }) => path.startsWith(`${dir}/`));
  if (!found) throw new Error(`${path} is in no folder of test-support/packages.ts`);
  return found;
}
