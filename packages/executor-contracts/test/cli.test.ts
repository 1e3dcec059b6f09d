import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ManifestSchema, VerbReportSchema } from '@sinew/executor-contracts';
import { F, TIMEOUT, type Run } from './verbs-cli.js';

// Drives the real CLI from source (`node --import tsx`) from the repo root, as CI would run it. The usage
// errors, hangs and scans that need no process run in-process in cli-in-process.test.ts.
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const cli = 'packages/executor-contracts/src/cli.ts';

function sinewVerbs(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: repoRoot, timeout: TIMEOUT }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const tmp = mkdtempSync(join(tmpdir(), 'sinew-verbs-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.concurrent('sinew-verbs check on fixture projects', () => {
  it('passes a clean project (planner module, verbs.json and a source scan agree)', async () => {
    const run = await sinewVerbs('check', '--registry', `${F}/clean/registry.ts`, '--planner', `${F}/clean/planner.ts`, '--planner', `${F}/clean/verbs.json`, '--scan', `${F}/clean/plans/**/*.ts`);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('verb gate passed: 3 planner verb(s), 3 registered verb(s), 0 error(s), 0 warning(s)\n');
    expect(run.code).toBe(0);
  }, TIMEOUT);

  it('reports the clean project as JSON, planner verbs located in their files', async () => {
    const run = await sinewVerbs('check', '--registry', `${F}/clean/registry.ts`, '--planner', `${F}/clean/planner.ts`, '--format', 'json');
    expect(run.code).toBe(0);
    const report = VerbReportSchema.parse(JSON.parse(run.stdout));
    expect(report).toMatchObject({ ok: true, registryVerbs: ['chat', 'craft_item', 'dig_block'], plannerVerbs: ['chat', 'craft_item', 'dig_block'], findings: [] });
  }, TIMEOUT);

  it('fails FM-01 divergence with GitHub annotations at the verb source lines', async () => {
    const run = await sinewVerbs('check', '--registry', `${F}/unknown-verb/registry.ts`, '--planner', `${F}/unknown-verb/planner.ts`, '--scan', `${F}/unknown-verb/plans/*.ts`, '--format', 'github');
    expect(run.code).toBe(1);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toEqual([
      `::error file=${F}/unknown-verb/planner.ts,line=2,col=58,title=sinew-verbs unknown_verb::planner verb "dig_blok" has no capability (FM-01: the bot would silently do nothing); did you mean "dig_block"?`,
      `::error file=${F}/unknown-verb/plans/craft.ts,line=4,col=20,title=sinew-verbs unknown_verb::planner verb "place_block" has no capability (FM-01: the bot would silently do nothing)`,
      'verb gate FAILED: 5 planner verb(s), 3 registered verb(s), 2 error(s), 0 warning(s)',
    ]);
  }, TIMEOUT);

  it('fails a capability whose acceptance is unverified', async () => {
    const run = await sinewVerbs('check', '--registry', `${F}/unverified/registry.ts`, '--planner', `${F}/unverified/verbs.json`);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('error   [unverified_acceptance] wave@0.1.0 has no real acceptance check (unverified: no observable effect yet)');
  }, TIMEOUT);

  it('warns, but passes, when a planner uses a deprecated alias', async () => {
    const run = await sinewVerbs('check', '--registry', `${F}/alias/registry.ts`, '--planner', `${F}/alias/verbs.json`);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`warning [alias_use] "mine_block" is a deprecated alias of "dig_block"; emit "dig_block" instead\n      at ${F}/alias/verbs.json:1:2`);
  }, TIMEOUT);

  it('warns, but passes, on registry-only verbs', async () => {
    const run = await sinewVerbs('check', '--registry', `${F}/registry-only/registry.ts`, '--planner', `${F}/registry-only/verbs.json`, '--format', 'github');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('::warning title=sinew-verbs registry_only::capability "chat" is registered but no planner emits it');
    expect(run.stdout).toContain('0 error(s), 2 warning(s)');
  }, TIMEOUT);

  it('needs --export when a module has several registries', async () => {
    const ambiguous = await sinewVerbs('check', '--registry', `${F}/multi-registry/registry.ts`, '--planner', `${F}/multi-registry/verbs.json`);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('exports several registries (social, survival); pick one with --export <name>');
    const picked = await sinewVerbs('check', '--registry', `${F}/multi-registry/registry.ts`, '--export', 'social', '--planner', `${F}/multi-registry/verbs.json`);
    expect(picked.stdout).toBe('verb gate passed: 1 planner verb(s), 1 registered verb(s), 0 error(s), 0 warning(s)\n');
    expect(picked.code).toBe(0);
  }, TIMEOUT);
});

describe('sinew-verbs module loading', () => {
  it('resolves package imports through the nearest tsconfig paths, so registries load before any build', async () => {
    const project = join(tmp, 'paths-project');
    mkdirSync(join(project, 'src'), { recursive: true });
    const contracts = fileURLToPath(new URL('../src/index.ts', import.meta.url));
    // A JSONC tsconfig (comments, trailing commas) mapping an alias that exists in no node_modules.
    writeFileSync(join(project, 'tsconfig.json'), `{\n  // paths only\n  "compilerOptions": { "paths": { "@bot/contracts": [${JSON.stringify(contracts)}], }, },\n}\n`);
    writeFileSync(join(project, 'src/registry.ts'), "import { CapabilityRegistry } from '@bot/contracts';\nexport const registry: CapabilityRegistry = new CapabilityRegistry();\n");
    const run = await sinewVerbs('manifest', '--registry', join(project, 'src/registry.ts'));
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ manifestVersion: 1, capabilities: [] });
    expect(run.code).toBe(0);
  }, TIMEOUT);
});

