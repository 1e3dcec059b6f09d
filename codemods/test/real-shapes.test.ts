import { join } from 'node:path';
import { Project } from 'ts-morph';
import { beforeAll, describe, expect, it } from 'vitest';
import { wrapRunners, type WrapResult } from '../src/index.js';
import { argumentShare, compilerOptions, fixtures, typecheck } from './helpers.js';

// The realistic module of each shape, run as the CLI would (real file system, real mineflayer types).
const MODULES = {
  skills: join(fixtures, 'js/skills.js'),
  commands: join(fixtures, 'js/commands.js'),
  behaviours: join(fixtures, 'js/behaviours.cjs'),
  leaves: join(fixtures, 'ts/leaves.ts'),
  executor: join(fixtures, 'ts/action-executor.ts'),
} as const;

function wrap(path: string): WrapResult {
  const project = new Project({ compilerOptions: { ...compilerOptions, allowJs: true }, skipAddingFilesFromTsConfig: true });
  project.addSourceFileAtPath(path);
  return wrapRunners(project, { files: [path], registryFile: path.replace(/[^/]+$/, `sinew.registry${path.match(/\.\w+$/)![0]}`) });
}

const results = {} as Record<keyof typeof MODULES, WrapResult>;
beforeAll(() => {
  for (const [name, path] of Object.entries(MODULES)) results[name as keyof typeof MODULES] = wrap(path);
});

describe('the realistic module of every shape', () => {
  it.each([
    ['skills', 36, 6, 0],
    ['commands', 17, 1, 0],
    ['behaviours', 8, 3, 0],
    ['leaves', 9, 1, 0],
    ['executor', 11, 8, 1],
  ] as const)('%s: %i wrapped, %i skipped, %i unsafe', (name, wrapped, skipped, unsafe) => {
    const { report } = results[name];
    expect({ wrapped: report.wrapped, skipped: report.skipped, unsafe: report.unsafe }).toEqual({ wrapped, skipped, unsafe });
  });

  it('leaves at most 10 % of the arguments as z.unknown() over all of them', () => {
    const shares = Object.values(results).map(argumentShare);
    const args = shares.reduce((n, s) => n + s.args, 0);
    const unknown = shares.reduce((n, s) => n + s.unknown, 0);
    expect(args).toBeGreaterThan(120);
    expect(unknown / args).toBeLessThanOrEqual(0.1);
  });

  it('never wraps a skipped helper: only exported async runners, every case and entry', () => {
    const skippedCodes = new Set(Object.values(results).flatMap((r) => r.report.findings.filter((f) => f.kind === 'skipped').map((f) => f.code)));
    expect([...skippedCodes].sort()).toEqual(['not_async', 'not_exported']);
  });

  it('leaves a marked comment for the legacy case whose field never reaches its runner', () => {
    const text = results.executor.changes.find((c) => c.kind === 'capabilities')!.after;
    expect(text).toContain("/* sinew-codemod: executeLegacyCommand#say (line 134) not wrapped: case 'say' reads command.args.text outside its call to ok()");
    expect(text).toContain("mode: z.enum(['walk', 'sprint', 'sneak']),");
    expect(text).toContain('ticks: z.number().default(20),');
  });

  it('compiles the TypeScript outputs (capabilities, registry, context file) against the contracts and mineflayer types', () => {
    const changes = [...results.leaves.changes, ...results.executor.changes].filter((c) => c.kind !== 'export' && !c.path.endsWith('sinew.registry.ts'));
    expect(typecheck([MODULES.leaves, MODULES.executor], changes)).toEqual([]);
  });
});
