import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// The README's example must run as written: extract the first ```ts block and execute it with tsx.
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';

it('runs the README example: snapshot, deltas, one reflex preemption, a matching cognition view', async () => {
  expect(example).toContain('createBeliefBus(');
  const file = fileURLToPath(new URL(`./readme-example-${process.pid}.tmp.ts`, import.meta.url));
  writeFileSync(file, example);
  try {
    const output = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', file], { cwd: repoRoot, timeout: 30_000 }, (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      );
    });
    const lines = output.trim().split('\n');
    expect(lines[0]).toBe('tick 1 seq 1 snapshot: 2 tracks');
    expect(output).toContain('preempt flee (reflex:flee:zombie)');
    expect(output).toMatch(/seq \d+ deltas: new_threat/);
    expect(output).toContain('cognition view matches: true');
    expect(output).toContain('state hash: 16 hex digits');
  } finally {
    rmSync(file, { force: true });
  }
}, 30_000);
