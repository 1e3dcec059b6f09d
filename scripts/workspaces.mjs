// The publishable workspace packages, read from the root package.json `workspaces` (globs expanded one
// level, `private: true` skipped), in the order listed there, which is also the build order.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Every workspace folder (relative to the root) with its parsed package.json. */
export function workspacePackages(root = ROOT) {
  const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const dirs = workspaces.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const parent = pattern.slice(0, -2);
    return readdirSync(join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${parent}/${entry.name}`)
      .sort();
  });
  return dirs
    .filter((dir) => existsSync(join(root, dir, 'package.json')))
    .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) }));
}

/** The workspace packages that get published (not `private`). */
export function publishablePackages(root = ROOT) {
  return workspacePackages(root).filter(({ pkg }) => pkg.private !== true);
}
