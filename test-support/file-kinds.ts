import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * How a test file spends its time, which decides its vitest project (`server` for every package's server files;
 * `<pkg>:process`, `<pkg>:heavy`, `<pkg>:unit`).
 */
export type FileKind = 'server' | 'process' | 'heavy' | 'unit';

/**
 * Test files that start a real server in a child process: no import of theirs reaches flying-squid
 * (they run a README example or the demo's CLI), so the import scan below cannot see them.
 */
const SPAWNS_SERVER = [
  'packages/capabilities/test/readme.test.ts',
  'examples/need-wood/test/demo.test.ts',
  'examples/need-wood/test/demo-keep-alive.test.ts',
];

/**
 * Test files that start Node on TypeScript sources through a launcher (jiti or a checked-in bin) rather than
 * `--import tsx`, so the text scan below cannot see them.
 */
const SPAWNS_NODE = ['codemods/test/bins.test.ts', 'packages/server/test/replay.test.ts'];

/**
 * In-process files that search exhaustively (every ordering of the HTN's methods: ~13,000 plans), so the scan below
 * cannot see them. They run in `npm test`, not in `test:fast`.
 */
const EXHAUSTIVE = ['packages/planners/test/htn-memory-orderings.test.ts'];

/**
 * A test that runs the TypeScript compiler's type checker over real sources (seconds of CPU each): the codemod helpers'
 * `typecheck(…)`, the compiler API, every doc comment's `@example` in one program (`checkExamples`), or a ts-morph
 * project over realistic code on disk (`new Project(`: the codemod's inference runs the checker on it).
 */
const TYPECHECKS = /\btypecheck\(|\.getPreEmitDiagnostics\(|\bcreateProgram\(|\bcheckExamples\(|\bnew Project\(/;

/** A child Node process that compiles the sources itself: `node --import tsx …` in argv or a command line. */
const TSX_CHILD = /--import['",\s]+tsx\b/;

const IMPORT = /(?:^|[\s;])(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Relative and `@sinew/*` specifiers of a source file (type-only imports skipped: they load nothing). */
function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(IMPORT)) if (!match[1]) found.push(match[2] ?? match[3] ?? '');
  return found;
}

/** The source file a relative specifier names (`./x.js` is written for `./x.ts`), or undefined. */
function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((file) => file.endsWith('.ts') && existsSync(file));
}

/** Whether `file` or a module its static imports reach satisfies `test`; `follow` says which specifiers to walk. */
function createReachTest(
  test: (source: string, specifiers: string[]) => boolean,
  follow: (file: string, specifier: string) => string | undefined,
): (file: string) => boolean {
  const memo = new Map<string, boolean>();
  const reaches = (file: string): boolean => {
    const known = memo.get(file);
    if (known !== undefined) return known;
    memo.set(file, false); // a cycle adds nothing
    const source = readFileSync(file, 'utf8');
    const specifiers = importsOf(source);
    const result = test(source, specifiers) || specifiers.some((specifier) => {
      const target = follow(file, specifier);
      return target !== undefined && reaches(target);
    });
    memo.set(file, result);
    return result;
  };
  return reaches;
}

/**
 * Sorts test files by what they wait on:
 * - `server`: their static imports reach `flying-squid` (through relative imports and the `@sinew/*` aliases,
 *   i.e. the testkit), or they are listed in SPAWNS_SERVER. They spend most of their time waiting on ticks.
 * - `process`: they, or a test helper they import (relative imports only: sources never spawn tsx), start
 *   Node child processes that compile TypeScript at start-up (`--import tsx`; SPAWNS_NODE for launchers):
 *   CLIs, README examples, worker fleets. Each child costs about a second of CPU before it does anything.
 * - `heavy`: in-process, but seconds of CPU per test: they type-check real code with the TypeScript compiler (see
 *   TYPECHECKS; in the file itself) or are listed in EXHAUSTIVE. `npm test` runs them; the edit-test loop
 *   (`test:fast`) does not.
 * - `unit`: everything else, in-process and CPU-bound.
 */
export function createFileClassifier(root: string, aliases: Record<string, string>): (testFile: string) => FileKind {
  const listed = (files: string[]) => new Set(files.map((file) => join(root, file)));
  const spawnsServer = listed(SPAWNS_SERVER);
  const spawnsNode = listed(SPAWNS_NODE);
  const exhaustive = listed(EXHAUSTIVE);
  const reachesServer = createReachTest(
    (_source, specifiers) => specifiers.includes('flying-squid'),
    (file, specifier) => (specifier.startsWith('.') ? resolveRelative(file, specifier) : aliases[specifier]),
  );
  const startsTsx = createReachTest(
    (source) => TSX_CHILD.test(source),
    (file, specifier) => {
      const target = specifier.startsWith('.') ? resolveRelative(file, specifier) : undefined;
      return target?.includes('/src/') ? undefined : target;
    },
  );
  return (testFile) => {
    if (spawnsServer.has(testFile) || reachesServer(testFile)) return 'server';
    if (spawnsNode.has(testFile) || startsTsx(testFile)) return 'process';
    if (exhaustive.has(testFile) || TYPECHECKS.test(readFileSync(testFile, 'utf8'))) return 'heavy';
    return 'unit';
  };
}

/** Every `test/**\/*.test.ts` under a project folder (absolute paths). */
export function testFilesIn(dir: string): string[] {
  const walk = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : walk(path);
      return entry.name.endsWith('.test.ts') ? [path] : [];
    });
  return existsSync(join(dir, 'test')) ? walk(join(dir, 'test')) : [];
}
