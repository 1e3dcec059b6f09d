// Consumer test: installs the packed packages into a fresh project outside the workspace, as a user
// would, and runs an ESM TypeScript bot, a CommonJS bot, tsc, sinew-verbs and sinew-codemod there.
// `node scripts/consumer/run.mjs [--mineflayer <range>] [--packs <dir> [--reuse]] [--keep]`: --packs is where the
// tarballs go (default a temp dir); --reuse takes the ones a previous run left there instead of packing again.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { packAndCheck, sizeTable } from '../pack.mjs';
import { publishablePackages } from '../workspaces.mjs';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), 'fixture');
// What a mineflayer bot project already has, plus what runs and typechecks its TypeScript.
const USER_DEPS = ['mineflayer-pathfinder@^2.4.5', 'zod@^4.1.0', 'prom-client@^15.1.3'];
const USER_DEV_DEPS = ['tsx@^4.20.0', 'typescript@~5.9.3', '@types/node@^20.19.0'];

const { values } = parseArgs({
  options: { mineflayer: { type: 'string', default: '~4.25.0' }, packs: { type: 'string' }, reuse: { type: 'boolean', default: false }, keep: { type: 'boolean', default: false } },
});

// The caller's npm_* variables (set by `npm run`) would leak workspace settings into the project's npm.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('npm_') && key !== 'INIT_CWD'));
env.PATH = `${dirname(process.execPath)}${delimiter}${env.PATH}`; // this node first, also for npm and the .bin shims

const timings = [];
/** Runs one named step, printing its time; a failing step ends the test with its output. */
function step(name, fn) {
  const started = Date.now();
  const result = fn();
  const seconds = (Date.now() - started) / 1000;
  timings.push([name, seconds]);
  console.log(`  ✔ ${name.padEnd(62)} ${seconds.toFixed(1).padStart(6)} s`);
  return result;
}

function run(cwd, command, args) {
  try {
    return execFileSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    throw new Error(`${command} ${args.join(' ')} failed (exit ${error.status}) in ${cwd}:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  }
}

/** The project must not resolve anything through a parent folder's node_modules (the workspace's, say). */
function assertIsolated(dir) {
  for (let parent = dirname(dir); parent !== dirname(parent); parent = dirname(parent)) {
    if (existsSync(join(parent, 'node_modules'))) throw new Error(`${join(parent, 'node_modules')} is visible from ${dir}`);
  }
}

function tarballs(dir) {
  const expected = publishablePackages().map(({ pkg }) => `${pkg.name.replace('@', '').replace('/', '-')}-${pkg.version}.tgz`);
  const present = existsSync(dir) ? new Set(readdirSync(dir)) : new Set();
  return expected.every((file) => present.has(file)) ? expected.map((file) => join(dir, file)) : undefined;
}

/** Exactly one installed copy of each package the bot shares with Sinew. */
function assertSingleCopies(project) {
  for (const name of ['mineflayer', 'zod', 'prom-client', 'mineflayer-pathfinder']) {
    const copies = JSON.parse(run(project, 'npm', ['query', `#${name}`])).map((node) => `${node.location}@${node.version}`);
    if (copies.length !== 1) throw new Error(`${name}: expected one installed copy, found ${copies.length}: ${copies.join(', ')}`);
  }
}

/**
 * tsc with skipLibCheck off: errors in the bot or in Sinew's .d.ts fail; errors inside other packages'
 * own .d.ts (protodef, prismarine-*: not ours to fix) are counted and printed, not failed on.
 */
function typecheck(project) {
  let output = '';
  try {
    execFileSync(join(project, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], { cwd: project, env, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    output = `${error.stdout ?? ''}${error.stderr ?? ''}`;
  }
  const errors = output.split('\n').filter((line) => /^\S.*\(\d+,\d+\): error TS/.test(line));
  const ours = errors.filter((line) => !line.startsWith('node_modules/') || line.startsWith('node_modules/@sinew/'));
  if (ours.length || (output && errors.length === 0)) throw new Error(`tsc failed:\n${ours.length ? ours.join('\n') : output}`);
  const libraries = [...new Set(errors.map((line) => line.match(/^node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1]))];
  return errors.length ? `${errors.length} errors inside third-party .d.ts ignored (${libraries.join(', ')})` : 'no errors';
}

const started = Date.now();
console.log(`consumer test on node ${process.version}, mineflayer ${values.mineflayer}`);
const packDir = values.packs ? resolve(values.packs) : mkdtempSync(join(tmpdir(), 'sinew-packs-'));
let files = values.reuse ? tarballs(packDir) : undefined;
if (!files) {
  rmSync(packDir, { recursive: true, force: true });
  const packed = step(`npm pack ${publishablePackages().length} packages (prepack builds)`, () => packAndCheck(packDir));
  console.log(sizeTable(packed));
  files = tarballs(packDir);
}
const project = mkdtempSync(join(tmpdir(), 'sinew-consumer-'));
let passed = false;
try {
  assertIsolated(project);
  cpSync(FIXTURE, project, { recursive: true });
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'sinew-consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  const npmInstall = ['install', '--no-audit', '--no-fund', '--prefer-offline'];
  step('npm install tarballs + mineflayer, zod, prom-client', () => run(project, 'npm', [...npmInstall, ...files, `mineflayer@${values.mineflayer}`, ...USER_DEPS]));
  step('npm install -D tsx typescript @types/node', () => run(project, 'npm', [...npmInstall, '-D', ...USER_DEV_DEPS]));
  const mineflayer = JSON.parse(run(project, 'npm', ['query', '#mineflayer']))[0]?.version;
  step(`one copy each of mineflayer ${mineflayer}, zod, prom-client`, () => assertSingleCopies(project));
  const bin = (name) => join(project, 'node_modules', '.bin', name);
  console.log(`    ${step('tsc (strict, exactOptionalPropertyTypes, skipLibCheck: false)', () => typecheck(project))}`);
  console.log(`    ${step('ESM TypeScript bot (tsx bot.ts)', () => run(project, bin('tsx'), ['bot.ts'])).trim()}`);
  console.log(`    ${step('CommonJS bot (node bot.cjs)', () => run(project, 'node', ['bot.cjs'])).trim()}`);
  step('sinew-verbs check', () => run(project, bin('sinew-verbs'), ['check', '--registry', 'registry.ts', '--scan', 'bot.ts']));
  const diff = step('sinew-codemod wrap-runners --dry-run', () => run(project, bin('sinew-codemod'), ['wrap-runners', 'actions', '--dry-run']));
  if (!diff.includes("name: 'dig_forward'")) throw new Error(`sinew-codemod did not propose dig_forward:\n${diff}`);
  passed = true;
} finally {
  if (passed && !values.keep) rmSync(project, { recursive: true, force: true });
  else console.log(`  project kept at ${project}`);
}
console.log(`consumer test passed on node ${process.version} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
