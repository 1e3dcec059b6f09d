import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// docs/GLOSSARY.md is checked against the whole repository: every requirement id used in code or
// tests has a line, every linked test exists and names the id, every README links the glossary.
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const glossaryPath = join(repoRoot, 'docs/GLOSSARY.md');
const SOURCE_ROOTS = ['packages', 'codemods', 'examples', 'bench', 'scripts', 'fuzz'];
const SKIP_DIRS = new Set(['node_modules', 'dist', '.sinew', 'coverage']);
const SOURCE_FILE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs)$/;
/** A requirement id of the core spec: A/I/V numbers, FM cards, PBI, TTFA. */
const REQUIREMENT_ID = /\b(?:[AIV][0-9]+|FM-[0-9]+|PBI|TTFA)\b/g;

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIP_DIRS.has(entry.name) ? [] : sourceFiles(path);
    return entry.isFile() && SOURCE_FILE.test(entry.name) ? [path] : [];
  });
}

/** Glossary rows: id (first cell) → linked files (resolved from docs/). */
function glossaryRows(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of readFileSync(glossaryPath, 'utf8').split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 5 || cells[1] === 'Id' || /^-+$/.test(cells[1] ?? '')) continue;
    const links = [...(cells[3] ?? '').matchAll(/\]\(([^)]+)\)/g)].map((m) => resolve(dirname(glossaryPath), m[1]!));
    rows.set(cells[1]!, links);
  }
  return rows;
}

/** Where each requirement id is used: id → first file that uses it. */
function usedIds(): Map<string, string> {
  const used = new Map<string, string>();
  for (const file of SOURCE_ROOTS.flatMap((root) => sourceFiles(join(repoRoot, root)))) {
    for (const [id] of readFileSync(file, 'utf8').matchAll(REQUIREMENT_ID)) if (!used.has(id)) used.set(id, relative(repoRoot, file));
  }
  return used;
}

describe('docs/GLOSSARY.md', () => {
  const rows = glossaryRows();

  it('has a line for every requirement id used in code and tests', () => {
    const used = usedIds();
    expect(used.size).toBeGreaterThanOrEqual(19);
    const missing = [...used].filter(([id]) => !rows.has(id)).map(([id, file]) => `${id} (used in ${file})`);
    expect(missing).toEqual([]);
  });

  it('links tests that exist and name the id they pin', () => {
    const broken: string[] = [];
    for (const [id, links] of rows) {
      if (links.length === 0) broken.push(`${id}: no linked test`);
      // `§9 pivot 3` is written `pivot 3` in test names.
      const named = id.replace(/^§\d+[a-z]? /, '');
      for (const link of links) {
        if (!existsSync(link)) broken.push(`${id}: ${relative(repoRoot, link)} does not exist`);
        else if (!readFileSync(link, 'utf8').includes(named)) broken.push(`${id}: ${relative(repoRoot, link)} never mentions ${named}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('is linked from the root README and every package README', () => {
    const readmes = ['README.md', 'codemods/README.md', ...readdirSync(join(repoRoot, 'packages')).map((name) => `packages/${name}/README.md`)];
    const unlinked = readmes.filter((readme) => existsSync(join(repoRoot, readme)) && !readFileSync(join(repoRoot, readme), 'utf8').includes('docs/GLOSSARY.md'));
    expect(unlinked).toEqual([]);
  });
});
