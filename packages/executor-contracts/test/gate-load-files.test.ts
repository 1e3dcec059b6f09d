import { createHook } from 'node:async_hooks';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { displayPath, GateUsageError, globFiles, loadManifest, loadPlannerVerbs, scanFiles, tsconfigAliases } from '../src/gate/load.js';

// The verb gate's file side, in process (the CLI tests run it in a child process, outside the mutation project):
// what it reads, what it refuses and how it says so. Each test builds its own folder of odd files; names never
// contain the folder (Stryker matches tests by name).

const made: string[] = [];
afterEach(() => {
  for (const root of made.splice(0)) rmSync(root, { recursive: true, force: true });
});

function folder(files: Record<string, string> = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'sinew-gate-load-'));
  made.push(root);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

/** The GateUsageError `work` throws, or fails the test. */
async function refusal(work: () => unknown): Promise<{ name: string; code: string; message: string }> {
  try {
    await work();
  } catch (error) {
    expect(error).toBeInstanceOf(GateUsageError);
    const { name, code, message } = error as GateUsageError;
    return { name, code, message };
  }
  throw new Error('expected a GateUsageError, nothing was thrown');
}

describe('displayPath', () => {
  it('prints a path inside cwd relative with forward slashes, and one outside it absolute', () => {
    const root = folder();
    expect(displayPath(join('plans', 'night', 'route.ts'), root)).toBe('plans/night/route.ts');
    expect(displayPath(join(root, 'plans', 'a.ts'), root)).toBe('plans/a.ts');
    expect(displayPath(join('..', 'elsewhere.ts'), root)).toBe(resolve(root, '..', 'elsewhere.ts'));
  });
});

