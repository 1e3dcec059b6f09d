// The codemod table of issue 23: every fixture, wrapped as the CLI does, with what it found, wrapped and typed, and
// how many of its capabilities a runtime test runs through the executor. table.test.ts pins the targets on it;
// bench/codemod.bench.ts prints it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Project } from 'ts-morph';
import { wrapRunners, type WrapResult, type WrapRunnersOptions } from '../src/index.js';
import { argumentShare, compilerOptions, fixtures, here } from './helpers.js';

/** One fixture (a module or a directory) of one shape. */
export interface FixtureSpec {
  readonly shape: string;
  /** Fixture files, relative to test/fixtures. */
  readonly paths: readonly string[];
  readonly options?: WrapRunnersOptions;
  /** The test that runs its generated capabilities through the executor (on the testkit server unless it says otherwise). */
  readonly runtime?: string;
}

const inDirectory = (dir: string): string[] =>
  readdirSync(join(fixtures, dir))
    .filter((name) => /\.(c|m)?js$|\.ts$/.test(name))
    .map((name) => `${dir}/${name}`);

/** Every fixture the codemod tests use, by shape. */
export const FIXTURES: readonly FixtureSpec[] = [
  { shape: 'function, JSDoc above (JS ESM)', paths: ['js/skills.js'], runtime: 'javascript-runtime.test.ts' },
  { shape: 'command table (JS)', paths: ['js/commands.js'] },
  { shape: 'function (CommonJS)', paths: ['js/behaviours.cjs'] },
  { shape: 'leaf, rich context (TS)', paths: ['ts/leaves.ts'] },
  { shape: 'dispatcher, function (TS)', paths: ['ts/action-executor.ts'] },
  { shape: 'three shapes mixed (TS)', paths: ['realistic/src/bot/actions.ts'] },
  { shape: 'three shapes, small (TS; run on a fake body)', paths: ['shapes/function.ts', 'shapes/dispatcher.ts', 'shapes/leaf.ts'], runtime: 'runtime.test.ts' },
  { shape: 'docblock in the body (JS skills)', paths: ['docblock/skills.js'], runtime: 'docblock-runtime.test.ts' },
  { shape: 'wrapped perform + the helpers it types (--unwrap throttled)', paths: ['wrapped/commands.js', 'wrapped/world.js'], options: { unwrap: ['throttled'] }, runtime: 'wrapped-runtime.test.ts' },
  { shape: 'JSON-Schema leaves (TS)', paths: ['jsonschema/leaves.ts'], runtime: 'jsonschema-runtime.test.ts' },
  { shape: 'dispatcher handing the action to a method (TS)', paths: ['dispatcher/executor.ts'], runtime: 'forwarded-runtime.test.ts' },
  { shape: 'script-style skills, small directory', paths: inDirectory('scripts'), runtime: 'script-runtime.test.ts' },
  { shape: 'script-style skill library (directory)', paths: inDirectory('skill-library'), runtime: 'skill-library-runtime.test.ts' },
  { shape: 'function, failures logged to a logger (JS)', paths: ['logged/chores.js', 'logged/log.js'], runtime: 'failure-runtime.test.ts' },
];

/** One line of the table. */
export interface TableRow {
  readonly shape: string;
  readonly fixture: string;
  readonly lines: number;
  /** Runners found: wrapped, or refused for a reason other than being a helper. */
  readonly found: number;
  readonly wrapped: number;
  readonly args: number;
  readonly typed: number;
  /** `z.unknown()` arguments over all arguments, 0..1. */
  readonly unknownShare: number;
  /** Distinct capabilities its runtime test runs through the executor. */
  readonly run: number;
}

/** Wraps a fixture as the CLI does (a real-FS project, the repo's compiler options). */
export function wrapFixture(spec: FixtureSpec): WrapResult {
  const files = spec.paths.map((path) => join(fixtures, path));
  const project = new Project({ compilerOptions: { ...compilerOptions, allowJs: true }, skipAddingFilesFromTsConfig: true });
  for (const file of files) project.addSourceFileAtPath(file);
  return wrapRunners(project, { files, ...spec.options });
}

/** The verbs a runtime test runs (`succeeds('verb'`, `step('verb'`), not the ones it only expects refused. */
function capabilitiesRun(test: string | undefined): number {
  if (!test) return 0;
  const text = readFileSync(join(here, test), 'utf8');
  const verbs = [...text.matchAll(/\b(?:succeeds|step)\('([a-z_]+)'/g)].map((m) => m[1]);
  // runtime.test.ts calls the generated capabilities' run() directly, on a fake body.
  const direct = [...text.matchAll(/\b(\w+)\.run\(context\(/g)].map((m) => m[1]);
  return new Set([...verbs, ...direct]).size;
}

export function tableRow(spec: FixtureSpec, result: WrapResult = wrapFixture(spec)): TableRow {
  const mine = result.report.findings.filter((f) => f.code !== 'not_exported' && f.code !== 'no_runners' && f.code !== 'test_file');
  const { args, unknown } = jsonSchemaShare(result) ?? argumentShare(result);
  const lines = spec.paths.reduce((n, path) => n + readFileSync(join(fixtures, path), 'utf8').trimEnd().split('\n').length, 0);
  const fixture = spec.paths.length === 1 ? spec.paths[0]! : `${spec.paths[0]!.split('/')[0]}/ (${spec.paths.length} files)`;
  return {
    shape: spec.shape,
    fixture,
    lines,
    found: mine.length,
    wrapped: mine.filter((f) => f.kind === 'wrapped').length,
    args,
    typed: args - unknown,
    unknownShare: args === 0 ? 0 : unknown / args,
    run: capabilitiesRun(spec.runtime),
  };
}

/** The properties of generated `z.fromJSONSchema({…})` inputs, and how many declare no type; undefined when there are none. */
function jsonSchemaShare(result: WrapResult): { args: number; unknown: number } | undefined {
  const text = result.changes.filter((c) => c.kind === 'capabilities').map((c) => c.after).join('\n');
  const properties = [...text.matchAll(/z\.fromJSONSchema\(/g)].flatMap((match) => {
    const start = match.index + match[0].length;
    let depth = 0;
    let end = start;
    do depth += text[end] === '{' ? 1 : text[end] === '}' ? -1 : 0;
    while (depth > 0 && ++end < text.length);
    const schema = JSON.parse(text.slice(start, end + 1)) as { properties?: Record<string, Record<string, unknown>> };
    return Object.values(schema.properties ?? {});
  });
  if (properties.length === 0) return undefined;
  const typed = (p: Record<string, unknown>) => ['type', 'enum', 'const', 'anyOf', 'oneOf', '$ref'].some((key) => key in p);
  return { args: properties.length, unknown: properties.filter((p) => !typed(p)).length };
}

/** The table as Markdown. */
export function formatTable(rows: readonly TableRow[]): string {
  const head = ['Shape', 'Fixture', 'Lines', 'Found', 'Wrapped', 'Arguments typed', '`z.unknown()` share', 'Capabilities run'];
  const body = rows.map((r) => [r.shape, `\`${r.fixture}\``, r.lines, r.found, r.wrapped, `${r.typed} / ${r.args}`, `${(r.unknownShare * 100).toFixed(1)} %`, r.run]);
  return [head, head.map(() => '---'), ...body].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