describe('sinew-verbs manifest', () => {
  it('prints the manifest, writes it with --out, and check accepts the written file', async () => {
    const printed = await sinewVerbs('manifest', '--registry', `${F}/unknown-verb/registry.ts`);
    expect(printed.code).toBe(0);
    const manifest = ManifestSchema.parse(JSON.parse(printed.stdout));
    expect(manifest.capabilities.map((c) => c.name)).toEqual(['chat', 'craft_item', 'dig_block']);
    expect(manifest.capabilities[2]).toMatchObject({ aliases: ['mine_block'], versions: [{ version: '1.0.0', acceptance: 'verified', inputSchema: { type: 'object', required: ['x', 'y', 'z'] } }] });

    const out = join(tmp, 'manifest.json');
    const written = await sinewVerbs('manifest', '--registry', `${F}/unknown-verb/registry.ts`, '--out', out);
    expect(written.code).toBe(0);
    expect(written.stderr).toContain(`wrote ${out}`);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(manifest);

    const fromJson = await sinewVerbs('check', '--registry', out, '--planner', `${F}/unknown-verb/planner.ts`);
    expect(fromJson.code).toBe(1);
    expect(fromJson.stdout).toContain('planner verb "dig_blok" has no capability');
  }, TIMEOUT);
});

describe.concurrent('sinew-verbs bad usage exits 2 with a clear message', () => {
  it('as a process: a bad flag and an unloadable registry both exit 2 with the message on stderr', async () => {
    const flag = await sinewVerbs('check', '--registry', `${F}/clean/registry.ts`, '--format', 'xml', '--planner', `${F}/clean/verbs.json`);
    expect([flag.code, flag.stdout]).toEqual([2, '']);
    expect(flag.stderr).toBe('sinew-verbs: bad flags:\n✖ Invalid option: expected one of "text"|"json"|"github"\n  → at --format\nRun `sinew-verbs --help` for usage.\n');
    const load = await sinewVerbs('manifest', '--registry', `${F}/bad/duplicate-registry.ts`);
    expect([load.code, load.stdout]).toEqual([2, '']);
    expect(load.stderr).toContain('chat@1.0.0 is already registered');
  }, TIMEOUT);

  it('prints usage with --help and exits 0', async () => {
    const run = await sinewVerbs('--help');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('sinew-verbs check --registry <module|manifest.json>');
  }, TIMEOUT);
});

describe('examples/ci/verbs-gate.yml', () => {
  const workflow = readFileSync(join(repoRoot, 'examples/ci/verbs-gate.yml'), 'utf8');

  /** The `run: |` block of the named step, de-indented. */
  function stepScript(name: string): string {
    const lines = workflow.split('\n');
    const start = lines.findIndex((line) => line.trim() === `- name: ${name}`);
    const runAt = lines.findIndex((line, i) => i > start && line.trim() === 'run: |');
    const indent = (lines[runAt + 1] ?? '').search(/\S/);
    const body: string[] = [];
    for (const line of lines.slice(runAt + 1)) {
      if (line.trim() !== '' && line.search(/\S/) < indent) break;
      body.push(line.slice(indent));
    }
    return body.join('\n');
  }

  it('runs the gate on pull requests', () => {
    expect(workflow).toMatch(/^on:\n {2}pull_request:/m);
  });

  it.each([
    ['clean', `${F}/clean/planner.ts ${F}/clean/verbs.json`, `${F}/clean/plans/**/*.ts`, 0],
    ['unknown-verb', `${F}/unknown-verb/planner.ts`, `${F}/unknown-verb/plans/*.ts`, 1],
    ['unverified', `${F}/unverified/verbs.json`, '', 1],
  ])('its gate step passes or fails the %s fixture project', (project, planners, scan, expected) => {
    const script = stepScript('Verb gate').replace('npx --no-install sinew-verbs', `"${process.execPath}" --import tsx ${cli}`);
    expect(script).toContain('--format github');
    const run = spawnSync('bash', ['-c', script], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: TIMEOUT,
      env: { ...process.env, REGISTRY: `${F}/${project}/registry.ts`, PLANNERS: planners, SCAN: scan },
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(expected);
    if (expected) expect(run.stdout).toMatch(/^::error /m);
  }, TIMEOUT);
});

describe.concurrent('sinew-verbs cannot pass green on a hang', () => {
  it('a registry module that never settles exits 2 naming it, also when nothing holds the event loop', async () => {
    const bounded = await sinewVerbs('check', '--registry', `${F}/bad/never-settles-registry.ts`, '--planner', `${F}/clean/verbs.json`, '--timeout', '500');
    expect([bounded.code, bounded.stdout]).toEqual([2, '']);
    expect(bounded.stderr).toContain(`loading ${F}/bad/never-settles-registry.ts did not settle within 500 ms`);
  }, TIMEOUT);

  it('exits once the report is printed even when a module left a timer running', async () => {
    const run = await sinewVerbs('check', '--registry', `${F}/bad/timer-registry.ts`, '--planner', `${F}/clean/verbs.json`);
    expect(run.stdout).toContain('verb gate passed');
    expect(run.code).toBe(0);
  }, TIMEOUT);
});
