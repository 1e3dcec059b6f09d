import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Raw detection feeds (seeds/003 "only deltas and snapshots cross into cognition"): the bot's entity table, its
 * nearest-entity search and its per-entity events. A source that reads one of these gets raw perception.
 */
export const RAW_DETECTION_PATTERNS: readonly RegExp[] = [
  /\bbot\.entities\b/,
  /\.entities\s*\[/,
  /Object\.(?:values|keys|entries)\(\s*[\w.]+\.entities\s*\)/,
  /\.nearestEntity\s*\(/,
  /\.on\(\s*['"]entity(?:Spawn|Moved|Update|Gone|Hurt)['"]/,
];

/**
 * Who may read raw detection, and why: the belief adapter (the one door into cognition) and the body layer that
 * acts (capability runners aim at and accept on the entity they act on; they never feed cognition).
 */
export const RAW_DETECTION_ALLOWED: readonly { readonly path: string; readonly why: string }[] = [
  { path: 'packages/belief/src/mineflayer/evidence.ts', why: 'the belief adapter: entities → evidence → saliency deltas' },
  { path: 'packages/capabilities/src/', why: 'the body: runners aim at and accept on the entity they act on' },
  { path: 'packages/testkit/src/', why: "the embedded server's own entity table (the world), not a bot's perception" },
];

/** Every TypeScript source of the repo outside tests, fixtures, builds and dependencies (paths relative to `root`). */
export function sourceFiles(root: string): string[] {
  const skip = new Set(['node_modules', 'dist', 'test', 'tests', '.git', '.sinew', 'coverage']);
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      if (skip.has(name)) return [];
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return walk(path);
      return /\.(?:ts|mts|cts|js|mjs)$/.test(name) && !/\.(?:test|d)\.[mc]?[tj]s$/.test(name) ? [relative(root, path)] : [];
    });
  return ['packages', 'examples'].flatMap((top) => walk(join(root, top)));
}

/** The sources that read a raw detection feed without being allowed to, each with the first line that does. */
export function rawDetectionReaders(root: string, files: readonly string[], read = (path: string) => readFileSync(join(root, path), 'utf8')): string[] {
  return files
    .filter((file) => !RAW_DETECTION_ALLOWED.some((allowed) => (allowed.path.endsWith('/') ? file.startsWith(allowed.path) : file === allowed.path)))
    .flatMap((file) => {
      const line = read(file)
        .split('\n')
        .find((text) => RAW_DETECTION_PATTERNS.some((pattern) => pattern.test(text)));
      return line === undefined ? [] : [`${file}: ${line.trim()}`];
    });
}
