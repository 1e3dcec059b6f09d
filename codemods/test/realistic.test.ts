import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Project } from 'ts-morph';
import { beforeAll, describe, expect, it } from 'vitest';
import { wrapRunners, type Finding, type WrapResult } from '../src/index.js';
import { compilerOptions, fixture, fixtures } from './helpers.js';

const source = join(fixtures, 'realistic/src/bot/actions.ts');
const generated = join(fixtures, 'realistic/src/bot/actions.capabilities.ts');

let result: WrapResult;
let text = '';
const find = (symbol: string): Finding | undefined => result.report.findings.find((f) => f.symbol === symbol);

beforeAll(() => {
  // A real-FS project so `import type { Bot } from 'mineflayer'` resolves to mineflayer's own types.
  const project = new Project({ compilerOptions, skipAddingFilesFromTsConfig: true });
  project.addSourceFileAtPath(source);
  result = wrapRunners(project, { files: [source] });
  text = result.changes.find((c) => c.path === generated)?.after ?? '';
});

describe('a realistic mineflayer bot module with the three shapes mixed', () => {
  it('matches the expected output fixture', () => {
    const expectedPath = join(fixtures, 'realistic/expected/actions.capabilities.ts');
    if (process.env.UPDATE_FIXTURES === '1') {
      mkdirSync(join(fixtures, 'realistic/expected'), { recursive: true });
      writeFileSync(expectedPath, text);
    }
    expect(text).toBe(fixture('realistic/expected/actions.capabilities.ts'));
  });

  it('wraps the runners of all three shapes', () => {
    const wrapped = result.report.findings.filter((f) => f.kind === 'wrapped').map((f) => `${f.shape}:${f.verb}`);
    expect(wrapped).toEqual([
      'function:craft_item',
      'function:go_to_position',
      'function:dig_block',
      'function:equip_item',
      'function:build_structure',
      'function:send_chat',
      'function:eat_best_food',
      'dispatcher:smelt',
      'dispatcher:sleep',
      'leaf:collect_drops',
      'leaf:look_around',
      'leaf:build_shelter',
    ]);
  });

  it('resolves the real mineflayer Bot as the body type and a real Vec3 through vec3', () => {
    expect(text).toContain("import type { Bot } from 'mineflayer';");
    expect(text).toContain("import { Vec3 } from 'vec3';");
    expect(text).toContain('target: z.strictObject({ x: z.number(), y: z.number(), z: z.number() }).transform(({ x, y, z }) => new Vec3(x, y, z))');
    expect(text).toContain('run: (ctx: RunContext<Bot>, args) =>');
  });

  it('handles default params: literal defaults become .default(), computed ones .optional()', () => {
    expect(text).toContain('quantity: z.number().default(1)');
    expect(text).toContain('range: z.number().optional()'); // `range = DEFAULT_RANGE`: the runner applies it
    expect(text).toContain("destination: z.enum(['hand', 'off-hand', 'head', 'torso']).default('hand')");
    expect(text).toContain('minimumSaturation: z.number().nullable().optional()');
  });

  it('flattens a destructured parameter into the args object and passes it whole', () => {
    expect(text).toMatch(/name: 'dig_block',[\s\S]*?x: z\.number\(\),\s+y: z\.number\(\),\s+z: z\.number\(\),\s+forceLook: z\.boolean\(\)\.optional\(\)/);
    expect(text).toContain('await digBlock(ctx.body, args);');
  });

  it('maps a loosely typed action (action.args.x) onto the private runner parameter types', () => {
    expect(text).toMatch(/input: z\.string\(\),\s+count: z\.number\(\)\.default\(1\)/);
    expect(text).toContain("botActionExecutorFor(ctx.body).executeAction({ type: 'smelt', args })");
    expect(text).toContain("aliases: ['go_to_bed']");
  });

  it('ignores methods that are not runners and reports functions that are not', () => {
    expect(text).not.toContain('stats');
    expect(find('countItem')).toMatchObject({ kind: 'skipped', code: 'not_async' });
    expect(find('findItem')).toMatchObject({ kind: 'skipped', code: 'not_exported' });
    expect(find('waitForTicks')).toMatchObject({ kind: 'skipped', code: 'not_exported' });
    expect(find('createLeaves')).toBeUndefined(); // takes no bot: not a candidate at all
  });

  it('reports a verb collision instead of guessing, keeping the first runner', () => {
    expect(find('BotActionExecutor.executeAction#dig_block')).toMatchObject({ kind: 'unsafe', code: 'name_collision' });
    expect(text.match(/name: 'dig_block'/g)).toHaveLength(1);
    expect(text).toContain('/* sinew-codemod: BotActionExecutor.executeAction#dig_block (line 151) not wrapped: verb dig_block is already provided by digBlock');
  });

  it('leaves a marked comment and a report entry for every unsafe rewrite', () => {
    const unsafe = result.report.findings.filter((f) => f.kind === 'unsafe').map((f) => `${f.symbol}:${f.code}`);
    expect(unsafe).toEqual([
      'placeBlock:overloaded',
      'dropAll:spread_args',
      'BotActionExecutor.executeAction#dig_block:name_collision',
      'BotActionExecutor.executeAction#pillar_up:unmappable_args',
      'BotActionExecutor.executeAction#ActionKind.Flee:non_literal_case',
      'ScriptedActions.executeAction:dynamic_dispatch',
    ]);
    for (const symbol of ['placeBlock', 'dropAll', 'pillar_up', 'ActionKind.Flee', 'ScriptedActions.executeAction']) {
      expect(text).toMatch(new RegExp(`/\\* sinew-codemod: [^*]*${symbol.replace('.', '\\.')}`));
    }
  });

  it('refuses parameter types a planner cannot send, with the reason', () => {
    expect(find('attackEntity')).toMatchObject({ kind: 'skipped', code: 'unsupported_type' });
    expect(find('attackEntity')?.reason).toMatch(/args\.target \(Entity\) has behaviour/);
  });

  it('wraps a leaf whose context is richer than a RunContext through the context file, the unmapped field throwing its name', () => {
    expect(find('ShelterLeaf.run')).toMatchObject({ kind: 'wrapped', shape: 'leaf' });
    expect(text).toContain('shelterLeafFor(ctx.body).run(toShelterLeafContext(ctx), args)');
    const context = result.changes.find((c) => c.kind === 'context')!.after;
    expect(context).toMatch(/export function toShelterLeafContext\(ctx: RunContext<Bot>\): Parameters<ShelterLeaf\['run'\]>\[0\] \{\s+return \{\s+bot: ctx\.body,\s+get snapshot\(\): never \{\s+return unmapped\('snapshot', 'toShelterLeafContext'\);/);
  });

  it('marks an any-typed leaf input as z.unknown() with a comment', () => {
    expect(text).toContain('inputSchema: z.unknown() /* sinew-codemod: args is typed any; replace z.unknown() with its real schema */');
  });

  it('exports the one class that was not exported and changes nothing else in the source', () => {
    const edit = result.changes.find((c) => c.path === source);
    expect(edit?.kind).toBe('export');
    expect(edit?.after.replace('export class LookAroundLeaf', 'class LookAroundLeaf')).toBe(edit?.before);
  });
});