describe('reading planner files', () => {
  it('refuses a folder named like a verbs list as not a regular file, with a usage error', async () => {
    const root = folder({ 'verbs.json/keep': '' });
    const error = await refusal(() => loadPlannerVerbs(join(root, 'verbs.json')));
    expect(error).toEqual({ name: 'GateUsageError', code: 'usage', message: `${join(root, 'verbs.json')} is not a regular file` });
  });

  it('refuses a verbs list that is not JSON, and one that holds a number', async () => {
    const root = folder({ 'broken.json': '["dig_block",', 'numbers.json': '["dig_block", 7]' });
    expect((await refusal(() => loadPlannerVerbs(join(root, 'broken.json')))).message).toMatch(/broken\.json is not valid JSON: /);
    expect((await refusal(() => loadPlannerVerbs(join(root, 'numbers.json')))).message).toMatch(/numbers\.json must be a JSON array of verb strings:\n/);
  });

  it('takes arrays of verb strings from a module, and refuses one whose arrays are empty, blank or nested', async () => {
    const root = folder({
      'good.mjs': "export const verbs = ['dig_block', 'craft_item'];\nexport const count = 2;\n",
      'odd.mjs': "export const none = [];\nexport const blank = [''];\nexport const nested = [['dig_block']];\nexport const mixed = ['dig_block', 3];\n",
      'empty.mjs': 'export {};\n',
    });
    expect((await loadPlannerVerbs(join(root, 'good.mjs'))).map((v) => `${v.verb} ${v.line}:${v.column}`)).toEqual(['dig_block 1:23', 'craft_item 1:36']);
    expect((await refusal(() => loadPlannerVerbs(join(root, 'odd.mjs')))).message).toMatch(/odd\.mjs exports no Planner .* \(exports: blank, mixed, nested, none\)$/);
    expect((await refusal(() => loadPlannerVerbs(join(root, 'empty.mjs')))).message).toMatch(/empty\.mjs exports no Planner .* \(exports: none\)$/);
  });

  it('takes no verbs from a registry (it has verbs() too) or from a function carrying verbs()', async () => {
    const root = folder({
      'not-planners.mjs': "export const registry = { [Symbol.for('sinew.capability-registry')]: true, verbs: () => ['dig_block'] };\nexport function plan() {}\nplan.verbs = () => ['craft_item'];\n",
    });
    expect((await refusal(() => loadPlannerVerbs(join(root, 'not-planners.mjs')))).message).toMatch(/not-planners\.mjs exports no Planner .* \(exports: plan, registry\)$/);
  });

  it('gives up on a module that never finishes loading, and on a verbs() that never answers, naming each', async () => {
    const root = folder({ 'stuck.mjs': 'await new Promise(() => {});\n', 'silent.mjs': 'export const planner = { verbs: () => new Promise(() => {}) };\n' });
    // stuck.mjs never loads, so 20 ms decides however slow the machine is; silent.mjs must load first (the deadline
    // holds for each phase), which took longer than 20 ms at load ~15, so it has 2 s to load before verbs() is timed
    expect((await refusal(() => loadPlannerVerbs(join(root, 'stuck.mjs'), 20))).message).toBe(`loading ${join(root, 'stuck.mjs')} did not settle within 20 ms (--timeout to change)`);
    expect((await refusal(() => loadPlannerVerbs(join(root, 'silent.mjs'), 2_000))).message).toBe(`${join(root, 'silent.mjs')}#planner: verbs() did not settle within 2000 ms (--timeout to change)`);
  });

  it('reads a module again after it changed, follows the folder’s tsconfig wildcard paths, and takes module.exports = null as no exports', async () => {
    const root = folder({
      'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@camp/*': ['lib/*'] } } }),
      'lib/table.ts': "export const table: string[] = ['smelt_item'];\n",
      'wild.ts': "import { table } from '@camp/table';\nexport const verbs = [...table];\n",
      'edited.ts': "export const verbs: string[] = ['dig_block'];\n",
      'null.cjs': 'module.exports = null;\n',
    });
    const verbsOf = async (file: string) => (await loadPlannerVerbs(join(root, file))).map((found) => found.verb);
    expect(await verbsOf('wild.ts')).toEqual(['smelt_item']);
    expect(await verbsOf('edited.ts')).toEqual(['dig_block']);
    writeFileSync(join(root, 'edited.ts'), "export const verbs: string[] = ['craft_item'];\n");
    expect(await verbsOf('edited.ts')).toEqual(['craft_item']);
    expect((await refusal(() => loadPlannerVerbs(join(root, 'null.cjs')))).message).toMatch(/null\.cjs exports no Planner .* \(exports: none\)$/);
  });

  it('reads the properties of a module whose module.exports is a function, in .ts as in .cjs, and takes a string export as no exports', async () => {
    const fn = "module.exports = function plan() { return []; };\nmodule.exports.verbs = ['dig_block'];\n";
    const root = folder({ 'fn.ts': fn, 'fn.cjs': fn, 'text.ts': "module.exports = 'dig_block';\n" });
    const verbsOf = async (file: string) => (await loadPlannerVerbs(join(root, file))).map((found) => `${found.verb} ${found.source.replace(/^.*\//, '')}`);
    expect(await verbsOf('fn.cjs')).toEqual(['dig_block fn.cjs#verbs']);
    expect(await verbsOf('fn.ts')).toEqual(['dig_block fn.ts#verbs']);
    expect((await refusal(() => loadPlannerVerbs(join(root, 'text.ts')))).message).toMatch(/text\.ts exports no Planner .* \(exports: none\)$/);
  });

  it('leaves no deadline timer running once a module has loaded and its verbs() answered', async () => {
    const root = folder({ 'quick.mjs': "export const planner = { verbs: () => ['dig_block'] };\n" });
    // The timers created while it loads, by async id, until each is cleared or fires.
    const live = new Set<number>();
    const hook = createHook({ init: (id, type) => void (type === 'Timeout' && live.add(id)), destroy: (id) => void live.delete(id) }).enable();
    try {
      expect((await loadPlannerVerbs(join(root, 'quick.mjs'), 60_000)).map((found) => found.verb)).toEqual(['dig_block']);
      await new Promise((resolve) => setImmediate(resolve)); // destroy hooks run after the clear, not in it
    } finally {
      hook.disable();
    }
    expect(live.size).toBe(0);
  });

  it('says which module failed to load and why', async () => {
    const root = folder({ 'throws.mjs': "throw new Error('planner table missing');\n" });
    expect((await refusal(() => loadPlannerVerbs(join(root, 'throws.mjs')))).message).toBe(`cannot load ${join(root, 'throws.mjs')}: planner table missing`);
  });
});

