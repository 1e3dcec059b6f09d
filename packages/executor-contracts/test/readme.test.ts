import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// The README's example must run as written: extract the first ```ts block and execute it with tsx.
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';

it('runs the README example and prints what its comments say', async () => {
  expect(example).toContain('checkStep(registry');
  // Inside the package so `@sinew/executor-contracts` resolves through the root tsconfig paths.
  const file = fileURLToPath(new URL(`./readme-example-${process.pid}.tmp.ts`, import.meta.url));
  writeFileSync(file, example);
  try {
    const output = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', file], { cwd: repoRoot, timeout: 30_000 }, (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      );
    });
    const lines = output.split('\n');
    expect(lines[0]).toBe('unknown_verb → craft_planks');
    expect(lines[1]).toMatch(/^invalid args for craft_planks@1\.0\.0:$/);
    expect(output).toContain('→ at count');
    expect(output).toContain('precond_missing has_item:log');
    expect(output).toContain('ok via alias make_planks, args {"count":4}');
    expect(output).toContain('\neffects_unmet\n');
    expect(output).toContain('error   [unknown_verb] planner verb "chop_tree" has no capability');
    expect(output).toContain('verb gate FAILED: 2 planner verb(s), 1 registered verb(s), 1 error(s), 0 warning(s)');
  } finally {
    rmSync(file, { force: true });
  }
}, 30_000);
