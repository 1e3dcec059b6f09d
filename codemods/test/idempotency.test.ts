import { describe, expect, it } from 'vitest';
import { wrapRunners } from '../src/index.js';
import { apply, fixture, memoryProject } from './helpers.js';

const SHAPES = ['function', 'dispatcher', 'leaf'];
const files = SHAPES.map((s) => `/project/src/${s}.ts`);

function project() {
  return memoryProject(Object.fromEntries(['body', ...SHAPES].map((name) => [`/project/src/${name}.ts`, fixture(`shapes/${name}.ts`)])));
}

describe('idempotency', () => {
  it('changes nothing on a second run over its own output', () => {
    const p = project();
    const first = wrapRunners(p, { files });
    expect(first.changes.length).toBe(5);
    apply(p, first.changes);
    const second = wrapRunners(p, { files });
    expect(second.changes).toEqual([]);
    expect(second.report.wrapped).toBe(first.report.wrapped);
  });

  it('never treats generated files as inputs, even when they are passed in', () => {
    const p = project();
    apply(p, wrapRunners(p, { files }).changes);
    p.addSourceFilesAtPaths('/project/src/**/*.ts');
    const all = p.getSourceFiles().map((f) => f.getFilePath());
    expect(all).toContain('/project/src/function.capabilities.ts');
    expect(wrapRunners(p, { files: all }).changes).toEqual([]);
  });

  it('regenerates a file it owns when the source gains a runner', () => {
    const p = project();
    apply(p, wrapRunners(p, { files }).changes);
    p.getSourceFileOrThrow('/project/src/function.ts').addStatements('export async function wave(bot: Bot, times: number): Promise<void> {}');
    const next = wrapRunners(p, { files });
    expect(next.changes.map((c) => c.path).sort()).toEqual(['/project/src/function.capabilities.ts', '/project/src/sinew.registry.ts']);
    expect(next.changes[0]!.after).toContain("name: 'wave'");
  });

  it('leaves a hand-edited generated file alone, reports it, and keeps registering its capabilities', () => {
    const p = project();
    apply(p, wrapRunners(p, { files }).changes);
    const path = '/project/src/function.capabilities.ts';
    const edited = p.getFileSystem().readFileSync(path).replace("acceptance: unverified('wrapped from craftItem", "acceptance: unverified('edited: craftItem");
    p.getFileSystem().writeFileSync(path, edited);
    p.getSourceFileOrThrow('/project/src/function.ts').addStatements('export async function wave(bot: Bot): Promise<void> {}');
    const next = wrapRunners(p, { files });
    expect(next.changes.find((c) => c.path === path)).toBeUndefined();
    expect(next.report.findings.find((f) => f.file === path)).toMatchObject({ kind: 'skipped', code: 'hand_edited' });
    expect(next.changes).toEqual([]); // the registry still imports the same exports, so it is unchanged too
  });

  it('treats a file whose header line was deleted as the user’s own', () => {
    const p = project();
    apply(p, wrapRunners(p, { files }).changes);
    const path = '/project/src/leaf.capabilities.ts';
    const owned = p.getFileSystem().readFileSync(path).split('\n').slice(1).join('\n');
    p.getFileSystem().writeFileSync(path, owned);
    const next = wrapRunners(p, { files });
    expect(next.changes).toEqual([]);
    expect(next.report.findings.find((f) => f.file === path)).toMatchObject({ kind: 'skipped', code: 'not_generated' });
    expect(p.getFileSystem().readFileSync(path)).toBe(owned);
  });

  it('keeps registering capability files of earlier runs when run on another file', () => {
    const p = project();
    apply(p, wrapRunners(p, { files: ['/project/src/function.ts'] }).changes);
    const second = wrapRunners(p, { files: ['/project/src/leaf.ts'] });
    const registry = second.changes.find((c) => c.kind === 'registry')!.after;
    expect(registry).toContain("import { craftItemCapability, goToCapability, sayHelloCapability } from './function.capabilities.js';");
    expect(registry).toContain("import { sendChatCapability } from './leaf.capabilities.js';");
  });

  it('does not overwrite a registry file it did not write', () => {
    const p = memoryProject({ '/project/src/body.ts': fixture('shapes/body.ts'), '/project/src/leaf.ts': fixture('shapes/leaf.ts') });
    p.getFileSystem().writeFileSync('/project/src/sinew.registry.ts', 'export const mine = 1;\n');
    const result = wrapRunners(p, { files: ['/project/src/leaf.ts'] });
    expect(result.changes.map((c) => c.path)).toEqual(['/project/src/leaf.capabilities.ts']);
    expect(result.report.findings.find((f) => f.code === 'not_generated')?.file).toBe('/project/src/sinew.registry.ts');
  });
});
