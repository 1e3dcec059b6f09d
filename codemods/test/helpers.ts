import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Project, ts, type Diagnostic } from 'ts-morph';
import type { FileChange, WrapResult } from '../src/index.js';

export const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '../..');
export const fixtures = join(here, 'fixtures');

/** Compiler options of the repo (strict, noUncheckedIndexedAccess) with the contracts mapped to their source. */
export const compilerOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts'],
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  noUncheckedIndexedAccess: true,
  esModuleInterop: true,
  skipLibCheck: true,
  types: ['node'],
  baseUrl: repoRoot,
  paths: { '@sinew/executor-contracts': ['packages/executor-contracts/src/index.ts'] },
};

/** A project on the in-memory file system holding `files` (path → text) under /project. */
export function memoryProject(files: Record<string, string>): Project {
  const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true, target: ts.ScriptTarget.ES2022 } });
  for (const [path, text] of Object.entries(files)) project.createSourceFile(path, text);
  return project;
}

/** Reads a fixture file. */
export function fixture(path: string): string {
  return readFileSync(join(fixtures, path), 'utf8');
}

/** Writes changes into a project's file system (what the CLI does on disk). */
export function apply(project: Project, changes: readonly FileChange[]): void {
  for (const change of changes) {
    project.getFileSystem().writeFileSync(change.path, change.after);
    const existing = project.getSourceFile(change.path);
    if (existing) existing.replaceWithText(change.after);
  }
}

/**
 * Type-checks generated files with the TypeScript compiler against the real @sinew/executor-contracts
 * source: the sources are read from disk, the changed files are overlaid in memory.
 */
export function typecheck(sources: readonly string[] | Readonly<Record<string, string>>, changes: readonly FileChange[]): string[] {
  const project = new Project({ compilerOptions, skipAddingFilesFromTsConfig: true });
  if (Array.isArray(sources)) for (const source of sources) project.addSourceFileAtPath(source);
  else for (const [path, text] of Object.entries(sources)) project.createSourceFile(path, text, { overwrite: true });
  for (const change of changes) project.createSourceFile(change.path, change.after, { overwrite: true });
  const diagnostics: Diagnostic[] = project.getPreEmitDiagnostics();
  return diagnostics.map((d) => `${d.getSourceFile()?.getFilePath() ?? '?'}:${d.getLineNumber() ?? 0} ${String(ts.flattenDiagnosticMessageText(d.getMessageText() as string | ts.DiagnosticMessageChain, '\n'))}`);
}

/** The argument lines of every generated input schema, and how many are z.unknown(). */
export function argumentShare(result: WrapResult): { args: number; unknown: number } {
  const text = result.changes.filter((c) => c.kind === 'capabilities').map((c) => c.after).join('\n');
  const schemas = [...text.matchAll(/inputSchema: (z\.strictObject\(\{[\s\S]*?\n {2}\}\)|z\.strictObject\(\{\}\))/g)].map((m) => m[1]!);
  const lines = schemas.flatMap((s) => s.split('\n').filter((line) => /^ {4}['\w]+: /.test(line)));
  return { args: lines.length, unknown: lines.filter((line) => line.includes('z.unknown()')).length };
}