describe('reading registry manifests', () => {
  it('refuses a manifest .json that is not one or not JSON, a folder named like either, and an export that is not a registry', async () => {
    const root = folder({ 'manifest.json': '{"capabilities": 3}', 'folder.json/keep': '', 'broken.json': '{"verbs": [', 'registry.ts/keep': '', 'plain.mjs': 'export const registry = { manifest: () => ({}) };\n', 'bare.mjs': 'export {};\n', 'two.mjs': 'export const a = 1;\nexport const b = [];\n' });
    expect((await refusal(() => loadManifest(join(root, 'manifest.json')))).message).toMatch(/manifest\.json is not a registry manifest:\n/);
    expect((await refusal(() => loadManifest(join(root, 'folder.json')))).message).toBe(`${join(root, 'folder.json')} is not a regular file`);
    expect((await refusal(() => loadManifest(join(root, 'broken.json')))).message).toMatch(/broken\.json is not valid JSON: /);
    expect((await refusal(() => loadManifest(join(root, 'registry.ts')))).message).toBe(`${join(root, 'registry.ts')} is not a regular file`);
    expect((await refusal(() => loadManifest(join(root, 'plain.mjs'), 'registry'))).message).toMatch(/plain\.mjs: export "registry" is not a CapabilityRegistry$/);
    expect((await refusal(() => loadManifest(join(root, 'bare.mjs'), 'registry'))).message).toMatch(/bare\.mjs has no export "registry" \(exports: none\)$/);
    expect((await refusal(() => loadManifest(join(root, 'bare.mjs')))).message).toMatch(/bare\.mjs exports no CapabilityRegistry \(exports: none\)$/);
    expect((await refusal(() => loadManifest(join(root, 'two.mjs')))).message).toMatch(/two\.mjs exports no CapabilityRegistry \(exports: a, b\)$/);
  });
});

describe('tsconfig aliases', () => {
  it('skips a path alias with no target', () => {
    const root = folder({ 'tsconfig.json': JSON.stringify({ compilerOptions: { paths: { '@me/empty': [], '@me/core': ['core/index.ts'] } } }) });
    expect(tsconfigAliases(root)).toEqual({ '@me/core': join(root, 'core/index.ts') });
  });
});

describe('scanning files by glob', () => {
  it('skips node_modules and dangling links, follows links to a file or a folder under their own names, and walks a folder reached twice once', () => {
    const root = folder({ 'plans/a.ts': "steps.push({ type: 'dig_block' });\n", 'plans/node_modules/x.ts': "({ type: 'vendored' })\n", 'other/b.ts': "({ type: 'craft_item' })\n", 'extra/c.ts': "[{ type: 'smelt_item' }]\n" });
    symlinkSync(join(root, 'other/b.ts'), join(root, 'plans/linked.ts'));
    symlinkSync(join(root, 'plans'), join(root, 'plans/again'));
    symlinkSync(join(root, 'extra'), join(root, 'plans/more'));
    symlinkSync(join(root, 'plans/deleted.ts'), join(root, 'plans/gone.ts'));
    expect(globFiles('plans/**/*.ts', root)).toEqual(['plans/a.ts', 'plans/linked.ts', 'plans/more/c.ts']);
    expect(scanFiles('plans/**/*.ts', root)).toEqual({
      files: 3,
      verbs: [
        { verb: 'dig_block', source: 'scan', file: 'plans/a.ts', line: 1, column: 14 },
        { verb: 'craft_item', source: 'scan', file: 'plans/linked.ts', line: 1, column: 4 },
        { verb: 'smelt_item', source: 'scan', file: 'plans/more/c.ts', line: 1, column: 4 },
      ],
    });
  });

  it('reads a glob with ./ segments as the same glob without them, and prints the files without them', () => {
    const root = folder({ 'plans/a.ts': '', 'plans/deep/b.ts': '' });
    expect(globFiles('./plans/./**/*.ts', root)).toEqual(['plans/a.ts', 'plans/deep/b.ts']);
    expect(globFiles('plans/deep/./b.ts', root)).toEqual(['plans/deep/b.ts']);
  });

  it('finds nothing under a glob whose fixed prefix is a file, not a folder', async () => {
    const root = folder({ 'notes.txt': "{ type: 'dig_block' }\n" });
    expect(globFiles('notes.txt/**/*.txt', root)).toEqual([]);
    expect((await refusal(() => scanFiles('notes.txt/*', root))).message).toBe('--scan notes.txt/* matched no files');
  });

  it('refuses a glob that matches no file', async () => {
    const root = folder({ 'plans/a.ts': '' });
    expect((await refusal(() => scanFiles('plans/**/*.js', root))).message).toBe('--scan plans/**/*.js matched no files');
  });
});
