// The one launcher behind every Sinew bin (sinew-verbs here; sinew-inspect and sinew-codemod load this file
// through `@sinew/executor-contracts/package.json`, a dependency of theirs). Bins are checked in: npm links them
// at install time and skips targets that do not exist yet, so a bin pointing at dist/ would stay unlinked after
// `npm ci`. In the Sinew checkout it runs the package's src/cli.ts through jiti, never a stale build; published
// (no src/), dist/cli.js.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Runs the CLI of the package whose bin is `binUrl` (`import.meta.url` of the bin): src/cli.ts when present,
 * else dist/cli.js; neither is exit 2 naming the package to reinstall.
 */
export async function launch(bin, packageName, binUrl) {
  const source = new URL('../src/cli.ts', binUrl);
  const dist = new URL('../dist/cli.js', binUrl);
  // Source first: a checkout's dist/ may be stale; a published package ships no src/.
  if (existsSync(source)) {
    const { createJiti } = await import('jiti');
    // `@sinew/*` imports resolve through the package.json exports to dist/, which no build has made after
    // `npm ci`: the workspace tsconfig's `paths` send them to src/ like the source we run.
    const tsconfigPaths = workspaceTsconfig(fileURLToPath(source)) ?? false;
    await createJiti(binUrl, { tsconfigPaths }).import(fileURLToPath(source));
  } else if (existsSync(dist)) {
    await import(dist.href);
  } else {
    process.stderr.write(`${bin}: neither dist/cli.js nor src/cli.ts exists; reinstall ${packageName}\n`);
    process.exit(2);
  }
}

/** The nearest tsconfig.json above `file` that declares `paths` (the workspace root's), if any. */
function workspaceTsconfig(file) {
  for (let dir = dirname(file); dirname(dir) !== dir; dir = dirname(dir)) {
    const candidate = join(dir, 'tsconfig.json');
    if (existsSync(candidate) && readFileSync(candidate, 'utf8').includes('"paths"')) return candidate;
  }
  return undefined;
}
