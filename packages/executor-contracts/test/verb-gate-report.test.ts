import { describe, expect, it } from 'vitest';
import { checkVerbs, formatVerbReport, type Manifest, type VerbReport } from '../src/index.js';
import { manifestVersion as version } from './manifest-version.js';

// One gate report over a registry with every kind of finding, pinned whole: which findings, in which order,
// with which words, and how each output format prints them.

const manifest: Manifest = {
  manifestVersion: 1,
  capabilities: [
    { name: 'till_soil', aliases: [], versions: [version('0.1.0', { acceptance: 'unverified' })] },
    {
      name: 'fish',
      aliases: ['angle'],
      versions: [
        version('2.0.0', { acceptance: 'unverified', unverifiedReason: 'bobber: not seen' }),
        version('1.10.0', { acceptance: 'unverified', unverifiedReason: 'old\r\n100%' }),
        version('1.9.0'),
      ],
    },
    { name: 'shear', aliases: [], versions: [version('1.0.0')] },
  ],
};
const place = { source: 'scan', file: 'plans/a,b.ts', line: 3, column: 5 };
const scanned = { verb: 'fsh', ...place };
// Built inside each test (not at import): Stryker picks the tests to rerun from what each test reached.
const gateReport = (): VerbReport => checkVerbs({
  manifest,
  plannerVerbs: ['angle', scanned, scanned, { verb: 'fsh', source: 'scan', file: 'x.ts', line: 9 }, { verb: 'fsh', source: 'scan', file: 'y.ts' }, 'fish', 'zzz_top', { verb: 'zzz_top', source: 'llm.json' }, 'angle'],
});
const unknownFsh = 'planner verb "fsh" has no capability (FM-01: the bot would silently do nothing); did you mean "fish"?';
const unknownZzz = 'planner verb "zzz_top" has no capability (FM-01: the bot would silently do nothing)';

describe('checkVerbs', () => {
  it('counts, lists and orders the findings: by kind, then verb, then version', () => {
    const report = gateReport();
    expect({ ...report, findings: report.findings.map((f) => [f.kind, f.severity, f.verb, f.version ?? '-']) }).toEqual({
      ok: false,
      errors: 5,
      warnings: 3,
      registryVerbs: ['fish', 'shear', 'till_soil'],
      plannerVerbs: ['angle', 'fish', 'fsh', 'zzz_top'],
      findings: [
        ['unknown_verb', 'error', 'fsh', '-'],
        ['unknown_verb', 'error', 'zzz_top', '-'],
        ['unverified_acceptance', 'error', 'fish', '1.10.0'],
        ['unverified_acceptance', 'error', 'fish', '2.0.0'],
        ['unverified_acceptance', 'error', 'till_soil', '0.1.0'],
        ['alias_use', 'warning', 'angle', '-'],
        ['registry_only', 'warning', 'shear', '-'],
        ['registry_only', 'warning', 'till_soil', '-'],
      ],
    });
  });

  it('keeps where each verb came from, a bare string as the planner', () => {
    const report = gateReport();
    expect(report.findings[1]).toEqual({ kind: 'unknown_verb', severity: 'error', verb: 'zzz_top', message: unknownZzz, locations: [{ source: 'planner' }, { source: 'llm.json' }] });
    expect(report.findings[0]).toMatchObject({ suggestions: ['fish'], locations: [place, place, { file: 'x.ts' }, { file: 'y.ts' }] });
    expect(report.findings[5]).toEqual({
      kind: 'alias_use',
      severity: 'warning',
      verb: 'angle',
      canonical: 'fish',
      message: '"angle" is a deprecated alias of "fish"; emit "fish" instead',
      locations: [{ source: 'planner' }, { source: 'planner' }],
    });
    expect(report.findings[6]).toEqual({ kind: 'registry_only', severity: 'warning', verb: 'shear', message: 'capability "shear" is registered but no planner emits it', locations: [] });
    expect(report.findings[4]).toEqual({
      kind: 'unverified_acceptance',
      severity: 'error',
      verb: 'till_soil',
      version: '0.1.0',
      message: 'till_soil@0.1.0 has no real acceptance check (unverified: no reason given)',
      locations: [],
    });
  });

  it('suggests every close name, quoted and comma-separated', () => {
    const close = checkVerbs({ manifest: { manifestVersion: 1, capabilities: [{ name: 'fish', aliases: ['fist'], versions: [version('1.0.0')] }] }, plannerVerbs: ['fis'] });
    expect(close.findings[0]!.message).toBe('planner verb "fis" has no capability (FM-01: the bot would silently do nothing); did you mean "fish", "fist"?');
  });
});

describe('formatVerbReport', () => {
  it('text: one line per finding, each distinct place once, the summary last', () => {
    const report = gateReport();
    expect(formatVerbReport(report, 'text')).toBe(
      [
        `  error   [unknown_verb] ${unknownFsh}`,
        '      at plans/a,b.ts:3:5',
        '      at x.ts:9',
        '      at y.ts',
        `  error   [unknown_verb] ${unknownZzz}`,
        '      at planner',
        '      at llm.json',
        '  error   [unverified_acceptance] fish@1.10.0 has no real acceptance check (unverified: old\r\n100%)',
        '  error   [unverified_acceptance] fish@2.0.0 has no real acceptance check (unverified: bobber: not seen)',
        '  error   [unverified_acceptance] till_soil@0.1.0 has no real acceptance check (unverified: no reason given)',
        '  warning [alias_use] "angle" is a deprecated alias of "fish"; emit "fish" instead',
        '      at planner',
        '  warning [registry_only] capability "shear" is registered but no planner emits it',
        '  warning [registry_only] capability "till_soil" is registered but no planner emits it',
        'verb gate FAILED: 4 planner verb(s), 3 registered verb(s), 5 error(s), 3 warning(s)',
        '',
      ].join('\n'),
    );
  });

  it('github: one annotation per distinct location with a file (escaped), else one without, the summary last', () => {
    const report = gateReport();
    const lines = formatVerbReport(report, 'github').split('\n');
    expect(lines.slice(0, 5)).toEqual([
      `::error file=plans/a%2Cb.ts,line=3,col=5,title=sinew-verbs unknown_verb::${unknownFsh}`,
      `::error file=x.ts,line=9,title=sinew-verbs unknown_verb::${unknownFsh}`,
      `::error file=y.ts,title=sinew-verbs unknown_verb::${unknownFsh}`,
      `::error title=sinew-verbs unknown_verb::${unknownZzz}`,
      '::error title=sinew-verbs unverified_acceptance::fish@1.10.0 has no real acceptance check (unverified: old%0D%0A100%25)',
    ]);
    expect(lines.slice(-3)).toEqual(['::warning title=sinew-verbs registry_only::capability "till_soil" is registered but no planner emits it', 'verb gate FAILED: 4 planner verb(s), 3 registered verb(s), 5 error(s), 3 warning(s)', '']);
    expect(lines).toHaveLength(12);
  });
});
