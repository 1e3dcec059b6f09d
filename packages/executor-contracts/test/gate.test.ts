import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  accepted,
  CapabilityRegistry,
  checkVerbs,
  defineCapability,
  formatVerbReport,
  locateVerb,
  scanVerbLiterals,
  unverified,
  VerbReportSchema,
} from '@sinew/executor-contracts';
import { globBase, globToRegExp } from '../src/gate/glob.js';

const cap = (name: string, version = '1.0.0', extra: { aliases?: string[]; stub?: boolean } = {}) =>
  defineCapability({
    name,
    version,
    description: name,
    inputSchema: z.object({}),
    run: async () => {},
    acceptance: extra.stub ? unverified(`${name} stub`) : () => accepted,
    ...(extra.aliases ? { aliases: extra.aliases } : {}),
  });

const manifest = new CapabilityRegistry()
  .register(cap('dig_block', '1.0.0', { aliases: ['mine_block'] }))
  .register(cap('craft_item'))
  .register(cap('chat'))
  .manifest();

describe('checkVerbs', () => {
  it('passes when planner and registry verbs agree', () => {
    const report = checkVerbs({ manifest, plannerVerbs: ['dig_block', 'craft_item', 'chat', 'chat'] });
    expect(report).toEqual({ ok: true, errors: 0, warnings: 0, registryVerbs: ['chat', 'craft_item', 'dig_block'], plannerVerbs: ['chat', 'craft_item', 'dig_block'], findings: [] });
    expect(VerbReportSchema.parse(report)).toEqual(report);
  });

  it('fails on a planner verb without a capability (FM-01), with every location and suggestions', () => {
    const report = checkVerbs({
      manifest,
      plannerVerbs: [
        'dig_block', 'craft_item', 'chat',
        { verb: 'craft_itme', source: 'scan', file: 'src/plan.ts', line: 3, column: 9 },
        { verb: 'craft_itme', source: 'llm.ts#llm' },
      ],
    });
    expect(report.ok).toBe(false);
    expect(report.errors).toBe(1);
    expect(report.findings).toEqual([
      {
        kind: 'unknown_verb',
        severity: 'error',
        verb: 'craft_itme',
        message: expect.stringContaining('planner verb "craft_itme" has no capability (FM-01'),
        suggestions: ['craft_item'],
        locations: [{ source: 'scan', file: 'src/plan.ts', line: 3, column: 9 }, { source: 'llm.ts#llm' }],
      },
    ]);
  });

  it('fails on every capability version whose acceptance is unverified', () => {
    const stubbed = new CapabilityRegistry().register(cap('wave', '1.0.0', { stub: true })).register(cap('wave', '2.0.0')).register(cap('nod', '0.1.0', { stub: true })).manifest();
    const report = checkVerbs({ manifest: stubbed, plannerVerbs: ['wave', 'nod'] });
    expect(report.ok).toBe(false);
    expect(report.findings.map((f) => [f.kind, f.verb, f.version, f.severity])).toEqual([
      ['unverified_acceptance', 'nod', '0.1.0', 'error'],
      ['unverified_acceptance', 'wave', '1.0.0', 'error'],
    ]);
    expect(report.findings[0]?.message).toBe('nod@0.1.0 has no real acceptance check (unverified: nod stub)');
  });

  it('warns on deprecated aliases and registry-only verbs without failing', () => {
    const report = checkVerbs({ manifest, plannerVerbs: ['mine_block', 'chat'] });
    expect(report.ok).toBe(true);
    expect(report.warnings).toBe(2);
    expect(report.findings.map((f) => [f.kind, f.verb, f.canonical])).toEqual([
      ['alias_use', 'mine_block', 'dig_block'],
      ['registry_only', 'craft_item', undefined],
    ]);
  });

  it('orders findings errors first and validates its inputs', () => {
    const report = checkVerbs({ manifest, plannerVerbs: ['zzz', 'mine_block'] });
    expect(report.findings.map((f) => f.kind)).toEqual(['unknown_verb', 'alias_use', 'registry_only', 'registry_only']);
    expect(() => checkVerbs({ manifest: { manifestVersion: 2 } as never, plannerVerbs: [] })).toThrow(z.ZodError);
    expect(() => checkVerbs({ manifest, plannerVerbs: [{ verb: '', source: 'x' }] })).toThrow(z.ZodError);
  });
});

