import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * Test files that start a real server in a child process: no import of theirs reaches flying-squid
 * (they run a README example or the demo's CLI), so the import scan below cannot see them.
 */
const SPAWNS_SERVER = ['packages/capabilities/test/readme.test.ts', 'examples/need-wood/test/demo.test.ts'];

const IMPORT = /(?:^|[\s;])(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Relative and `@sinew/*` specifiers of a source file (type-only imports skipped: they load nothing). */
function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(IMPORT)) if (!match[1]) found.push(match[2] ?? match[3] ?? '');
  return found;
}

/** The source file a relative specifier names (`./x.js` is written for `./x.ts`), or undefined. */
function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((file) => file.endsWith('.ts') && existsSync(file));
}

/**
 * Splits test files by whether they run a real Minecraft server: a file whose static imports reach
 * `flying-squid` (through relative imports and the `@sinew/*` aliases, i.e. the testkit), or one listed
 * in SPAWNS_SERVER. Such files spend most of their time waiting on server ticks, not on the CPU.
 */
export function createServerFileDetector(root: string, aliases: Record<string, string>): (testFile: string) => boolean {
  const memo = new Map<string, boolean>();
  const spawning = new Set(SPAWNS_SERVER.map((file) => join(root, file)));
  const reaches = (file: string): boolean => {
    const known = memo.get(file);
    if (known !== undefined) return known;
    memo.set(file, false); // a cycle adds nothing
    const result = importsOf(readFileSync(file, 'utf8')).some((specifier) => {
      if (specifier === 'flying-squid') return true;
      const target = specifier.startsWith('.') ? resolveRelative(file, specifier) : aliases[specifier];
      return target !== undefined && reaches(target);
    });
    memo.set(file, result);
    return result;
  };
  return (testFile) => spawning.has(testFile) || reaches(testFile);
}

/** Every `test/**\/*.test.ts` under a project folder (absolute paths). */
export function testFilesIn(dir: string): string[] {
  const walk = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : walk(path);
      return entry.name.endsWith('.test.ts') ? [path] : [];
    });
  return existsSync(join(dir, 'test')) ? walk(join(dir, 'test')) : [];
}
