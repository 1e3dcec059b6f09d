import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './test-support/sequencer.js';
import { createFileClassifier, testFilesIn, type FileKind } from './test-support/file-kinds.js';
import { TEST_PACKAGES } from './test-support/packages.js';

const root = fileURLToPath(new URL('.', import.meta.url));

// Tests run against source: every `@sinew/*` import resolves through the same `paths` map the typechecker uses.
const tsconfig = JSON.parse(readFileSync(new URL('./tsconfig.json', import.meta.url), 'utf8')) as {
  compilerOptions: { paths: Record<string, string[]> };
};
const paths = Object.entries(tsconfig.compilerOptions.paths).map(([name, [target]]) => [name, `${root}${target}`] as const);
const alias = [...paths]
  .sort(([a], [b]) => b.length - a.length)
  .map(([name, target]) => ({ find: new RegExp(`^${name}$`), replacement: target }));

/**
 * Each package's files are split by what they wait on (`test-support/file-kinds.ts`). Server files run a real server
 * and spend most of their time waiting on its ticks, not on the CPU: more of them at once than there are cores. They
 * form one project, `server`, across every package: its files share workers (`isolate: false`), so mineflayer,
 * flying-squid and the sources load once per worker, not once per file or per package (vitest hands a worker on only
 * to a file of the same project), and its longest files start first whatever their package. Per package,
 * `<pkg>:process` files start Node child processes on the TypeScript sources (CLIs, README examples, worker fleets),
 * `<pkg>:heavy` files type-check real code or search exhaustively, and `<pkg>:unit` files run in-process; those run
 * one file per core (`SINEW_CPU_WORKERS` overrides). `npm test` runs the server project and the others in two vitest
 * processes side by side, the others on one worker (`scripts/test.mjs`); a plain `vitest run` runs the server group
 * first. `npm run test:fast` runs only the `<pkg>:unit` projects. One package's files, all kinds:
 * `npx vitest run packages/<pkg>/`.
 */
const SERVER_WORKERS = workersFrom('SINEW_SERVER_WORKERS', 4);
/**
 * Shared workers took `testkit`'s server files from 114 s of CPU to 68 s (issue 25). What a file leaves open would run
 * beside the next file: `test-support/server-file-guard.ts` (the project's setup file) fails a file that leaves a
 * server, socket or child process behind, and sets each file's time limits from its package's
 * (`test-support/packages.ts`). `SINEW_SERVER_ISOLATE=true` gives each file a fresh worker again (to rule sharing out).
 */
const SERVER_ISOLATE = booleanFrom('SINEW_SERVER_ISOLATE', false);
const CPU_WORKERS = workersFrom('SINEW_CPU_WORKERS', Math.max(1, availableParallelism()));
const kindOf = createFileClassifier(root, Object.fromEntries(paths));

/** Project name suffix, workers and isolation of each per-package kind (they run after the server group). */
const PER_PACKAGE: Record<Exclude<FileKind, 'server'>, { suffix: string; workers: number; isolate: boolean }> = {
  process: { suffix: ':process', workers: CPU_WORKERS, isolate: true },
  heavy: { suffix: ':heavy', workers: CPU_WORKERS, isolate: false },
  unit: { suffix: ':unit', workers: CPU_WORKERS, isolate: false },
};

const filesOf = new Map(TEST_PACKAGES.map(({ dir }) => [dir, testFilesIn(`${root}${dir}`)]));
const serverFiles = TEST_PACKAGES.flatMap(({ dir, execArgv }) => {
  const files = filesOf.get(dir)!.filter((file) => kindOf(file) === 'server');
  if (files.length > 0 && execArgv) throw new Error(`${dir}: its server files would run without its execArgv (${execArgv.join(' ')})`);
  return files;
});

const LONGEST_LIMIT_MS = Math.max(...TEST_PACKAGES.map(({ timeoutMs }) => timeoutMs));

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
    projects: [
      {
        extends: true as const,
        test: {
          name: 'server',
          root,
          include: serverFiles.map((file) => relative(root, file)),
          // The longest package limit; the setup file sets each file's own before its tests are collected.
          testTimeout: LONGEST_LIMIT_MS,
          hookTimeout: LONGEST_LIMIT_MS,
          maxWorkers: SERVER_WORKERS,
          isolate: SERVER_ISOLATE,
          setupFiles: [`${root}test-support/server-file-guard.ts`],
          sequence: { groupOrder: 0 },
        },
      },
      ...TEST_PACKAGES.flatMap(({ dir, timeoutMs, execArgv }) =>
        (Object.entries(PER_PACKAGE) as [Exclude<FileKind, 'server'>, (typeof PER_PACKAGE)[keyof typeof PER_PACKAGE]][])
          .map(([kind, settings]) => ({ ...settings, ofKind: filesOf.get(dir)!.filter((file) => kindOf(file) === kind) }))
          .filter(({ ofKind }) => ofKind.length > 0)
          .map(({ suffix, workers, isolate, ofKind }) => ({
            extends: true as const,
            test: {
              name: `${dir.split('/').pop()!}${suffix}`,
              root: `${root}${dir}`,
              include: ofKind.map((file) => relative(`${root}${dir}`, file)),
              testTimeout: timeoutMs,
              hookTimeout: timeoutMs,
              maxWorkers: workers,
              isolate,
              sequence: { groupOrder: 1 },
              ...(execArgv ? { execArgv } : {}),
            },
          })),
      ),
    ],
  },
});
