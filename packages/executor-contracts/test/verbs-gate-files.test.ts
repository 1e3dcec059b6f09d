import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ManifestSchema, VerbReportSchema } from '../src/index.js';
import { runCli } from '../src/gate/cli.js';
import { manifestVersion } from './manifest-version.js';

// `sinew-verbs` in-process on a project written to a temp folder: manifest.json registries, verbs.json lists
// and plain .mjs modules (no TypeScript, no workspace imports) so each load is quick. A registry module here
// is any object carrying the registry brand (`Symbol.for('sinew.capability-registry')`) with a manifest().

const root = mkdtempSync(join(tmpdir(), 'sinew-gate-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const version = (extra: Parameters<typeof manifestVersion>[1] = {}) => manifestVersion('1.4.0', extra);
const manifest = {
  manifestVersion: 1,
  capabilities: [
    { name: 'fish', aliases: ['angle'], versions: [version()] },
    { name: 'till_soil', aliases: [], versions: [version({ acceptance: 'unverified', unverifiedReason: 'farmland not observed yet' })] },
  ],
};

const file = (path: string, text: string) => {
  const full = join(root, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, text);
  return full;
};
const registryJson = file('reg/manifest.json', JSON.stringify(manifest));
const fishOnly = file('reg/fish.json', JSON.stringify({ manifestVersion: 1, capabilities: [manifest.capabilities[0]] }));
const verbsJson = file('plan/verbs.json', '[\n  "fish",\n  "angle"\n]');
const branded = (name: string) => `{ [Symbol.for('sinew.capability-registry')]: true, manifest: () => (${JSON.stringify({ manifestVersion: 1, capabilities: [{ name, aliases: [], versions: [version()] }] })}) }`;
const oneRegistry = file('reg/one.mjs', `export const farm = ${branded('fish')};\nexport const unrelated = 3;\n`);
const twoRegistries = file('reg/two.mjs', `export const sea = ${branded('fish')};\nexport const land = ${branded('till_soil')};\n`);
const noRegistry = file('reg/none.mjs', 'export const nothing = null;\n');
const throwingManifest = file('reg/throws.mjs', `export const broken = { [Symbol.for('sinew.capability-registry')]: true, manifest() { throw new Error('half-built'); } };\n`);
const badManifest = file('reg/bad.mjs', `export const odd = { [Symbol.for('sinew.capability-registry')]: true, manifest: () => ({ manifestVersion: 2 }) };\n`);
const planner = file(
  'plan/planner.mjs',
  [
    `export const fisher = { verbs: () => ['fish', 'sail'] };`,
    `export const chores = ['till_soil'];`,
    `export const empty = [];`,
    `export const registryToo = ${branded('fish')};`,
  ].join('\n'),
);
const asyncPlanner = file('plan/async.mjs', `export const later = { verbs: async () => ['fish'] };\n`);
const throwingPlanner = file('plan/throws.mjs', `export const grumpy = { verbs() { throw new Error('no verbs today'); } };\n`);
const badPlanner = file('plan/bad.mjs', `export const sloppy = { verbs: () => ['fish', ''] };\n`);
file('src/plans/a.ts', `const steps = [{ stepId: 's', type: 'fish', args: {} }];\n`);
file('src/plans/deep/b.ts', `export const other = { type: 'sail' }; // not a step? the scan cannot tell\n`);

async function gate(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (text) => void (out += text), err: (text) => void (err += text) });
  return { code, out, err };
}

describe('sinew-verbs check against a manifest.json', () => {
  it('passes when every planner verb (an alias counts) has a capability, with a warning for the alias', async () => {
    const run = await gate('check', '--registry', fishOnly, '--planner', verbsJson, '--format', 'json');
    const report = VerbReportSchema.parse(JSON.parse(run.out));
    expect([run.code, run.err, report.ok, report.plannerVerbs]).toEqual([0, '', true, ['angle', 'fish']]);
    expect(report.findings.map((finding) => [finding.severity, finding.verb])).toEqual([['warning', 'angle']]);
  });

  it('fails (exit 1) on an unverified capability and on a scanned verb nobody provides', async () => {
    const run = await gate('check', '--registry', registryJson, '--scan', `${root}/src/plans/**/*.ts`, '--format', 'github');
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/^::error /m);
    expect(run.out).toContain('sail');
    expect(run.out).toContain('till_soil');
  });

  it('prints the text summary line last', async () => {
    const run = await gate('check', '--registry', fishOnly, '--planner', verbsJson);
    expect(run.out.trimEnd().split('\n').at(-1)).toBe('verb gate passed: 2 planner verb(s), 1 registered verb(s), 0 error(s), 1 warning(s)');
  });
});

