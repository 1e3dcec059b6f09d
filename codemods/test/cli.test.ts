import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures, here, repoRoot } from './helpers.js';

const cli = join(here, '../src/cli.ts');
let root: string;

/** A temp project: the realistic module and the shape fixtures, with the repo's node_modules linked in. */
function tree(name: string): string {
  const dir = join(root, name);
  cpSync(join(fixtures, 'realistic/src'), join(dir, 'src'), { recursive: true });
  cpSync(join(fixtures, 'shapes'), join(dir, 'src/shapes'), { recursive: true, filter: (src) => !src.includes('expected') });
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

function run(cwd: string, ...args: string[]) {
  // The repo's tsconfig maps `@sinew/*` to sources, as in every other test (no build needed).
  const env = { ...process.env, TSX_TSCONFIG_PATH: join(repoRoot, 'tsconfig.json') };
  const result = spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], { cwd, encoding: 'utf8', env });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'sinew-codemod-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('sinew-codemod wrap-runners (subprocess)', () => {
  it('--dry-run prints a unified diff that patch applies to give exactly what a real run writes; a second run changes nothing', () => {
    const dry = tree('dry');
    const result = run(dry, 'wrap-runners', 'src', '--dry-run');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--- /dev/null\n+++ b/src/bot/actions.capabilities.ts\n@@ -0,0 +1,');
    expect(result.stdout).toContain('--- a/src/bot/actions.ts\n+++ b/src/bot/actions.ts\n');
    expect(result.stdout).toMatch(/^-class LookAroundLeaf \{\n\+export class LookAroundLeaf \{$/m);
    expect(result.stderr).toMatch(/wrapped src\/bot\/actions\.ts:36 craftItem → craft_item \(function\)/);
    expect(result.stderr).toMatch(/unsafe {2}src\/bot\/actions\.ts:221 ScriptedActions\.executeAction \[dynamic_dispatch\]/);
    // The same verb from another directory is qualified by that directory, not refused.
    expect(result.stderr).toMatch(/wrapped src\/shapes\/function\.ts:10 craftItem → shapes_craft_item \(function\)/);
    expect(result.stderr).toContain('8 file(s) would change');
    expect(existsSync(join(dry, 'src/bot/actions.capabilities.ts'))).toBe(false);

    const patched = spawnSync('patch', ['-p1', '--quiet'], { cwd: dry, input: result.stdout, encoding: 'utf8' });
    expect(patched.status, patched.stderr + patched.stdout).toBe(0);
    const real = tree('real');
    const written = run(real, 'wrap-runners', 'src');
    expect(written.code).toBe(0);
    expect(written.stderr).toContain('8 file(s) changed');
    for (const file of ['src/bot/actions.capabilities.ts', 'src/bot/actions.ts', 'src/sinew.registry.ts', 'src/shapes/dispatcher.ts', 'src/shapes/leaf.capabilities.ts']) {
      expect(readFileSync(join(dry, file), 'utf8'), file).toBe(readFileSync(join(real, file), 'utf8'));
    }
    expect(readFileSync(join(real, 'src/bot/actions.capabilities.ts'), 'utf8')).toContain("import type { Bot } from 'mineflayer';");

    const again = run(real, 'wrap-runners', 'src', '--dry-run');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain('0 file(s) would change');
    // Three runs of the type-aware codemod as subprocesses: 32–39 s on a quiet 2-core machine, 64 s in a CI run whose
    // host ran everything ~1.8× slower (the typecheck took 137 s, not 75). The limit is for a hang, not for speed.
  }, 150_000);

  it('--out and --registry-file place the generated files elsewhere with imports back to the sources', () => {
    const dir = tree('out');
    const result = run(dir, 'wrap-runners', 'src/bot/actions.ts', '--out', 'generated', '--registry-file', 'generated/registry.ts');
    expect(result.code).toBe(0);
    const generated = readFileSync(join(dir, 'generated/actions.capabilities.ts'), 'utf8');
    expect(generated).toContain("} from '../src/bot/actions.js';");
    expect(readFileSync(join(dir, 'generated/registry.ts'), 'utf8')).toContain("from './actions.capabilities.js';");
    expect(existsSync(join(dir, 'src/bot/actions.capabilities.ts'))).toBe(false);
  });

  it.each([
    [[], /unknown command undefined; expected wrap-runners/],
    [['wrap'], /unknown command "wrap"; expected wrap-runners/],
    [['wrap-runners'], /give at least one file or directory/],
    [['wrap-runners', 'src', '--frobnicate'], /Unknown option '--frobnicate'/],
    [['wrap-runners', 'src', '--registry-file', 'registry.json'], /--registry-file must be a \.ts, \.js, \.mjs or \.cjs file/],
    [['wrap-runners', 'nope/missing.ts'], /nope\/missing\.ts does not exist/],
    [['wrap-runners', 'src', '--failure-log', 'bot.output.text'], /--failure-log needs a bot property \(output, bot.output\), a logger method/],
    [['wrap-runners', 'src', '--unwrap', 'run as action'], /--unwrap needs a function name/],
  ])('exits 2 with a clear message on bad usage: %j', (args, message) => {
    const result = run(repoRoot, ...(args as string[]));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('usage: sinew-codemod wrap-runners');
  });
});

describe('sinew-codemod on inputs that cannot be wrapped', () => {
  it('reports a source with a syntax error by file, line and column, wraps the rest, and exits 1', () => {
    const dir = join(root, 'broken');
    mkdirSync(join(dir, 'src'), { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
    writeFileSync(join(dir, 'src/good.js'), 'export async function waveHello(bot) {\n  bot.chat("hello");\n}\n');
    writeFileSync(join(dir, 'src/bad.js'), 'export async function digDown(bot, depth) {\n  for (let i = 0; i < depth; i++ {\n    await bot.dig(bot.blockAt(bot.entity.position.offset(0, -1, 0)));\n  }\n}\n');
    const result = run(dir, 'wrap-runners', 'src', '--dry-run');
    expect(result.stderr).toContain('src/bad.js:2:');
    expect(result.stderr).toContain('syntax error');
    expect(result.stderr).toContain('1 file(s) with syntax errors were not wrapped');
    expect(result.stdout).toContain('wave_hello');
    expect(result.stdout).not.toContain('dig_down');
    expect(result.code).toBe(1);
  }, 60_000);

  it('refuses a FIFO as input instead of blocking on it', () => {
    const dir = join(root, 'fifo');
    mkdirSync(dir, { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
    spawnSync('mkfifo', [join(dir, 'actions.js')]);
    const result = run(dir, 'wrap-runners', 'actions.js');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is not a regular file or a directory');
  }, 60_000);
});

