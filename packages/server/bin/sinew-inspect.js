#!/usr/bin/env node
// Checked-in launcher: npm links bins at install time and skips targets that do not exist yet, so a bin
// pointing at dist/ would stay unlinked after `npm ci`. In the Sinew checkout it runs src/cli.ts through
// jiti (a devDependency: only a checkout runs it), never a stale build; published (no src/), dist/cli.js.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = new URL('../dist/cli.js', import.meta.url);
const source = new URL('../src/cli.ts', import.meta.url);
// Source first: a checkout's dist/ may be stale; a published package ships no src/.
if (existsSync(source)) {
  const { createJiti } = await import('jiti');
  // `@sinew/*` imports resolve through the package.json exports to dist/, which no build has made after
  // `npm ci`: the workspace tsconfig's `paths` send them to src/ like the source we run.
  const tsconfigPaths = workspaceTsconfig(fileURLToPath(source)) ?? false;
  await createJiti(import.meta.url, { tsconfigPaths }).import(fileURLToPath(source));
} else if (existsSync(dist)) {
  await import(dist.href);
} else {
  process.stderr.write('sinew-inspect: neither dist/cli.js nor src/cli.ts exists; reinstall @sinew/server\n');
  process.exit(2);
}

/** The nearest tsconfig.json above `file` that declares `paths` (the workspace root's), if any. */
function workspaceTsconfig(file) {
  for (let dir = dirname(file); dirname(dir) !== dir; dir = dirname(dir)) {
    const candidate = join(dir, 'tsconfig.json');
    if (existsSync(candidate) && readFileSync(candidate, 'utf8').includes('"paths"')) return candidate;
  }
  return undefined;
}
