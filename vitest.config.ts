import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './test-support/sequencer.js';
import { createFileClassifier, testFilesIn, type FileKind } from './test-support/file-kinds.js';

const root = fileURLToPath(new URL('.', import.meta.url));

// Tests run against source: every `@sinew/*` import resolves through the same `paths` map the typechecker uses.
const tsconfig = JSON.parse(readFileSync(new URL('./tsconfig.json', import.meta.url), 'utf8')) as {
  compilerOptions: { paths: Record<string, string[]> };
};
const paths = Object.entries(tsconfig.compilerOptions.paths).map(([name, [target]]) => [name, `${root}${target}`] as const);
const alias = [...paths]
  .sort(([a], [b]) => b.length - a.length)
  .map(([name, target]) => ({ find: new RegExp(`^${name}$`), replacement: target }));

/** One vitest project per package; integration suites (real server) get longer timeouts. */
const packages: { dir: string; timeoutMs?: number; execArgv?: string[] }[] = [
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

/**
 * Each package's files are split by what they wait on (`test-support/file-kinds.ts`). `<pkg>:server` files run a
 * real server and spend their time waiting on its ticks, not on the CPU (~15 % of their wall time): more of them at
 * once than there are cores. `<pkg>:process` files start Node child processes on the TypeScript sources (CLIs,
 * README examples, worker fleets), `<pkg>:heavy` files type-check real code or search exhaustively, and
 * `<pkg>:unit` files run in-process; those three run one file per core (`SINEW_CPU_WORKERS` overrides). `npm test`
 * runs the server projects and the others in two vitest processes side by side, the others on one worker
 * (`scripts/test.mjs`); a plain `vitest run` runs the server group first. `npm run test:fast` runs only the
 * `<pkg>:unit` projects.
 */
const SERVER_WORKERS = workersFrom('SINEW_SERVER_WORKERS', 4);
/**
 * A server project's next file reuses the worker its last file ran in (vitest reuses a worker only for a file of the
 * same project; `isolate: false`): mineflayer, flying-squid and the sources load once per worker, not once per file.
 * `testkit:server` took 68 s of CPU so against 114 s with a fresh worker per file (issue 25). What a file leaves open
 * would run beside the next: `test-support/server-file-guard.ts` fails a file that leaves a server, socket or child
 * process behind. `SINEW_SERVER_ISOLATE=true` gives each file a fresh worker again (to rule sharing out).
 */
const SERVER_ISOLATE = booleanFrom('SINEW_SERVER_ISOLATE', false);
const SERVER_SETUP = [`${root}test-support/server-file-guard.ts`];
const CPU_WORKERS = workersFrom('SINEW_CPU_WORKERS', Math.max(1, availableParallelism()));
const kindOf = createFileClassifier(root, Object.fromEntries(paths));

/** Project name suffix, group order and workers of each kind. */
const KINDS: Record<FileKind, { suffix: string; order: number; workers: number; isolate: boolean; setupFiles: string[] }> = {
  server: { suffix: ':server', order: 0, workers: SERVER_WORKERS, isolate: SERVER_ISOLATE, setupFiles: SERVER_SETUP },
  process: { suffix: ':process', order: 1, workers: CPU_WORKERS, isolate: true, setupFiles: [] },
  heavy: { suffix: ':heavy', order: 1, workers: CPU_WORKERS, isolate: false, setupFiles: [] },
  unit: { suffix: ':unit', order: 1, workers: CPU_WORKERS, isolate: false, setupFiles: [] },
};

/** A positive integer from the environment variable `name`, or the default; anything else stops the run with its name. */
function workersFrom(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const workers = Number(text);
  if (!Number.isInteger(workers) || workers < 1) throw new Error(`${name}: expected a positive integer, received ${JSON.stringify(text)}`);
  return workers;
}

/** `true` or `false` from the environment variable `name`, or the default; anything else stops the run with its name. */
function booleanFrom(name: string, fallback: boolean): boolean {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  if (text !== 'true' && text !== 'false') throw new Error(`${name}: expected true or false, received ${JSON.stringify(text)}`);
  return text === 'true';
}

export default defineConfig({
  resolve: { alias },
  test: {
    passWithNoTests: false,
    sequence: { sequencer: LongestFirstSequencer },
    projects: packages.flatMap(({ dir, timeoutMs, execArgv }) => {
      const files = testFilesIn(`${root}${dir}`);
      return (Object.entries(KINDS) as [FileKind, (typeof KINDS)[FileKind]][])
        .map(([kind, settings]) => ({ ...settings, ofKind: files.filter((file) => kindOf(file) === kind) }))
        .filter(({ ofKind }) => ofKind.length > 0)
        .map(({ suffix, order, workers, isolate, setupFiles, ofKind }) => ({
          extends: true,
          test: {
            name: `${dir.split('/').pop()!}${suffix}`,
            root: `${root}${dir}`,
            include: ofKind.map((file) => relative(`${root}${dir}`, file)),
            testTimeout: timeoutMs ?? 10_000,
            hookTimeout: timeoutMs ?? 10_000,
            maxWorkers: workers,
            isolate,
            setupFiles,
            sequence: { groupOrder: order },
            ...(execArgv ? { execArgv } : {}),
          },
        }));
    }),
  },
});
