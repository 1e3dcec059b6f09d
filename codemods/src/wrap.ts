import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { Node, type Project, type SourceFile } from 'ts-morph';
import { analyzeFile } from './analyze.js';
import type { PlannedCapability } from './shape.js';
import { parseFailureLog } from './failure.js';
import { DEFAULT_UNWRAP } from './shapes/command.js';
import { CONTEXT_BASENAME, renderContextFile, type ContextAdapter } from './context.js';
import { isGenerated, ownership, renderCapabilitiesFile, renderRegistryFile, type RegistryEntry } from './emit.js';
import { GENERATED_FILE, SOURCE_FILE, isJavaScript, languageOf, type Language } from './language.js';
import { isVerb, toCamelCase, toSnakeCase } from './naming.js';
import { buildReport, type Finding, type WrapReport } from './report.js';
import { commandTableHints } from './table-hints.js';

/** Options of `wrapRunners`. Paths are absolute (or relative to the process cwd). */
export interface WrapRunnersOptions {
  /** Files to analyse; default: every source file in the project. */
  readonly files?: readonly string[];
  /** Base of the tree mirrored under `outDir`; default: the common directory of the files. */
  readonly rootDir?: string;
  /** Write generated files here (mirroring `rootDir`) instead of beside each source. */
  readonly outDir?: string;
  /** The registry file; default `sinew.registry.ts` in `outDir`, else in `rootDir`. */
  readonly registryFile?: string;
  /** Where `defineCapability` and friends come from; default `@sinew/executor-contracts`. */
  readonly contractsModule?: string;
  /** Version of every generated capability; default `0.1.0`. */
  readonly version?: string;
  /**
   * Where runners log the reason for a false result: a bot property (`output`, `bot.output`) or a logger method
   * (`console.log`, `logger.warn`: calls during the attempt are collected); default: what each file's code uses; false: none.
   */
  readonly failureLog?: string | false;
  /** Higher-order wrappers to see through besides `runAsAction` (`perform: myWrapper(async (agent, …) => …)`). */
  readonly unwrap?: readonly string[];
  /** Also wrap test files (`__tests__/`, `*.test.*`, `*.spec.*`); default false: they are reported as skipped. */
  readonly includeTests?: boolean;
}

const TEST_FILE = /(^|[\\/])__tests__[\\/]|\.(test|spec)\.[cm]?[jt]sx?$/;

/** A file the codemod writes: new (`before` undefined) or changed. */
export interface FileChange {
  readonly path: string;
  readonly before: string | undefined;
  readonly after: string;
  /** `capabilities`: a generated `*.capabilities.ts`; `registry`: the registry; `context`: the context file (written once, then the user's); `export`: a source file whose declaration had to be exported. */
  readonly kind: 'capabilities' | 'registry' | 'context' | 'export';
}

/** What `wrapRunners` would change, and its report. Nothing is written: apply `changes` yourself (the CLI does). */
export interface WrapResult {
  readonly changes: readonly FileChange[];
  readonly report: WrapReport;
  /** Absolute path of the registry file. */
  readonly registryFile: string;
}

/** The generated path for a source file: `x.ts` → `x.capabilities.ts`, `x.cjs` → `x.capabilities.cjs` (JavaScript stays JavaScript). */
function capabilitiesPath(source: string, rootDir: string, outDir?: string): string {
  const target = outDir ? join(resolve(outDir), relative(rootDir, source)) : source;
  return target.replace(SOURCE_FILE, (ext) => `.capabilities${isJavaScript(ext) ? ext.replace(/x$/, '') : '.ts'}`);
}

/** The registry's language: TypeScript if any source is; else CommonJS only when every source is. */
function registryLanguage(languages: readonly Language[]): Language {
  if (languages.length === 0 || languages.includes('ts')) return 'ts';
  return languages.every((l) => l === 'cjs') ? 'cjs' : 'esm';
}

/** The registry: regenerated unless the user owns it; capability files of earlier runs stay registered while they exist. */
function registryChange(input: {
  path: string;
  existing: string | undefined;
  entries: RegistryEntry[];
  contractsModule: string;
  extension: string;
  language: Language;
  exists: (path: string) => boolean;
}): { change?: FileChange; findings: Finding[] } {
  const { path, existing, entries, contractsModule } = input;
  const owner = ownership(existing);
  if (owner === 'hand_edited' || owner === 'not_generated') {
    const reason = 'registry file is not the generated one (edited or hand-written); left as it is — register the capabilities yourself';
    return { findings: [{ kind: 'skipped', code: owner, file: path, line: 1, symbol: basename(path), reason }] };
  }
  const covered = new Set(entries.map((e) => e.path));
  const earlier = registeredEarlier(existing, path, contractsModule).filter((e) => !covered.has(e.path) && input.exists(e.path));
  const all = [...entries, ...earlier].sort((a, b) => (a.path < b.path ? -1 : 1));
  const text = renderRegistryFile(path, all, contractsModule, input.extension, input.language);
  return { findings: [], ...(text !== existing ? { change: { path, before: existing, after: text, kind: 'registry' as const } } : {}) };
}

