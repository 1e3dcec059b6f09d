// @sinew/codemods: wall time of `wrapRunners` on a 1,500-line JavaScript skills module (JSDoc types, ESM), a fresh
// ts-morph project per round (what one CLI run pays), vs a plain ts-morph parse of the same file in the same run
// (bench/harness.ts: warm-up, 7 alternating rounds). The codemod type-checks every parameter; the parse does not.
// A second figure: the largest fixture as it is (js/skills.js). Before the timings it prints the codemod table of
// every fixture the codemod tests use (codemods/test/table.ts: shape, lines, found, wrapped, typed, z.unknown()
// share, capabilities a runtime test runs through the executor), each wrapped as the CLI does (real files).
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Project, ts } from 'ts-morph';
import { wrapRunners } from '@sinew/codemods';
import { FIXTURES, formatTable, tableRow } from '../codemods/test/table.js';
import { compare } from './harness.js';
const PATH = '/bench/skills.js';

/** The skills fixture twice (the second copy renamed, its imports and module constants dropped): ~1,500 lines. */
function largeModule(): string {
  const skills = readFileSync(new URL('../codemods/test/fixtures/js/skills.js', import.meta.url), 'utf8');
  const copy = skills
    .replace(/^import .*$/gm, '')
    .replace(/^const (\{ goals, Movements \}|PROTECTED_BLOCKS) .*$/gm, '')
    .replace(/function (\w+)\(/g, 'function $1Again(');
  return `${skills}\n${copy}`;
}

function project(): Project {
  return new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true, allowJs: true, target: ts.ScriptTarget.ES2022 } });
}

function codemod(text: string): { ms: number; wrapped: number } {
  const start = performance.now();
  const p = project();
  p.createSourceFile(PATH, text);
  const { report } = wrapRunners(p, { files: [PATH] });
  return { ms: performance.now() - start, wrapped: report.wrapped };
}

function parse(text: string): number {
  const start = performance.now();
  let nodes = 0;
  project().createSourceFile(PATH, text).forEachDescendant(() => {
    nodes += 1;
  });
  if (nodes === 0) throw new Error('nothing parsed');
  return performance.now() - start;
}

async function measure(label: string, text: string): Promise<void> {
  let capabilities = 0;
  await compare({
    figure: `codemod wrap-runners, ${label}, ${text.split('\n').length} lines (vs ts-morph parse)`,
    unit: 'ms',
    run: () => {
      const run = codemod(text);
      capabilities = run.wrapped;
      return run.ms;
    },
    baseline: () => parse(text),
    digits: 1,
  });
  console.log(`  (${capabilities} capabilities wrapped per run, fresh project each)`);
}

const rows = FIXTURES.map((spec) => tableRow(spec));
console.log(`codemod table (every fixture)\n${formatTable(rows)}\n`);
const modules = FIXTURES.flatMap((spec, index) => (spec.paths.length === 1 ? [{ path: spec.paths[0]!, lines: rows[index]!.lines }] : []));
const largest = modules.sort((a, b) => b.lines - a.lines)[0]!.path;
await measure(`the largest fixture (${largest})`, readFileSync(new URL(`../codemods/test/fixtures/${largest}`, import.meta.url), 'utf8'));
await measure('JSDoc skills doubled', largeModule());
