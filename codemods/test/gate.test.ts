import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Project } from 'ts-morph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapRunners } from '../src/index.js';
import { compilerOptions, fixtures, repoRoot } from './helpers.js';

const verbsCli = join(repoRoot, 'packages/executor-contracts/src/cli.ts');

interface VerbReport {
  ok: boolean;
  findings: { kind: string; severity: string; verb: string }[];
}

describe('sinew-verbs check on the generated registry (the adoption workflow)', () => {
  let dir: string;
  let verbs: string[];
  let gate: { status: number | null; stdout: string; stderr: string };

  beforeAll(() => {
    // A temp project: the shape fixtures and the realistic module with their generated files, the contracts mapped to source.
    dir = mkdtempSync(join(tmpdir(), 'sinew-gate-'));
    cpSync(join(fixtures, 'shapes'), join(dir, 'src'), { recursive: true, filter: (src) => !src.includes('expected') });
    cpSync(join(fixtures, 'realistic/src/bot'), join(dir, 'src/bot'), { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@sinew/executor-contracts': [join(repoRoot, 'packages/executor-contracts/src/index.ts')] } } }),
    );
    const files = ['function', 'dispatcher', 'leaf', 'bot/actions'].map((name) => join(dir, 'src', `${name}.ts`));
    const project = new Project({ compilerOptions, skipAddingFilesFromTsConfig: true });
    for (const file of files) project.addSourceFileAtPath(file);
    const result = wrapRunners(project, { files });
    for (const change of result.changes) writeFileSync(change.path, change.after);
    verbs = result.report.findings.filter((f) => f.kind === 'wrapped').map((f) => f.verb!);
    writeFileSync(join(dir, 'verbs.json'), JSON.stringify(verbs));
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', verbsCli, 'check', '--registry', 'src/sinew.registry.ts', '--planner', 'verbs.json', '--format', 'json'],
      { cwd: dir, encoding: 'utf8' },
    );
    gate = { status: run.status, stdout: run.stdout, stderr: run.stderr };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads the generated registry and fails (exit 1) only because acceptance is unverified', () => {
    expect(gate.status, gate.stderr).toBe(1);
    const report = JSON.parse(gate.stdout) as VerbReport;
    expect(report.ok).toBe(false);
    const errors = report.findings.filter((f) => f.severity === 'error');
    expect(errors.map((f) => f.kind)).toEqual(verbs.map(() => 'unverified_acceptance'));
    expect(errors.map((f) => f.verb).sort()).toEqual([...verbs].sort());
    expect(report.findings.filter((f) => f.kind === 'unknown_verb')).toEqual([]);
    expect(verbs).toContain('go_to_position'); // the Vec3 transform survives the manifest's JSON Schema
  });
});