describe('formatVerbReport', () => {
  const report = checkVerbs({
    manifest,
    plannerVerbs: [{ verb: 'dig_blok', source: 'scan', file: 'src/a,b:c.ts', line: 7, column: 3 }, { verb: 'fly', source: 'verbs.json' }, 'mine_block', 'craft_item'],
  });

  it('text: one line per finding with locations, then a verdict', () => {
    const text = formatVerbReport(report, 'text');
    expect(text).toContain('  error   [unknown_verb] planner verb "dig_blok" has no capability');
    expect(text).toContain('      at src/a,b:c.ts:7:3');
    expect(text).toContain('      at verbs.json');
    expect(text).toContain('  warning [alias_use] "mine_block" is a deprecated alias of "dig_block"');
    expect(text.trimEnd().split('\n').at(-1)).toBe('verb gate FAILED: 4 planner verb(s), 3 registered verb(s), 2 error(s), 2 warning(s)');
  });

  it('json: the report itself', () => {
    expect(VerbReportSchema.parse(JSON.parse(formatVerbReport(report, 'json')))).toEqual(report);
  });

  it('github: workflow annotations with escaped properties, file and line where known', () => {
    const lines = formatVerbReport(report, 'github').trimEnd().split('\n');
    expect(lines[0]).toBe(
      '::error file=src/a%2Cb%3Ac.ts,line=7,col=3,title=sinew-verbs unknown_verb::planner verb "dig_blok" has no capability (FM-01: the bot would silently do nothing); did you mean "dig_block"?',
    );
    expect(lines[1]).toMatch(/^::error title=sinew-verbs unknown_verb::planner verb "fly"/);
    expect(lines.filter((l) => l.startsWith('::warning '))).toHaveLength(2);
    expect(lines.at(-1)).toMatch(/^verb gate FAILED/);
  });

  it('github: escapes newlines and percent signs in messages', () => {
    const odd = checkVerbs({ manifest: new CapabilityRegistry().register(defineCapability({ name: 'x', version: '1.0.0', description: 'x', inputSchema: z.object({}), run: async () => {}, acceptance: unverified('100%\nstub') })).manifest(), plannerVerbs: ['x'] });
    expect(formatVerbReport(odd, 'github')).toContain('::x@1.0.0 has no real acceptance check (unverified: 100%25%0Astub)');
  });
});

describe('scanVerbLiterals', () => {
  it('finds type literals in every quote style with line and column, skipping ignored lines', () => {
    const source = [
      "const a = { stepId: '1', type: 'dig_block', args: {} };",
      'steps.push({ type: "craft_item" }, { type:`chat` });',
      "const pkg = { type: 'module' }; // sinew-verbs-ignore",
      "const notAVerb = { type: 'Dig-Block', kind: 'x' };",
      "const subtype = { subtype: 'dig_block' };",
      '{ "stepId": "s1", "type": "chat" }',
    ].join('\n');
    expect(scanVerbLiterals(source, 'plan.ts')).toEqual([
      { verb: 'dig_block', source: 'scan', file: 'plan.ts', line: 1, column: 26 },
      { verb: 'craft_item', source: 'scan', file: 'plan.ts', line: 2, column: 14 },
      { verb: 'chat', source: 'scan', file: 'plan.ts', line: 2, column: 38 },
      { verb: 'chat', source: 'scan', file: 'plan.ts', line: 6, column: 19 },
    ]);
  });

  it('skips JSON Schema type names inside schemas (a sibling key, a properties map, items) but keeps plan steps', () => {
    const source = [
      "const tool = { name: 'dig', parameters: { type: 'object', properties: {",
      "  block: { type: 'string' },",
      "  count: { type: 'integer', minimum: 1 },",
      "  tags: { type: 'array', items: { type: 'string' } },",
      "}, required: ['block'] } };",
      '{ "type": "object", "properties": { "x": { "type": "number" } } }',
      "const steps = [{ stepId: 's1', type: 'object', args: {} }, { type: 'string' }];",
      "const plan = { type: 'dig_block', args: { block: 'dirt' } };",
    ].join('\n');
    expect(scanVerbLiterals(source, 'tools.ts').map((v) => `${v.verb}@${v.line}`)).toEqual(['object@7', 'string@7', 'dig_block@8']);
  });

  it('locates a verb literal for annotations', () => {
    expect(locateVerb('[\n  "chat",\n  "dig_block"\n]', 'dig_block')).toEqual({ line: 3, column: 3 });
    expect(locateVerb("x = 'dig_blocks'", 'dig_block')).toBeUndefined();
  });
});

describe('glob matcher', () => {
  it.each([
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/deep/er/a.ts', true],
    ['src/**/*.ts', 'src/a.js', false],
    ['src/*.ts', 'src/deep/a.ts', false],
    ['**/plans/*.{ts,js}', 'x/y/plans/p.js', true],
    ['**/plans/*.{ts,js}', 'plans/p.ts', true],
    ['src/plan?.ts', 'src/plan1.ts', true],
    ['src/plan[0-2].ts', 'src/plan3.ts', false],
    ['src/plan[!0-2].ts', 'src/plan3.ts', true],
    ['a.b/c+d.ts', 'a.b/c+d.ts', true],
    ['a.b/c+d.ts', 'aXb/c+d.ts', false],
  ])('%s matches %s: %s', (glob, path, expected) => {
    expect(globToRegExp(glob).test(path)).toBe(expected);
  });

  it('walks from the fixed prefix of a glob', () => {
    expect(globBase('src/plans/**/*.ts')).toBe('src/plans');
    expect(globBase('**/*.ts')).toBe('.');
    expect(globBase('src/{a,b}/x.ts')).toBe('src');
    expect(globBase('file.ts')).toBe('.');
  });
});