/** The context file: written when absent; an existing one (the user's) is checked for the adapters the capabilities import. */
function contextChange(
  existing: string | undefined,
  path: string,
  capabilities: readonly PlannedCapability[],
  language: Language,
  contractsModule: string,
): { change?: FileChange; findings: Finding[] } {
  const adapters = new Map<string, ContextAdapter>();
  for (const adapter of capabilities.flatMap((c) => c.adapters ?? [])) if (!adapters.has(adapter.name)) adapters.set(adapter.name, adapter);
  if (adapters.size === 0) return { findings: [] };
  if (existing === undefined) return { change: { path, before: undefined, after: renderContextFile(path, [...adapters.values()], language, contractsModule), kind: 'context' }, findings: [] };
  const missing = [...adapters.values()].filter((a) => !new RegExp(`function ${a.name}\\b`).test(existing));
  return {
    findings: missing.map((a) => ({
      kind: 'unsafe' as const,
      code: 'context_incomplete' as const,
      file: path,
      line: 1,
      symbol: a.name,
      reason: `${basename(path)} is yours and has no ${a.name}(ctx); add it (delete the file to have it written again):\n${language === 'ts' ? a.ts : a.js}`,
    })),
  };
}

/** A registry path's own language: its extension decides, a plain `.js` follows the sources. */
function registryFileLanguage(path: string, fromSources: Language): Language {
  if (!isJavaScript(path)) return 'ts';
  if (path.endsWith('.cjs') || path.endsWith('.mjs')) return path.endsWith('.cjs') ? 'cjs' : 'esm';
  return fromSources === 'cjs' ? 'cjs' : 'esm';
}

/** `sinew.registry` with the extension its language and the sources' own extensions call for. */
function defaultRegistryName(language: Language, sources: readonly string[]): string {
  if (language === 'ts') return 'sinew.registry.ts';
  const flavour = language === 'cjs' ? '.cjs' : '.mjs';
  return sources.some((s) => s.endsWith(flavour)) ? `sinew.registry${flavour}` : 'sinew.registry.js';
}

/** The capability modules and export names a generated registry imports. */
function registeredEarlier(text: string | undefined, registryFile: string, contractsModule: string): RegistryEntry[] {
  if (text === undefined) return [];
  const typescript = !isJavaScript(registryFile);
  return [...text.matchAll(/^(?:import \{ ([^}]+) \} from |const \{ ([^}]+) \} = require\()'([^']+)'\)?;$/gm)]
    .filter((m) => m[3] !== contractsModule && m[3]!.startsWith('.'))
    .map((m) => {
      const path = resolve(dirname(registryFile), m[3]!);
      return {
        path: typescript ? path.replace(/\.js$/, '').concat('.ts') : path,
        exports: (m[1] ?? m[2]!).split(',').map((name) => name.trim().split(/\s+as\s+|\s*:\s*/)[0]!),
      };
    });
}

/**
 * A capability whose verb another directory's runner already took, renamed after its own directory
 * (`chat` from `packages/tools/leaves.ts` → `tools_chat`): the same name in two packages is two verbs, not a refusal.
 */
function qualified(cap: PlannedCapability, owners: ReadonlyMap<string, PlannedCapability>): PlannedCapability {
  const owner = owners.get(cap.verb);
  if (!owner || dirname(owner.file) === dirname(cap.file)) return cap;
  const prefix = toSnakeCase(basename(dirname(cap.file)));
  const verb = `${prefix}_${cap.verb}`;
  if (!isVerb(verb) || owners.has(verb)) return cap;
  return { ...cap, verb, exportName: `${toCamelCase(verb)}Capability`, qualifiedFrom: { verb: cap.verb, owner: `${owner.symbol} (${relative(dirname(cap.file), owner.file)}:${owner.line})` } };
}

function lineOf(note: string): number {
  return Number(/\(line (\d+)\)/.exec(note)?.[1] ?? 0);
}

function commonDir(paths: readonly string[]): string {
  if (paths.length === 0) return process.cwd();
  let common = dirname(paths[0]!).split(sep);
  for (const path of paths.slice(1)) {
    const parts = dirname(path).split(sep);
    let i = 0;
    while (i < common.length && common[i] === parts[i]) i += 1;
    common = common.slice(0, i);
  }
  return common.join(sep) || sep;
}

