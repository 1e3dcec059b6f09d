// @sinew/codemods: wall time of `wrapRunners` on a 1,500-line JavaScript skills module (JSDoc types, ESM), a fresh
// ts-morph project per round (what one CLI run pays), vs a plain ts-morph parse of the same file in the same run.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Project, ts } from 'ts-morph';
import { wrapRunners } from '@sinew/codemods';

const ROUNDS = 5;
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const text = largeModule();
const lines = text.split('\n').length;
codemod(text);
parse(text);
const wrapped: number[] = [];
const parsed: number[] = [];
let capabilities = 0;
for (let round = 0; round < ROUNDS; round += 1) {
  const run = codemod(text);
  wrapped.push(run.ms);
  capabilities = run.wrapped;
  parsed.push(parse(text));
}
console.log(`codemod wrap-runners : ${median(wrapped).toFixed(0)} ms for ${lines} lines, ${capabilities} capabilities (median of ${ROUNDS}, fresh project each)`);
console.log(`ts-morph parse       : ${median(parsed).toFixed(1)} ms (baseline, same run)`);
console.log(`ratio                : ${(median(wrapped) / median(parsed)).toFixed(1)}× (the codemod type-checks every parameter; the parse does not)`);
