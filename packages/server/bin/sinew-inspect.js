#!/usr/bin/env node
// Checked-in launcher: npm links bins at install time and skips targets that do not exist yet, so a bin
// pointing at dist/ would stay unlinked after `npm ci`. In the Sinew checkout it runs src/cli.ts through
// jiti (a devDependency: only a checkout runs it), never a stale build; published (no src/), dist/cli.js.
import { existsSync } from 'node:fs';

const dist = new URL('../dist/cli.js', import.meta.url);
const source = new URL('../src/cli.ts', import.meta.url);
// Source first: a checkout's dist/ may be stale; a published package ships no src/.
if (existsSync(source)) {
  const { createJiti } = await import('jiti');
  await createJiti(import.meta.url).import(source.pathname);
} else if (existsSync(dist)) {
  await import(dist.href);
} else {
  process.stderr.write('sinew-inspect: neither dist/cli.js nor src/cli.ts exists; reinstall @sinew/server\n');
  process.exit(2);
}
