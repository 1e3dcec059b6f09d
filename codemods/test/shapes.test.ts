import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wrapRunners, type WrapResult } from '../src/index.js';
import { fixture, fixtures, memoryProject } from './helpers.js';

const SHAPES = ['function', 'dispatcher', 'leaf'] as const;
const update = process.env.UPDATE_FIXTURES === '1';

/** The shape fixtures on the in-memory file system, under /project/src. */
function shapeProject() {
  return memoryProject(Object.fromEntries(['body', ...SHAPES].map((name) => [`/project/src/${name}.ts`, fixture(`shapes/${name}.ts`)])));
}

function expectFixture(result: WrapResult, path: string, expectedName: string): void {
  const change = result.changes.find((c) => c.path === path);
  expect(change, `no change for ${path}`).toBeDefined();
  const expectedPath = join(fixtures, 'shapes/expected', expectedName);
  if (update) {
    mkdirSync(join(fixtures, 'shapes/expected'), { recursive: true });
    writeFileSync(expectedPath, change!.after);
  }
  expect(change!.after).toBe(fixture(`shapes/expected/${expectedName}`));
}

describe('fixture pairs per shape (input → expected output)', () => {
  for (const shape of SHAPES) {
    it(`wraps the ${shape} shape exactly as the expected fixture`, () => {
      const result = wrapRunners(shapeProject(), { files: [`/project/src/${shape}.ts`] });
      expectFixture(result, `/project/src/${shape}.capabilities.ts`, `${shape}.capabilities.ts`);
    });
  }

  it('writes a registry that registers every capability of every file', () => {
    const result = wrapRunners(shapeProject(), { files: SHAPES.map((s) => `/project/src/${s}.ts`) });
    expectFixture(result, '/project/src/sinew.registry.ts', 'sinew.registry.ts');
  });
});

describe('function shape', () => {
  const result = wrapRunners(shapeProject(), { files: ['/project/src/function.ts'] });
  const text = result.changes.find((c) => c.path === '/project/src/function.capabilities.ts')!.after;

  it('names the verb snake_case from the function name', () => {
    expect(text).toContain("name: 'craft_item'");
    expect(text).toContain("name: 'go_to'");
  });

  it('derives defaults, enums, optional params, nested objects and arrays from the parameter types', () => {
    expect(text).toContain('quantity: z.number().default(1)');
    expect(text).toContain("mode: z.enum(['walk', 'sprint']).default('walk')");
    expect(text).toContain('range: z.number().optional()');
    expect(text).toMatch(/target: z\.strictObject\(\{\s+x: z\.number\(\),\s+y: z\.number\(\),\s+z: z\.number\(\),\s+\}\)/);
    expect(text).toContain('names: z.array(z.string())');
  });

  it('marks unknown parameters with a sinew-codemod comment', () => {
    expect(text).toContain('extra: z.unknown() /* sinew-codemod: args.extra is typed unknown');
  });

  it('adapts { success, error }, boolean and void results', () => {
    expect(text).toContain("fromSuccess(await craftItem(ctx.body, args.itemName, args.quantity), 'craftItem', attempt)");
    expect(text).toContain("fromBoolean(await goTo(ctx.body, args.target, args.mode, args.range), 'goTo', attempt)");
    expect(text).toMatch(/async \(\) => \{\s+await sayHello\(ctx\.body, args\.names, args\.extra\);\s+\}/);
  });

  it('reports synchronous functions and unexported helpers as skipped, rest args as unsafe', () => {
    const bySymbol = Object.fromEntries(result.report.findings.map((f) => [f.symbol, f]));
    expect(bySymbol.isDay).toMatchObject({ kind: 'skipped', code: 'not_async' });
    expect(bySymbol.waitTicks).toMatchObject({ kind: 'skipped', code: 'not_exported' });
    expect(bySymbol.runAll).toMatchObject({ kind: 'unsafe', code: 'spread_args' });
    expect(text).toContain('/* sinew-codemod: runAll (line 32) not wrapped: takes rest/spread arguments');
  });

  it('leaves the source untouched when everything it needs is exported', () => {
    expect(result.changes.some((c) => c.path === '/project/src/function.ts')).toBe(false);
  });
});

describe('dispatcher shape', () => {
  const result = wrapRunners(shapeProject(), { files: ['/project/src/dispatcher.ts'] });
  const text = result.changes.find((c) => c.path === '/project/src/dispatcher.capabilities.ts')!.after;

  it('takes the verb from the case label and fall-through labels as aliases', () => {
    expect(text).toContain("name: 'dig_block'");
    expect(text).toContain("aliases: ['mine']");
  });

  it('reads each case input from the discriminated union member and dispatches through executeAction', () => {
    expect(text).toMatch(/item: z\.string\(\),\s+count: z\.number\(\)\.optional\(\)/);
    expect(text).toContain("actionExecutorFor(ctx.body).executeAction({ type: 'craft', ...args })");
    expect(text).toContain("actionExecutorFor(ctx.body).executeAction({ type: 'say', ...args })");
  });

  it('exports the class (the only change to the source)', () => {
    const source = result.changes.find((c) => c.path === '/project/src/dispatcher.ts');
    expect(source?.kind).toBe('export');
    expect(source?.after).toContain('export class ActionExecutor');
    expect(source?.after.replace('export class ActionExecutor', 'class ActionExecutor')).toBe(source?.before);
  });
});

describe('files', () => {
  it('reports files without runners and generated files passed as inputs as skipped', () => {
    const project = shapeProject();
    project.createSourceFile('/project/src/old.capabilities.ts', '// anything\n');
    const result = wrapRunners(project, { files: ['/project/src/body.ts', '/project/src/old.capabilities.ts'] });
    expect(result.report.findings.map((f) => `${f.symbol}:${f.code}`)).toEqual(['body.ts:no_runners', 'old.capabilities.ts:generated_file']);
  });
});

describe('leaf shape', () => {
  const result = wrapRunners(shapeProject(), { files: ['/project/src/leaf.ts'] });
  const text = result.changes.find((c) => c.path === '/project/src/leaf.capabilities.ts')!.after;

  it('takes name and description from spec and maps the leaf context from the RunContext', () => {
    expect(text).toContain("name: 'send_chat'");
    expect(text).toContain("description: 'Says a message in chat.'");
    expect(text).toContain('.run({ bot: ctx.body, abortSignal: ctx.signal }, args)');
    expect(text).toContain("fromLeaf(await chatLeafFor(ctx.body).run(");
  });
});
