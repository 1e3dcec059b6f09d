// The CLI's file side: loading registry and planner modules (.ts via jiti), JSON lists and scanned
// sources. Not exported from the package index, so importing the library loads neither jiti nor picomatch.
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, extname, isAbsolute, posix, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import picomatch from 'picomatch';
import { z } from 'zod';
import { CapabilityRegistry, ManifestSchema, type Manifest } from '../registry.js';
import { describeError } from '../failure.js';
import type { PlannerVerb } from './check.js';
import { locateVerb, scanVerbLiterals } from './scan.js';

/** Bad input to the CLI (exit 2): a file that does not exist, a module without a registry, bad JSON. */
export class GateUsageError extends Error {
  override readonly name = 'GateUsageError';
  readonly code = 'usage';
}

const MODULE_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.tsx', '.js', '.mjs', '.cjs', '.jsx']);
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'coverage']);

/** A path as printed in reports and annotations: relative to cwd, with forward slashes. */
export function displayPath(file: string, cwd = process.cwd()): string {
  const rel = relative(cwd, resolve(cwd, file));
  return (rel.startsWith('..') || isAbsolute(rel) ? resolve(cwd, file) : rel).split(sep).join('/');
}

/** A file's text; a FIFO, socket or device is refused (reading one blocks forever), never read. */
function readText(file: string): string {
  try {
    if (!statSync(file).isFile()) throw new GateUsageError(`${file} is not a regular file`);
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof GateUsageError) throw error;
    throw new GateUsageError(`cannot read ${file}: ${describeError(error)}`);
  }
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readText(file));
  } catch (error) {
    if (error instanceof GateUsageError) throw error;
    throw new GateUsageError(`${file} is not valid JSON: ${describeError(error)}`);
  }
}

/** How long a module may take to load, or a planner's `verbs()` to answer, before the gate gives up (exit 2). */
export const DEFAULT_LOAD_TIMEOUT_MS = 30_000;

