#!/usr/bin/env node
// Checked-in launcher: npm links bins at install time and skips targets that do not exist yet, so a bin
// pointing at dist/ would stay unlinked after `npm ci`. Published: runs dist/cli.js. In a checkout
// without a build: runs src/cli.ts through jiti (a dependency of this package already).
import { existsSync } from 'node:fs';

const dist = new URL('../dist/cli.js', import.meta.url);
const source = new URL('../src/cli.ts', import.meta.url);
if (existsSync(dist)) {
  await import(dist.href);
} else if (existsSync(source)) {
  const { createJiti } = await import('jiti');
  await createJiti(import.meta.url, { tsconfigPaths: true }).import(source.pathname);
} else {
  process.stderr.write('sinew-verbs: neither dist/cli.js nor src/cli.ts exists; reinstall @sinew/executor-contracts\n');
  process.exit(2);
}
