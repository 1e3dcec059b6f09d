// "Sinew's types are clean", checked the way a user with skipLibCheck: false would see them: tsc over the
// user's files plus every .d.ts / .d.cts entry point of every installed @sinew package, then every error is
// sorted by the file it is in. An error in the user's files or under node_modules/@sinew/ fails; an error
// inside another package is allowed only in mineflayer's own dependency tree (protodef, prismarine-*), which
// every mineflayer bot gets with or without Sinew.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every types file an installed @sinew package's `exports` map points at (import and require), project-relative. */
export function sinewTypeEntries(project) {
  const scope = join(project, 'node_modules', '@sinew');
  return readdirSync(scope).flatMap((name) => {
    const pkg = JSON.parse(readFileSync(join(scope, name, 'package.json'), 'utf8'));
    return Object.values(pkg.exports ?? {})
      .filter((target) => typeof target === 'object')
      .flatMap((target) => [target.import?.types, target.require?.types])
      .filter(Boolean)
      .map((file) => join('node_modules', '@sinew', name, file));
  });
}

/** mineflayer and every package it depends on, transitively (names, from the installed package.json files). */
export function mineflayerTree(project) {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    const manifest = join(project, 'node_modules', name, 'package.json');
    if (!existsSync(manifest)) return; // an optional dependency not installed
    seen.add(name);
    const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) visit(dep);
  };
  visit('mineflayer');
  return seen;
}

/**
 * Sorts tsc's `file(line,col): error TSnnnn` lines: `own` (the user's files and @sinew/*) fail the check,
 * `mineflayer` are inside mineflayer's dependency tree, `other` inside any other package (also a failure:
 * Sinew's program must not add third-party errors a plain mineflayer bot does not have).
 */
export function classifyErrors(output, tree) {
  const errors = output.split('\n').filter((line) => /^\S.*\(\d+,\d+\): error TS\d+/.test(line));
  const packageOf = (line) => line.match(/^node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1];
  const own = errors.filter((line) => !packageOf(line) || packageOf(line).startsWith('@sinew/'));
  const thirdParty = errors.filter((line) => !own.includes(line));
  return {
    errors,
    own,
    mineflayer: thirdParty.filter((line) => tree.has(packageOf(line))),
    other: thirdParty.filter((line) => !tree.has(packageOf(line))),
    packages: [...new Set(thirdParty.map(packageOf))].sort(),
  };
}

/**
 * Writes `tsconfig.sinew-types.json` (the project's tsconfig, plus skipLibCheck: false and the strictest
 * options, over `files` and every Sinew types entry) and runs tsc on it; throws on any error of our own.
 */
export function checkSinewTypes(project, files, env) {
  const config = {
    extends: './tsconfig.json',
    compilerOptions: { skipLibCheck: false, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, allowJs: true, checkJs: true, noEmit: true },
    include: [],
    files: [...files, ...sinewTypeEntries(project)],
  };
  writeFileSync(join(project, 'tsconfig.sinew-types.json'), `${JSON.stringify(config, null, 2)}\n`);
  let output = '';
  try {
    execFileSync(join(project, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.sinew-types.json', '--pretty', 'false'], { cwd: project, env, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    output = `${error.stdout ?? ''}${error.stderr ?? ''}`;
  }
  const found = classifyErrors(output, mineflayerTree(project));
  if (found.own.length || found.other.length || (output && found.errors.length === 0))
    throw new Error(`Sinew's types are not clean (${config.files.length} files, skipLibCheck: false):\n${[...found.own, ...found.other].join('\n') || output}`);
  const entries = config.files.length - files.length;
  const typescript = JSON.parse(readFileSync(join(project, 'node_modules', 'typescript', 'package.json'), 'utf8')).version;
  return `TypeScript ${typescript}, ${entries} Sinew .d.ts/.d.cts entries and ${files.length} bot files: 0 errors of ours; ${found.mineflayer.length} inside mineflayer's dependencies (${found.packages.join(', ')})`;
}
