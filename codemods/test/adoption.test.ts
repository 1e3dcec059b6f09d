import { join } from 'node:path';
import { Project } from 'ts-morph';
import { beforeAll, describe, expect, it } from 'vitest';
import { wrapRunners, type WrapRunnersOptions, type WrapResult } from '../src/index.js';
import { argumentShare, compilerOptions, fixtures } from './helpers.js';
import { FIXTURES, tableRow, type TableRow } from './table.js';

// The targets, measured on the realistic module of each shape real bots use (see the README table).
function wrap(paths: readonly string[], options: WrapRunnersOptions = {}): WrapResult {
  const project = new Project({ compilerOptions: { ...compilerOptions, allowJs: true }, skipAddingFilesFromTsConfig: true });
  for (const path of paths) project.addSourceFileAtPath(path);
  return wrapRunners(project, { files: paths, ...options });
}

/** Runners found (wrapped, or refused for a reason other than being a helper), and how many were wrapped. */
function counts(result: WrapResult, file: string): { found: number; wrapped: number } {
  const mine = result.report.findings.filter((f) => f.file.endsWith(file) && f.code !== 'not_exported' && f.code !== 'no_runners');
  return { found: mine.length, wrapped: mine.filter((f) => f.kind === 'wrapped').length };
}

const results: Record<string, WrapResult> = {};
beforeAll(() => {
  results.docblock = wrap([join(fixtures, 'docblock/skills.js')]);
  results.wrapped = wrap([join(fixtures, 'wrapped/commands.js'), join(fixtures, 'wrapped/world.js')], { unwrap: ['throttled'] });
  results.wrappedDefault = wrap([join(fixtures, 'wrapped/commands.js'), join(fixtures, 'wrapped/world.js')]);
});

describe('the shapes real bots use, against the targets', () => {
  it('docblock in the body: every exported async skill wrapped, at most 10 % of arguments z.unknown()', () => {
    const { found, wrapped } = counts(results.docblock!, 'skills.js');
    expect({ found, wrapped }).toEqual({ found: 26, wrapped: 26 });
    const share = argumentShare(results.docblock!);
    // The one z.unknown() is `@param {*} value - anything JSON can hold`: documented as any value, on purpose.
    expect(share).toEqual({ args: 54, unknown: 1 });
    expect(share.unknown / share.args).toBeLessThanOrEqual(0.1);
  });

  it('docblock descriptions reach the capability and its arguments', () => {
    const text = results.docblock!.changes.find((c) => c.kind === 'capabilities')!.after;
    expect(text).toContain("description: 'Craft an item that needs no crafting table, using the inventory grid.',");
    expect(text).toContain("itemName: z.string().describe('the item name to craft.'),");
    expect(text).toContain("slot: z.enum(['hand', 'off-hand', 'head', 'torso', 'legs', 'feet']).describe('where it goes.').default('hand'),");
    expect(text).toContain("foodName: z.string().nullable().describe('the food to eat; null picks one.').optional(),");
    expect(text).toContain("onlyTheseItems: z.array(z.string()).describe('names to list; all items when empty.').optional(),");
    expect(text).toContain("options: z.strictObject({ keepGoing: z.boolean().optional() }).describe('keepGoing hits until it dies').optional(),");
  });

  it('types what JSDoc leaves silent from how the body uses it', () => {
    const text = results.docblock!.changes.find((c) => c.kind === 'capabilities')!.after;
    const describe = /describeBlockCapability[\s\S]*?inputSchema: (z\.strictObject\(\{[\s\S]*?\n {2}\}\))/.exec(text)?.[1];
    expect(describe).toBe('z.strictObject({\n    x: z.number(),\n    y: z.number(),\n    z: z.number(),\n  })');
  });

  it('wrapped performs: every entry with --unwrap for the unknown wrapper; without it, only that wrapper is refused, naming the flag', () => {
    expect(counts(results.wrapped!, 'commands.js')).toEqual({ found: 20, wrapped: 20 });
    const plain = counts(results.wrappedDefault!, 'commands.js');
    expect(plain).toEqual({ found: 20, wrapped: 18 });
    expect(plain.wrapped / plain.found).toBeGreaterThanOrEqual(0.85);
    const refused = results.wrappedDefault!.report.findings.filter((f) => f.kind === 'skipped' && f.code === 'no_runner_call');
    expect(refused.map((f) => f.symbol)).toEqual(['commandList[!shout]', 'commandList[!wave]']);
    expect(refused[0]!.reason).toContain('run with --unwrap throttled');
  });

  it('the command table types the untyped helpers it calls', () => {
    const { found, wrapped } = counts(results.wrapped!, 'world.js');
    expect({ found, wrapped }).toEqual({ found: 13, wrapped: 13 });
    expect(argumentShare(results.wrapped!).unknown).toBe(0);
  });
});

// The same targets on the table the bench prints (test/table.ts), so the printed table and the pinned one cannot drift.
describe('the issue targets on the codemod table', () => {
  const spec = (shape: RegExp) => FIXTURES.find((f) => shape.test(f.shape))!;
  it.each([
    ['docblock in the body: ≥ 95 % wrapped, ≤ 10 % z.unknown()', /^docblock/, (r: TableRow) => r.wrapped / r.found >= 0.95 && r.unknownShare <= 0.1],
    ['wrapped perform: ≥ 90 % of entries', /^wrapped perform/, (r: TableRow) => r.wrapped / r.found >= 0.9],
    ['JSON-Schema leaves: ≥ 90 % typed', /^JSON-Schema/, (r: TableRow) => r.typed / r.args >= 0.9 && r.wrapped === r.found],
    ['a dispatcher reading parameters: ≥ 80 % of cases', /handing the action/, (r: TableRow) => r.wrapped / r.found >= 0.8],
    ['a directory of script-style skills: ≥ 90 %', /skill library/, (r: TableRow) => r.wrapped / r.found >= 0.9 && r.found >= 40],
  ])('%s, and at least three of its capabilities run through the executor', (_name, shape, meets) => {
    const row = tableRow(spec(shape));
    expect(meets(row), JSON.stringify(row)).toBe(true);
    expect(row.run).toBeGreaterThanOrEqual(3);
  });
});
