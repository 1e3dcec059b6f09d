// `npm pack` of every publishable workspace package (prepack builds it), and the checks each tarball
// must pass: dist/ with ESM, CJS and types for every `exports` entry, bins, LICENSE, publish metadata.
// Run alone: `node scripts/pack.mjs [--dest <dir>]` packs, checks and prints the tarball sizes.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { publishablePackages, ROOT } from './workspaces.mjs';

// Users own these: a package that depended on them would install a second copy next to the bot's.
const PEER_ONLY = ['mineflayer', 'mineflayer-pathfinder', 'zod', 'prom-client'];

/** Packs every publishable package into `dest` (one at a time, in build order); returns npm's report per tarball. */
export function packWorkspaces(dest) {
  mkdirSync(dest, { recursive: true });
  return publishablePackages().map(({ dir, pkg }) => {
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dest, '--workspace', dir], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 64 * 1024 * 1024,
    });
    // prepack's build logs go to stdout before npm's JSON report: the report is the last top-level array.
    const [report] = JSON.parse(out.slice(out.lastIndexOf('\n[') + 1));
    return { dir, pkg, tarball: join(dest, report.filename), size: report.size, unpackedSize: report.unpackedSize, files: report.files.map((f) => f.path) };
  });
}

/** What is wrong with one packed tarball (empty when it is publishable). */
export function checkTarball({ pkg, files }) {
  const has = new Set(files);
  const problems = [];
  const need = (file, why) => has.has(file.replace(/^\.\//, '')) || problems.push(`missing ${file} (${why})`);
  for (const file of ['package.json', 'README.md', 'LICENSE']) need(file, 'every package');
  for (const [sub, target] of Object.entries(pkg.exports ?? {})) {
    if (typeof target === 'string') continue;
    for (const [kind, file] of Object.entries({ esm: target.import?.default, 'esm types': target.import?.types, cjs: target.require?.default, 'cjs types': target.require?.types })) {
      if (file === undefined) problems.push(`exports["${sub}"] has no ${kind} entry`);
      else need(file, `exports["${sub}"] ${kind}`);
    }
  }
  for (const [name, file] of Object.entries(pkg.bin ?? {})) {
    if (file.startsWith('./')) problems.push(`bin ${name}: "${file}" starts with ./ (npm publish drops it)`);
    need(file, `bin ${name}`);
  }
  for (const file of files) if (/^(src|test)\//.test(file)) problems.push(`ships ${file} (sources and tests stay out)`);
  if (pkg.publishConfig?.access !== 'public') problems.push('publishConfig.access is not "public"');
  if (pkg.license !== 'MIT') problems.push('license is not MIT');
  if (!pkg.repository?.url || !pkg.homepage) problems.push('repository or homepage missing');
  if (!pkg.scripts?.prepack) problems.push('no prepack script (npm pack would ship no dist/)');
  for (const name of PEER_ONLY) if (pkg.dependencies?.[name]) problems.push(`${name} is a dependency; make it a peer dependency`);
  return problems;
}

/** Packs and checks everything; throws listing every problem. */
export function packAndCheck(dest) {
  const packed = packWorkspaces(dest);
  const problems = packed.flatMap((entry) => checkTarball(entry).map((p) => `${entry.pkg.name}: ${p}`));
  if (problems.length) throw new Error(`pack check failed:\n  ${problems.join('\n  ')}`);
  return packed;
}

/** One line per tarball: name, packed and unpacked size. */
export function sizeTable(packed) {
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`.padStart(10);
  return packed.map(({ pkg, size, unpackedSize }) => `  ${pkg.name.padEnd(28)}${kb(size)} packed${kb(unpackedSize)} unpacked`).join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { dest: { type: 'string' } } });
  const dest = values.dest ? resolve(values.dest) : mkdtempSync(join(tmpdir(), 'sinew-pack-'));
  const packed = packAndCheck(dest);
  console.log(`pack check: ${packed.length} tarballs in ${dest}, each with dist/ (ESM, CJS, types), LICENSE and publish metadata\n${sizeTable(packed)}`);
}
