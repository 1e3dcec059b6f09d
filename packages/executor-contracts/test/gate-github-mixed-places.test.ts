import { describe, expect, it } from 'vitest';
import { checkVerbs, formatVerbReport, type Manifest } from '../src/index.js';
import { manifestVersion as version } from './manifest-version.js';

// A verb found both in a file and in a source without one (an LLM's JSON answer): the GitHub annotations point at the
// file only; the place without a file is not a second, unanchored annotation. The text form still lists both places.

const manifest: Manifest = { manifestVersion: 1, capabilities: [{ name: 'dig_block', aliases: [], versions: [version('1.2.0')] }] };

describe('formatVerbReport for a verb found in a file and in a fileless source', () => {
  it('github: one annotation, at the file', () => {
    const report = checkVerbs({ manifest, plannerVerbs: [{ verb: 'dgi', source: 'llm.json' }, { verb: 'dgi', source: 'scan', file: 'plans/m.ts', line: 2 }, 'dig_block'] });
    const annotations = formatVerbReport(report, 'github').split('\n').filter((line) => line.startsWith('::'));
    expect(annotations).toHaveLength(1);
    expect(annotations[0]).toMatch(/^::error file=plans\/m\.ts,line=2,title=sinew-verbs unknown_verb::planner verb "dgi"/);
  });

  it('text: both places, each once', () => {
    const report = checkVerbs({ manifest, plannerVerbs: [{ verb: 'dgi', source: 'llm.json' }, { verb: 'dgi', source: 'scan', file: 'plans/m.ts', line: 2 }, 'dig_block'] });
    const text = formatVerbReport(report, 'text');
    expect(text).toContain('      at llm.json\n      at plans/m.ts:2');
  });
});
