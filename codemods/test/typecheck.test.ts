import { join } from 'node:path';
import { Project } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { wrapRunners } from '../src/index.js';
import { compilerOptions, fixtures, typecheck } from './helpers.js';

const shapeFiles = ['function', 'dispatcher', 'leaf'].map((name) => join(fixtures, 'shapes', `${name}.ts`));
const realistic = join(fixtures, 'realistic/src/bot/actions.ts');

function generate(files: string[]) {
  const project = new Project({ compilerOptions, skipAddingFilesFromTsConfig: true });
  for (const file of files) project.addSourceFileAtPath(file);
  return wrapRunners(project, { files });
}

describe('generated code type-checks against the real @sinew/executor-contracts', () => {
  it('compiles the outputs of the three shape fixtures and their registry with no diagnostics', () => {
    const result = generate(shapeFiles);
    expect(result.changes.map((c) => c.kind).sort()).toEqual(['capabilities', 'capabilities', 'capabilities', 'export', 'registry']);
    expect(typecheck(shapeFiles, result.changes)).toEqual([]);
  });

  it('compiles the outputs of the realistic mineflayer module (real mineflayer Bot and vec3 types)', () => {
    const result = generate([realistic]);
    expect(result.report.wrapped).toBeGreaterThan(8);
    expect(typecheck([realistic], result.changes)).toEqual([]);
  });

  it('catches a generated runner that does not fit the contracts (the check can fail)', () => {
    const result = generate(shapeFiles);
    const broken = result.changes.map((c) =>
      c.path.endsWith('function.capabilities.ts') ? { ...c, after: c.after.replace("name: 'craft_item',", 'name: 42,') } : c,
    );
    expect(typecheck(shapeFiles, broken).join('\n')).toMatch(/function\.capabilities\.ts:\d+ Type 'number' is not assignable to type 'string'/);
  });

  it('types args from the inferred schema: a wrong argument is a compile error, not any', () => {
    const result = generate(shapeFiles);
    const swapped = result.changes.map((c) =>
      c.path.endsWith('function.capabilities.ts') ? { ...c, after: c.after.replace('args.itemName, args.quantity', 'args.itemName, args.itemName') } : c,
    );
    expect(typecheck(shapeFiles, swapped).join('\n')).toMatch(/Argument of type 'string' is not assignable to parameter of type 'number'/);
  });
});
