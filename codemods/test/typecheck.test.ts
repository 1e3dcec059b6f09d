import { join } from 'node:path';
import { Project } from 'ts-morph';
import { beforeAll, describe, expect, it } from 'vitest';
import { wrapRunners, type FileChange } from '../src/index.js';
import { compilerOptions, fixtures, typecheck } from './helpers.js';

const shapeFiles = ['function', 'dispatcher', 'leaf'].map((name) => join(fixtures, 'shapes', `${name}.ts`));
const realistic = join(fixtures, 'realistic/src/bot/actions.ts');

function generate(files: string[]) {
  const project = new Project({ compilerOptions, skipAddingFilesFromTsConfig: true });
  for (const file of files) project.addSourceFileAtPath(file);
  return wrapRunners(project, { files });
}

/** A copy of a generated file beside it, with one edit: the compiler must reject it. */
function variant(change: FileChange, name: string, from: string, to: string): FileChange {
  expect(change.after).toContain(from);
  return { ...change, path: change.path.replace('.capabilities.ts', `.${name}.capabilities.ts`), after: change.after.replace(from, to) };
}

describe('generated code type-checks against the real @sinew/executor-contracts', () => {
  // One program for everything (the compiler is the slow part): the shape outputs, the realistic
  // module's outputs (real mineflayer Bot and vec3 types) and two broken copies that must fail.
  let shapes: ReturnType<typeof generate>;
  let real: ReturnType<typeof generate>;
  let diagnostics: string[] = [];
  const byFile = (fragment: string) => diagnostics.filter((d) => d.includes(fragment));

  beforeAll(() => {
    shapes = generate(shapeFiles);
    real = generate([realistic]);
    const fn = shapes.changes.find((c) => c.path.endsWith('function.capabilities.ts'))!;
    const broken = [
      variant(fn, 'bad-name', "name: 'craft_item',", 'name: 42,'),
      variant(fn, 'bad-args', 'args.itemName, args.quantity', 'args.itemName, args.itemName'),
    ];
    diagnostics = typecheck([...shapeFiles, realistic], [...shapes.changes, ...real.changes, ...broken]);
  });

  it('compiles the outputs of the three shape fixtures and their registry with no diagnostics', () => {
    expect(shapes.changes.map((c) => c.kind).sort()).toEqual(['capabilities', 'capabilities', 'capabilities', 'export', 'registry']);
    expect(diagnostics.filter((d) => !d.includes('.bad-'))).toEqual([]);
  });

  it('compiles the outputs of the realistic mineflayer module (real mineflayer Bot and vec3 types)', () => {
    expect(real.report.wrapped).toBe(12);
    expect(byFile('realistic/')).toEqual([]);
  });

  it('catches a generated capability that does not fit the contracts (the check can fail)', () => {
    expect(byFile('function.bad-name.capabilities.ts').join('\n')).toMatch(/Type 'number' is not assignable to type 'string'/);
  });

  it('types args from the inferred schema: a wrong argument is a compile error, not any', () => {
    expect(byFile('function.bad-args.capabilities.ts').join('\n')).toMatch(/Argument of type 'string' is not assignable to parameter of type 'number'/);
  });
});
