import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

// Tests run against source: every `@sinew/*` import resolves through the same `paths` map the typechecker uses.
const tsconfig = JSON.parse(readFileSync(new URL('./tsconfig.json', import.meta.url), 'utf8')) as {
  compilerOptions: { paths: Record<string, string[]> };
};
const alias = Object.entries(tsconfig.compilerOptions.paths)
  .sort(([a], [b]) => b.length - a.length)
  .map(([name, [target]]) => ({ find: new RegExp(`^${name}$`), replacement: `${root}${target}` }));

/** One vitest project per package; integration suites (real server) get longer timeouts. */
const projects: { dir: string; timeoutMs?: number; execArgv?: string[] }[] = [
  { dir: 'packages/executor-contracts' },
  // --expose-gc: the memory regression test measures the heap after a full GC.
  { dir: 'packages/bt-runtime', execArgv: ['--expose-gc'] },
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

export default defineConfig({
  resolve: { alias },
  test: {
    passWithNoTests: false,
    projects: projects.map(({ dir, timeoutMs, execArgv }) => ({
      extends: true,
      test: {
        name: dir.split('/').pop(),
        root: `${root}${dir}`,
        include: ['test/**/*.test.ts'],
        testTimeout: timeoutMs ?? 10_000,
        hookTimeout: timeoutMs ?? 10_000,
        ...(execArgv ? { execArgv } : {}),
      },
    })),
  },
});