/** `work` or a GateUsageError naming `what` once `ms` pass (a module that never settles must not pass the gate). */
async function withDeadline<T>(work: Promise<T>, what: string, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new GateUsageError(`${what} did not settle within ${ms} ms (--timeout to change)`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Imports a .ts/.js module through jiti (loaded lazily, only here), bounded by the load deadline. */
async function importModule(file: string, timeoutMs: number): Promise<Record<string, unknown>> {
  const absolute = resolve(file);
  let regular: boolean;
  try {
    regular = statSync(absolute).isFile();
  } catch {
    throw new GateUsageError(`${file} does not exist`);
  }
  if (!regular) throw new GateUsageError(`${file} is not a regular file`);
  const { createJiti } = await import('jiti');
  // `@scope/pkg` imports follow tsconfig `paths` (source), so a workspace needs no build first: jiti reads the
  // nearest tsconfig (JSONC too); the aliases add the first one up the tree that has paths (a package's
  // tsconfig usually has none, its workspace root's does).
  const jiti = createJiti(pathToFileURL(absolute).href, { moduleCache: false, tsconfigPaths: true, alias: tsconfigAliases(dirname(absolute)) });
  try {
    const loaded = await withDeadline(jiti.import<unknown>(absolute), `loading ${file}`, timeoutMs);
    // A .cjs module comes as a namespace; a .ts one written as CommonJS as its `module.exports` itself, a function
    // included, whose properties are then its exports as in the namespace of the same .cjs.
    return (typeof loaded === 'object' || typeof loaded === 'function') && loaded !== null ? (loaded as Record<string, unknown>) : {};
  } catch (error) {
    if (error instanceof GateUsageError) throw error;
    throw new GateUsageError(`cannot load ${file}: ${describeError(error)}`);
  }
}

const TsconfigPathsSchema = z.object({
  compilerOptions: z.object({ baseUrl: z.string().optional(), paths: z.record(z.string(), z.array(z.string())).optional() }).optional(),
});

/** Exact (non-wildcard) `paths` of the nearest tsconfig.json above `dir` as absolute aliases; none when unreadable. */
export function tsconfigAliases(dir: string): Record<string, string> {
  for (let at = dir; ; at = dirname(at)) {
    const file = resolve(at, 'tsconfig.json');
    if (existsSync(file)) {
      let parsed: ReturnType<typeof TsconfigPathsSchema.safeParse>;
      try {
        parsed = TsconfigPathsSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      } catch {
        return {}; // JSON with comments: fall back to package resolution
      }
      const options = parsed.success ? parsed.data.compilerOptions : undefined;
      const base = resolve(at, options?.baseUrl ?? '.');
      const aliases: Record<string, string> = {};
      for (const [name, targets] of Object.entries(options?.paths ?? {})) {
        if (!name.includes('*') && targets[0] !== undefined) aliases[name] = resolve(base, targets[0]);
      }
      if (options?.paths) return aliases; // a tsconfig without paths (a package's): keep looking up
    }
    if (dirname(at) === at) return {};
  }
}

function isModule(file: string): boolean {
  return MODULE_EXTENSIONS.has(extname(file));
}

/** A registry manifest from a module's CapabilityRegistry export (`exportName` picks one) or a manifest.json. */
export async function loadManifest(spec: string, exportName?: string, timeoutMs = DEFAULT_LOAD_TIMEOUT_MS): Promise<Manifest> {
  if (extname(spec) === '.json') {
    const parsed = ManifestSchema.safeParse(readJson(spec));
    if (!parsed.success) throw new GateUsageError(`${spec} is not a registry manifest:\n${z.prettifyError(parsed.error)}`);
    return parsed.data;
  }
  if (!isModule(spec)) throw new GateUsageError(`--registry ${spec}: expected a .ts/.js module or a manifest .json`);
  const exports = await importModule(spec, timeoutMs);
  const registries = Object.entries(exports).filter(([, value]) => CapabilityRegistry.isRegistry(value));
  let chosen: unknown;
  if (exportName !== undefined) {
    if (!(exportName in exports)) {
      throw new GateUsageError(`${spec} has no export "${exportName}" (exports: ${Object.keys(exports).join(', ') || 'none'})`);
    }
    chosen = exports[exportName];
    if (!CapabilityRegistry.isRegistry(chosen)) throw new GateUsageError(`${spec}: export "${exportName}" is not a CapabilityRegistry`);
  } else if (registries.length === 1) {
    chosen = registries[0]?.[1];
  } else if (registries.length === 0) {
    throw new GateUsageError(`${spec} exports no CapabilityRegistry (exports: ${Object.keys(exports).join(', ') || 'none'})`);
  } else {
    throw new GateUsageError(`${spec} exports several registries (${registries.map(([name]) => name).join(', ')}); pick one with --export <name>`);
  }
  let manifest: unknown;
  try {
    manifest = (chosen as CapabilityRegistry).manifest();
  } catch (error) {
    throw new GateUsageError(`${spec}: manifest() failed: ${describeError(error)}`);
  }
  const parsed = ManifestSchema.safeParse(manifest);
  if (!parsed.success) throw new GateUsageError(`${spec}: the registry produced a bad manifest:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

const VerbListSchema = z.array(z.string().min(1));

function located(verbs: readonly string[], source: string, file: string, text: string): PlannerVerb[] {
  return verbs.map((verb) => ({ verb, source, file: displayPath(file), ...locateVerb(text, verb) }));
}

/** Planner verbs from a JSON array of verbs, or a module exporting Planners (`verbs()`) or string arrays. */
export async function loadPlannerVerbs(spec: string, timeoutMs = DEFAULT_LOAD_TIMEOUT_MS): Promise<PlannerVerb[]> {
  const text = readText(spec);
  if (extname(spec) === '.json') {
    const parsed = VerbListSchema.safeParse(readJson(spec));
    if (!parsed.success) throw new GateUsageError(`${spec} must be a JSON array of verb strings:\n${z.prettifyError(parsed.error)}`);
    return located(parsed.data, displayPath(spec), spec, text);
  }
  if (!isModule(spec)) throw new GateUsageError(`--planner ${spec}: expected a verbs .json or a .ts/.js module`);
  const exports = await importModule(spec, timeoutMs);
  const verbs: PlannerVerb[] = [];
  let found = 0;
  for (const [name, value] of Object.entries(exports)) {
    if (CapabilityRegistry.isRegistry(value)) continue; // a registry also has verbs(); it is not a planner
    const source = `${displayPath(spec)}#${name}`;
    let list: unknown;
    if (typeof value === 'object' && value !== null && typeof (value as { verbs?: unknown }).verbs === 'function') {
      try {
        list = await withDeadline(Promise.resolve((value as { verbs(): unknown }).verbs()), `${source}: verbs()`, timeoutMs);
      } catch (error) {
        if (error instanceof GateUsageError) throw error;
        throw new GateUsageError(`${source}: verbs() threw: ${describeError(error)}`);
      }
      const parsed = VerbListSchema.safeParse(list);
      if (!parsed.success) throw new GateUsageError(`${source}: verbs() must return verb strings:\n${z.prettifyError(parsed.error)}`);
      list = parsed.data;
    } else if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' && v.length > 0)) {
      list = value;
    } else continue;
    found += 1;
    verbs.push(...located(list as string[], source, spec, text));
  }
  if (found === 0) {
    throw new GateUsageError(`${spec} exports no Planner (an object with verbs()) and no array of verb strings (exports: ${Object.keys(exports).join(', ') || 'none'})`);
  }
  return verbs;
}

/**
 * Files under cwd matching a glob (picomatch syntax), sorted; node_modules, .git, dist and coverage are skipped.
 * Iterative (no depth limit); a symlink is followed once — to a file it is scanned under its link path, to a
 * directory it is walked unless that directory was already walked (a link loop ends there).
 */
export function globFiles(pattern: string, cwd = process.cwd()): string[] {
  const normalized = posix.normalize(pattern.split(sep).join('/')); // `./plans/./x` is `plans/x`
  // `posix` brings POSIX brackets (`[!0-2]`, `[[:alpha:]]`) as a shell has them.
  const matcher = picomatch(normalized, { posix: true });
  // The walk starts at the glob's fixed prefix (`src/plans` of `src/plans/**/*.ts`; a plain path's folder).
  const scanned = picomatch.scan(normalized);
  const base = (scanned.isGlob ? scanned.base : posix.dirname(normalized)) || '.';
  const out: string[] = [];
  const walked = new Set<string>();
  const pending = [base];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    const real = realPath(resolve(cwd, dir));
    if (real === undefined || walked.has(real)) continue;
    walked.add(real);
    let entries;
    try {
      entries = readdirSync(resolve(cwd, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = dir === '.' ? entry.name : `${dir}/${entry.name}`;
      const kind = entry.isSymbolicLink() ? linkKind(resolve(cwd, path)) : entry.isDirectory() ? 'dir' : entry.isFile() ? 'file' : 'other';
      if (kind === 'dir') {
        if (!SKIP_DIRS.has(entry.name)) pending.push(path);
      } else if (kind === 'file' && matcher(path)) out.push(path);
    }
  }
  return out.sort();
}

function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** What a symlink points at (`other` when it dangles or points at a FIFO, socket or device: never read those). */
function linkKind(path: string): 'file' | 'dir' | 'other' {
  try {
    const target = statSync(path);
    return target.isDirectory() ? 'dir' : target.isFile() ? 'file' : 'other';
  } catch {
    return 'other';
  }
}

/** Planner verbs from the `type: '<verb>'` literals of every file matching `pattern`. */
export function scanFiles(pattern: string, cwd = process.cwd()): { files: number; verbs: PlannerVerb[] } {
  const files = globFiles(pattern, cwd);
  if (files.length === 0) throw new GateUsageError(`--scan ${pattern} matched no files`);
  const verbs: PlannerVerb[] = [];
  // One push per literal: a spread of 100,000+ literals into push() overflows the call stack.
  for (const file of files) for (const verb of scanVerbLiterals(readText(resolve(cwd, file)), displayPath(file, cwd))) verbs.push(verb);
  return { files: files.length, verbs };
}
