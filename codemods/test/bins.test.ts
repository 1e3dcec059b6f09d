import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers.js';

// A fresh checkout right after `npm ci`: every file git would check out (tracked and new, nothing ignored, so
// no dist/), and a node_modules laid out as npm ci lays it: the workspace links (`@sinew/*`, `.bin`) are the
// same relative links into this copy; third-party packages are linked to the installed ones (a real
// `npm ci` here takes ~40 s on a shared machine for packages that are identical).
let checkout: string;

function freshCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sinew-checkout-'));
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: repoRoot, encoding: 'utf8' }).split('\0');
  for (const file of files.filter((name) => name !== '' && existsSync(join(repoRoot, name)))) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(join(repoRoot, file), join(dir, file));
  }
  const installed = join(repoRoot, 'node_modules');
  const modules = join(dir, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(installed)) {
    if (entry === '.cache' || entry === '.package-lock.json') continue;
    if (entry === '@sinew' || entry === '.bin') copyLinks(join(installed, entry), join(modules, entry));
    else symlinkSync(join(installed, entry), join(modules, entry));
  }
  return dir;
}

/** Recreates a directory of relative links (they then point into the copy, as npm ci makes them). */
function copyLinks(from: string, to: string): void {
  mkdirSync(to);
  for (const entry of readdirSync(from)) symlinkSync(readlinkSync(join(from, entry)), join(to, entry));
}

function bin(name: string, ...args: string[]) {
  const result = spawnSync(join(checkout, 'node_modules/.bin', name), args, { cwd: checkout, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  checkout = freshCheckout();
});
afterAll(() => rmSync(checkout, { recursive: true, force: true }));

describe('the bins in a fresh checkout, before any build', () => {
  it('has no dist/ anywhere, so nothing can resolve through a stale or missing build', () => {
    const packages = [...readdirSync(join(checkout, 'packages')).map((name) => `packages/${name}`), 'codemods'];
    expect(packages.filter((dir) => existsSync(join(checkout, dir, 'dist')))).toEqual([]);
  });

  it('sinew-codemod wraps runners (its @sinew/* imports resolve to the workspace sources)', () => {
    const result = bin('sinew-codemod', 'wrap-runners', 'codemods/test/fixtures/ts', '--dry-run');
    expect(result.stderr).not.toContain('Cannot find module');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^wrapped codemods\/test\/fixtures\/ts\/.* \((function|leaf)\)$/m);
    expect(result.stdout).toContain('+++ b/codemods/test/fixtures/ts/');
  });

  it('sinew-verbs checks planner verbs against a registry module that imports @sinew/executor-contracts', () => {
    const fixture = 'packages/executor-contracts/test/fixtures/clean';
    const passed = bin('sinew-verbs', 'check', '--registry', `${fixture}/registry.ts`, '--planner', `${fixture}/verbs.json`);
    expect(passed.code, passed.stderr).toBe(0);
    expect(passed.stdout).toContain('verb gate passed: 2 planner verb(s), 3 registered verb(s), 0 error(s)');
    writeFileSync(join(checkout, 'verbs.json'), JSON.stringify(['dig_blok']));
    const failed = bin('sinew-verbs', 'check', '--registry', `${fixture}/registry.ts`, '--planner', 'verbs.json');
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('"dig_blok"');
  });
});
