import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../', import.meta.url));

/** A package README's first ```ts block and the block printed under "It prints:" (empty when absent). */
export function readmeExample(packageDir: URL): { readonly example: string; readonly printed: string } {
  const readme = readFileSync(new URL('README.md', packageDir), 'utf8');
  return {
    example: /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '',
    printed: /It prints:\n\n```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '',
  };
}

/**
 * Runs a README example as written, with tsx from the repo root; resolves with its stdout. The file is written
 * inside `testDir` (a package's test folder) so `@sinew/*` imports resolve through the root tsconfig paths.
 */
export async function runReadmeExample(example: string, testDir: URL): Promise<string> {
  const file = fileURLToPath(new URL(`./readme-example-${process.pid}.tmp.ts`, testDir));
  writeFileSync(file, example);
  try {
    return await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', file], { cwd: repoRoot, timeout: 30_000 }, (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      );
    });
  } finally {
    rmSync(file, { force: true });
  }
}
