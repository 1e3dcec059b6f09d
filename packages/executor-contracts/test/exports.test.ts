import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// One home per exported name: a value exported by two Sinew packages is a second copy (or a re-export
// that hides where it lives). Every public entry point of every published package is loaded from source.
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

interface PackageJson {
  readonly name: string;
  readonly private?: boolean;
  readonly exports?: Record<string, string | { readonly import: { readonly default: string } }>;
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** Workspace folders from the root package.json, `dir/*` expanded one level (as scripts/workspaces.mjs does). */
function workspaceDirs(): string[] {
  const { workspaces } = readJson<{ workspaces: string[] }>(join(repoRoot, 'package.json'));
  return workspaces
    .flatMap((pattern) => {
      if (!pattern.endsWith('/*')) return [pattern];
      const parent = pattern.slice(0, -2);
      return readdirSync(join(repoRoot, parent), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => `${parent}/${entry.name}`);
    })
    .filter((dir) => existsSync(join(repoRoot, dir, 'package.json')));
}

/** Every published entry point as `{ pkg, spec, source }`, mapped from `exports` the way tsup builds it. */
function entryPoints(): { pkg: string; spec: string; source: string }[] {
  return workspaceDirs().flatMap((dir) => {
    const pkg = readJson<PackageJson>(join(repoRoot, dir, 'package.json'));
    if (pkg.private) return [];
    return Object.entries(pkg.exports ?? {}).flatMap(([sub, target]) => {
      if (typeof target === 'string') return []; // ./package.json
      const name = target.import.default.replace(/^\.\/dist\//, '').replace(/\.js$/, '');
      const spec = sub === '.' ? pkg.name : `${pkg.name}/${sub.slice(2)}`;
      return [{ pkg: pkg.name, spec, source: join(repoRoot, dir, 'src', `${name}.ts`) }];
    });
  });
}

/** Exported name → the entry points (of any package) that export it. */
async function exportersByName(): Promise<Map<string, { pkg: string; spec: string }[]>> {
  const byName = new Map<string, { pkg: string; spec: string }[]>();
  for (const { pkg, spec, source } of entryPoints()) {
    const module = (await import(source)) as Record<string, unknown>;
    for (const name of Object.keys(module)) byName.set(name, [...(byName.get(name) ?? []), { pkg, spec }]);
  }
  return byName;
}

describe('public exports', () => {
  it('finds the entry points of every published package (the check cannot pass by loading nothing)', () => {
    const specs = entryPoints().map(({ spec }) => spec);
    expect(specs).toEqual(expect.arrayContaining(['@sinew/executor-contracts', '@sinew/bt-runtime', '@sinew/capabilities', '@sinew/planners', '@sinew/planners/minecraft', '@sinew/belief', '@sinew/executor-contracts/minecraft']));
  });

  it('keeps Minecraft facts off the contracts root: they live on @sinew/executor-contracts/minecraft', async () => {
    const root = (await import('@sinew/executor-contracts')) as Record<string, unknown>;
    const minecraft = (await import('@sinew/executor-contracts/minecraft')) as Record<string, unknown>;
    expect(Object.keys(minecraft).sort()).toEqual(['EYE_HEIGHT', 'NEAR_BLOCK_DISTANCE', 'SCAFFOLD_BLOCKS']);
    expect(Object.keys(root).filter((name) => name in minecraft)).toEqual([]);
  });

  it('exports no value name from two packages (one home per name)', async () => {
    const shared = [...(await exportersByName())]
      .filter(([, exporters]) => new Set(exporters.map(({ pkg }) => pkg)).size > 1)
      .map(([name, exporters]) => `${name}: ${exporters.map(({ spec }) => spec).join(', ')}`);
    expect(shared).toEqual([]);
  }, 60_000);
});