describe('sinew-verbs manifest and check on .mjs modules', () => {
  it('writes the manifest of the only registry export to --out and says where', async () => {
    const out = join(root, 'out/manifest.json');
    mkdirSync(join(root, 'out'), { recursive: true });
    const run = await gate('manifest', '--registry', oneRegistry, '--out', out);
    expect([run.code, run.out, run.err]).toEqual([0, '', `sinew-verbs: wrote ${out}\n`]);
    expect(ManifestSchema.parse(JSON.parse(readFileSync(out, 'utf8'))).capabilities.map((cap) => cap.name)).toEqual(['fish']);
  });

  it('a manifest that cannot be written is an unexpected error (exit 2), with the cause', async () => {
    const run = await gate('manifest', '--registry', oneRegistry, '--out', join(root, 'no-such-folder/manifest.json'));
    expect([run.code, run.out]).toEqual([2, '']);
    expect(run.err).toMatch(/^sinew-verbs: unexpected error: Error: ENOENT/);
    expect(run.err).not.toContain('--help');
  });

  it('prints the manifest of the export named by --export', async () => {
    const run = await gate('manifest', '--registry', twoRegistries, '--export', 'land', '--timeout', '20000');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).capabilities[0].name).toBe('till_soil');
    expect(run.out.endsWith('}\n')).toBe(true);
  });

  it('reads planners (verbs(), sync or async) and verb arrays, skipping registries and empty arrays', async () => {
    const run = await gate('check', '--registry', registryJson, '--planner', planner, '--planner', asyncPlanner, '--format', 'json');
    const report = VerbReportSchema.parse(JSON.parse(run.out));
    expect(report.plannerVerbs).toEqual(['fish', 'sail', 'till_soil']);
    expect(run.code).toBe(1);
  });
});

describe('sinew-verbs refuses with exit 2 and the reason', () => {
  it.each([
    ['several registries, no --export', ['manifest', '--registry', twoRegistries], 'exports several registries (land, sea); pick one with --export <name>'],
    ['--export names no export', ['manifest', '--registry', twoRegistries, '--export', 'river'], 'has no export "river" (exports: land, sea)'],
    ['no registry export', ['manifest', '--registry', noRegistry], 'exports no CapabilityRegistry (exports: nothing)'],
    ['manifest() throws', ['manifest', '--registry', throwingManifest], 'throws.mjs: manifest() failed: half-built'],
    ['manifest() answers a bad manifest', ['manifest', '--registry', badManifest], 'bad.mjs: the registry produced a bad manifest:'],
    ['registry of another extension', ['manifest', '--registry', `${root}/reg/registry.yaml`], 'registry.yaml: expected a .ts/.js module or a manifest .json'],
    ['registry that is a folder', ['manifest', '--registry', `${root}/reg`], 'expected a .ts/.js module or a manifest .json'],
    ['registry that does not exist', ['manifest', '--registry', `${root}/reg/missing.mjs`], 'missing.mjs does not exist'],
    ['verbs() throws', ['check', '--registry', registryJson, '--planner', throwingPlanner], 'throws.mjs#grumpy: verbs() threw: no verbs today'],
    ['verbs() answers an empty verb', ['check', '--registry', registryJson, '--planner', badPlanner], 'bad.mjs#sloppy: verbs() must return verb strings:'],
    ['planner module with no planner', ['check', '--registry', registryJson, '--planner', noRegistry], 'exports no Planner (an object with verbs()) and no array of verb strings (exports: nothing)'],
    ['planner file that does not exist', ['check', '--registry', registryJson, '--planner', registryJson.replace('.json', '.txt')], 'cannot read'],
    ['planner of another extension', ['check', '--registry', registryJson, '--planner', file('plan/notes.md', '- fish\n')], 'notes.md: expected a verbs .json or a .ts/.js module'],
    ['--timeout 0', ['check', '--registry', registryJson, '--planner', verbsJson, '--timeout', '0'], 'must be > 0\n  → at --timeout'],
    ['--timeout not whole', ['check', '--registry', registryJson, '--planner', verbsJson, '--timeout', '1.5'], 'must be a whole number of milliseconds'],
    ['empty --registry', ['check', '--registry', '', '--planner', verbsJson], 'must not be empty\n  → at --registry'],
    ['manifest given --planner', ['manifest', '--registry', registryJson, '--planner', verbsJson], 'Unrecognized key: "planner"'],
    ['extra positionals', ['check', 'extra', 'words'], 'unexpected argument(s): extra words'],
    ['check with nothing to check', ['check', '--registry', registryJson], 'give at least one --planner or --scan'],
    ['no command', [], 'missing command (manifest or check)'],
    ['an unknown command', ['deploy', '--registry', registryJson], 'unknown command "deploy" (expected manifest or check)'],
    ['a flag without its value', ['check', '--registry'], "Option '--registry <value>' argument missing"],
  ])('%s', async (_label, args, message) => {
    const run = await gate(...args);
    expect(run.err).toContain(message);
    expect(run.err).toMatch(/^sinew-verbs: [^]*\nRun `sinew-verbs --help` for usage\.\n$/);
    expect([run.code, run.out]).toEqual([2, '']);
  });
});

describe('sinew-verbs help', () => {
  it.each([['--help'], ['-h'], ['help'], ['check', '-h']])('%s prints the usage and exits 0', async (...args) => {
    const run = await gate(...args);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^sinew-verbs — compare the verbs planners emit/);
    expect(run.out).toContain('(default 30000)');
    expect(run.err).toBe('');
  });
});
