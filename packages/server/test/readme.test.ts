import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// The README's example must run as written: the first ```ts block, executed with tsx; its output is the
// block printed under "It prints".
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
const printed = /It prints:\n\n```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';

it('runs the README example and prints what the README says', async () => {
  expect(example).toContain('serveSinew(');
  const file = fileURLToPath(new URL(`./readme-example-${process.pid}.tmp.ts`, import.meta.url));
  writeFileSync(file, example);
  try {
    const output = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', file], { cwd: repoRoot, timeout: 30_000 }, (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      );
    });
    expect(output).toBe(printed);
  } finally {
    rmSync(file, { force: true });
  }
}, 30_000);
