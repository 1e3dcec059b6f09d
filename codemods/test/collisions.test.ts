import { describe, expect, it } from 'vitest';
import { wrapRunners } from '../src/index.js';
import { memoryProject } from './helpers.js';

const CHAT = (who: string) => `export async function chat(bot: { chat(m: string): void }, message: string): Promise<void> {\n  bot.chat('${who}: ' + message);\n}\n`;

describe('names, test files and types that do not resolve', () => {
  it('qualifies a verb another directory already has by the directory, and still refuses one in the same directory', () => {
    const files = { '/p/packages/tools/chat.ts': CHAT('tools'), '/p/packages/social/chat.ts': CHAT('social'), '/p/packages/social/talk.ts': CHAT('talk') };
    const { report } = wrapRunners(memoryProject(files), { files: Object.keys(files) });
    const verbs = report.findings.filter((f) => f.kind === 'wrapped').map((f) => `${f.file}:${f.verb}`);
    expect(verbs).toEqual(['/p/packages/social/chat.ts:chat', '/p/packages/tools/chat.ts:tools_chat']);
    const refused = report.findings.find((f) => f.code === 'name_collision');
    expect(refused).toMatchObject({ file: '/p/packages/social/talk.ts', reason: expect.stringContaining('verb chat is already provided by chat (chat.ts:1)') });
  });

  it('skips test files (__tests__/, *.test.*, *.spec.*) unless asked to include them', () => {
    const files = { '/p/src/chat.ts': CHAT('a'), '/p/src/__tests__/helpers.ts': CHAT('b'), '/p/src/talk.test.ts': CHAT('c'), '/p/src/talk.spec.mts': CHAT('d') };
    const { report } = wrapRunners(memoryProject(files), { files: Object.keys(files) });
    expect(report.findings.filter((f) => f.code === 'test_file').map((f) => f.file).sort()).toEqual(['/p/src/__tests__/helpers.ts', '/p/src/talk.spec.mts', '/p/src/talk.test.ts']);
    const included = wrapRunners(memoryProject(files), { files: Object.keys(files), includeTests: true }).report;
    expect(included.findings.filter((f) => f.code === 'test_file')).toEqual([]);
  });

  it('names a leaf context type that did not resolve and says to install the dependencies', () => {
    const text = `import type { LeafContext } from '@agents/runtime';\nexport class WaveLeaf {\n  static spec = { name: 'wave' };\n  async run(ctx: LeafContext, args: { times: number }): Promise<{ status: string }> {\n    return { status: 'success' };\n  }\n}\n`;
    const { report } = wrapRunners(memoryProject({ '/p/wave.ts': text }), { files: ['/p/wave.ts'] });
    expect(report.findings[0]).toMatchObject({
      code: 'unmappable_context',
      reason: "the leaf context type LeafContext did not resolve (its declaration is missing: install the project's dependencies, e.g. npm install, and run again)",
    });
  });
});
