import { describe, expect, it } from 'vitest';
import { deriveSchema } from '../src/schema.js';
import { memoryProject } from './helpers.js';

// One in-memory project for every case (loading the lib files is the slow part); a file per case.
const project = memoryProject({});
let cases = 0;

/** Derives the schema of `type T` declared in a small in-memory file. */
function derive(declarations: string) {
  cases += 1;
  const file = project.createSourceFile(`/case${cases}.ts`, `export {};\n${declarations}\ndeclare const value: T;`);
  const node = file.getVariableDeclarationOrThrow('value');
  return deriveSchema(node.getType(), node, 'args');
}

describe('deriveSchema (TypeScript type → zod source via the type checker)', () => {
  it.each([
    ['type T = string', 'z.string()'],
    ['type T = number', 'z.number()'],
    ['type T = boolean', 'z.boolean()'],
    ["type T = 'oak' | 'birch' | 'spruce'", "z.enum(['oak', 'birch', 'spruce'])"],
    ["type T = 'only'", "z.literal('only')"],
    ['type T = 1 | 2', 'z.union([z.literal(1), z.literal(2)])'],
    ['type T = string[]', 'z.array(z.string())'],
    ['type T = readonly number[]', 'z.array(z.number())'],
    ['type T = [number, string]', 'z.tuple([z.number(), z.string()])'],
    ['type T = Record<string, number>', 'z.record(z.string(), z.number())'],
    ['type T = string | null', 'z.string().nullable()'],
    ['type T = string | number', 'z.union([z.string(), z.number()])'],
  ])('%s → %s', (declaration, expected) => {
    expect(derive(declaration)).toMatchObject({ ok: true, code: expected, optional: false });
  });

  it('turns undefined in a union into optional', () => {
    expect(derive('type T = number | undefined')).toMatchObject({ ok: true, code: 'z.number()', optional: true });
  });

  it('derives nested objects with optional properties and Vec3-like {x,y,z}', () => {
    const result = derive('interface P { x: number; y: number; z: number }\ntype T = { at: P; label?: string; tags: { name: string }[] }');
    expect(result).toMatchObject({ ok: true });
    expect(result.ok && result.code).toBe(
      [
        'z.strictObject({',
        '  at: z.strictObject({',
        '    x: z.number(),',
        '    y: z.number(),',
        '    z: z.number(),',
        '  }),',
        '  label: z.string().optional(),',
        '  tags: z.array(z.strictObject({',
        '    name: z.string(),',
        '  })),',
        '})',
      ].join('\n'),
    );
  });

  it('marks any and unknown as z.unknown() with a sinew-codemod comment and a note', () => {
    const result = derive('type T = { meta: any; extra?: unknown }');
    expect(result.ok && result.code).toContain('meta: z.unknown() /* sinew-codemod: args.meta is typed any; replace z.unknown() with its real schema */');
    expect(result.ok && result.code).toContain('extra: z.unknown().optional() /* sinew-codemod: args.extra is typed unknown');
    expect(result.ok && result.notes).toHaveLength(2);
  });

  it.each([
    ['type T = (x: number) => void', /args is a function/],
    ['class Block { name = ""; dig(): void {} }\ntype T = Block', /args \(Block\) has behaviour \(dig\(\)\)/],
    ['enum Mode { A, B }\ntype T = Mode', /args is an enum/],
    ['interface Chain { next?: Chain; v: number }\ntype T = Chain', /recursive/],
    ['type T = Date', /is a Date/],
  ])('refuses what a planner cannot send: %s', (declaration, reason) => {
    const result = derive(declaration);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(reason);
  });
});