/** `.js` when the file's relative imports carry it (or it has none), '' when they are extensionless. */
function importExtension(file: SourceFile): string {
  const relativeImports = file.getImportDeclarations().map((d) => d.getModuleSpecifierValue()).filter((s) => s.startsWith('.'));
  if (relativeImports.some((s) => s.endsWith('.js'))) return '.js';
  return relativeImports.length > 0 ? '' : '.js';
}

/**
 * Wraps the runners of a ts-morph project into Sinew capabilities: one `*.capabilities.ts` beside each
 * source with runners, and a registry file. Bodies are never rewritten; a source only changes where a
 * declaration must be exported. Running it again on its own output changes nothing.
 *
 * @example
 * const project = new Project({ tsConfigFilePath: 'tsconfig.json' });
 * const { changes, report } = wrapRunners(project, { files: ['src/bot/actions.ts'] });
 */
export function wrapRunners(project: Project, options: WrapRunnersOptions = {}): WrapResult {
  const contractsModule = options.contractsModule ?? '@sinew/executor-contracts';
  const version = options.version ?? '0.1.0';
  const fs = project.getFileSystem();
  const read = (path: string) => (fs.fileExistsSync(path) ? fs.readFileSync(path) : undefined);
  if (options.files?.some(isJavaScript) && !project.getCompilerOptions().allowJs) {
    // JSDoc types are read by the type checker only for files it treats as JavaScript sources.
    project.compilerOptions.set({ allowJs: true });
  }
  const requested = options.files
    ? options.files.map((f) => project.getSourceFile(resolve(f)) ?? project.addSourceFileAtPath(resolve(f)))
    : project.getSourceFiles();
  const outDir = options.outDir ? resolve(options.outDir) : undefined;
  const rootDir = options.rootDir ? resolve(options.rootDir) : commonDir(requested.map((f) => f.getFilePath()));
  const languages = new Map(requested.map((f) => [f.getFilePath(), languageOf(f)] as const));
  const defaultRegistry = defaultRegistryName(registryLanguage([...languages.values()]), [...languages.keys()]);
  const registryFile = resolve(options.registryFile ?? join(outDir ?? rootDir, defaultRegistry));
  const contextFile = join(dirname(registryFile), `${CONTEXT_BASENAME}${extname(registryFile)}`);
  const findings: Finding[] = [];
  const sources = requested
    .filter((f) => {
      const path = f.getFilePath();
      if (f.isDeclarationFile() || path.includes('/node_modules/')) return false;
      if (GENERATED_FILE.test(path) || path === registryFile || path === contextFile || isGenerated(f.getFullText())) {
        const reason = 'a generated capabilities or registry file; never an input';
        findings.push({ kind: 'skipped', code: 'generated_file', file: path, line: 1, symbol: basename(path), reason });
        return false;
      }
      if (!options.includeTests && TEST_FILE.test(path)) {
        findings.push({ kind: 'skipped', code: 'test_file', file: path, line: 1, symbol: basename(path), reason: 'a test file, not a source of runners (--include-tests wraps it)' });
        return false;
      }
      return true;
    })
    .sort((a, b) => (a.getFilePath() < b.getFilePath() ? -1 : 1));

  const unwrap = [...DEFAULT_UNWRAP, ...(options.unwrap ?? [])];
  const failureLog = options.failureLog === undefined || options.failureLog === false ? options.failureLog : parseFailureLog(options.failureLog);
  if (failureLog === undefined && typeof options.failureLog === 'string') {
    throw new TypeError(`wrapRunners: failureLog ${JSON.stringify(options.failureLog)} is neither a bot property (output, bot.output) nor a logger method (console.log, logger.warn)`);
  }
  const hints = commandTableHints(sources, unwrap);
  const analyze = (file: SourceFile) =>
    analyzeFile(file, {
      importExtension: importExtension(file),
      language: languages.get(file.getFilePath())!,
      contextFile,
      unwrap,
      hint: (param) => hints.get(param),
      ...(failureLog !== undefined ? { failureLog } : {}),
    });
  const analyses = sources.map((file) => ({ file, analysis: analyze(file) }));
  const notesByFile = new Map<string, string[]>();
  const note = (file: string, text: string) => notesByFile.set(file, [...(notesByFile.get(file) ?? []), text]);

  // One verb, one runner: a later runner with a taken verb is reported, not guessed between.
  const owners = new Map<string, PlannedCapability>();
  const kept = new Map<string, PlannedCapability[]>();
  for (const { file, analysis } of analyses) {
    if (analysis.findings.length === 0 && analysis.capabilities.length === 0) {
      const reason = 'no runner shapes: no function taking a bot first, no switch on action.type, no leaf with spec and run(), no command table';
      findings.push({ kind: 'skipped', code: 'no_runners', file: file.getFilePath(), line: 1, symbol: basename(file.getFilePath()), reason });
    }
    findings.push(...analysis.findings);
    for (const f of analysis.findings) if (f.kind === 'unsafe') note(file.getFilePath(), `${f.symbol} (line ${f.line}) not wrapped: ${f.reason}`);
    const list: PlannedCapability[] = [];
    for (const planned of analysis.capabilities) {
      const cap = qualified(planned, owners);
      const owner = owners.get(cap.verb);
      if (owner) {
        const reason = `verb ${cap.verb} is already provided by ${owner.symbol} (${basename(owner.file)}:${owner.line}); rename one runner or wrap it by hand`;
        findings.push({ kind: 'unsafe', code: 'name_collision', file: cap.file, line: cap.line, symbol: cap.symbol, reason, verb: cap.verb, shape: cap.shape });
        note(cap.file, `${cap.symbol} (line ${cap.line}) not wrapped: ${reason}`);
        continue;
      }
      owners.set(cap.verb, cap);
      list.push({ ...cap, aliases: cap.aliases.filter((a) => !owners.has(a)) });
    }
    for (const cap of list) for (const alias of cap.aliases) owners.set(alias, cap);
    kept.set(file.getFilePath(), list);
  }

  for (const list of notesByFile.values()) list.sort((a, b) => lineOf(a) - lineOf(b));
  const changes: FileChange[] = [];
  const registryEntries: RegistryEntry[] = [];
  for (const { file, analysis } of analyses) {
    const source = file.getFilePath();
    const caps = kept.get(source) ?? [];
    const notes = notesByFile.get(source) ?? [];
    if (caps.length === 0 && notes.length === 0) continue;
    const target = capabilitiesPath(source, rootDir, outDir);
    const existing = read(target);
    const owner = ownership(existing);
    if (owner === 'hand_edited' || owner === 'not_generated') {
      const reason =
        owner === 'hand_edited'
          ? 'was edited after it was generated; left as it is (delete its header line to silence this)'
          : 'exists and is not generated by sinew-codemod; left as it is';
      findings.push({ kind: 'skipped', code: owner, file: target, line: 1, symbol: basename(target), reason });
      const exported = [...(existing ?? '').matchAll(/^(?:export )?const (\w+)\s*=\s*defineCapability\b/gm)].map((m) => m[1]!);
      if (exported.length > 0) registryEntries.push({ path: target, exports: exported });
      continue;
    }
    const text = renderCapabilitiesFile({
      path: target,
      sourceLabel: relative(dirname(target), source).split(sep).join('/').replace(/^(?!\.)/, './'),
      capabilities: caps,
      notes,
      contractsModule,
      version,
      language: languages.get(source)!,
    });
    if (text !== existing) changes.push({ path: target, before: existing, after: text, kind: 'capabilities' });
    for (const cap of caps) {
      const why = cap.qualifiedFrom ? ` (verb qualified by its directory: ${cap.qualifiedFrom.verb} is ${cap.qualifiedFrom.owner})` : '';
      findings.push({ kind: 'wrapped', code: 'wrapped', file: cap.file, line: cap.line, symbol: cap.symbol, reason: `wrapped as ${cap.exportName}${why}`, verb: cap.verb, shape: cap.shape });
    }
    if (caps.length > 0) registryEntries.push({ path: target, exports: caps.map((c) => c.exportName) });
    const before = file.getFullText();
    for (const node of new Set(analysis.mustExport)) if (Node.isExportable(node) && !node.isExported()) node.setIsExported(true);
    const after = file.getFullText();
    if (after !== before) changes.push({ path: source, before, after, kind: 'export' });
  }

  const contextLanguage = registryFileLanguage(contextFile, registryLanguage([...languages.values()]));
  const context = contextChange(read(contextFile), contextFile, [...kept.values()].flat(), contextLanguage, contractsModule);
  findings.push(...context.findings);
  if (context.change) changes.push(context.change);

  const extension = sources.length > 0 && sources.every((f) => importExtension(f) === '') ? '' : '.js';
  const language = registryFileLanguage(registryFile, registryLanguage([...languages.values()]));
  const registry = registryChange({ path: registryFile, existing: read(registryFile), entries: registryEntries, contractsModule, extension, language, exists: (path) => fs.fileExistsSync(path) });
  if (registry.change) changes.push(registry.change);
  findings.push(...registry.findings);
  return { changes, report: buildReport(findings), registryFile };
}
