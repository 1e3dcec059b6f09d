// Consumer test: follows docs/first-bot.md literally from `npm init -y` in a fresh project outside the
// workspace (its commands, its files, the packed packages in place of the registry's), then checks every
// Sinew .d.ts with skipLibCheck: false, and runs an ESM TypeScript bot, a CommonJS bot, sinew-verbs and
// sinew-codemod there; the user's own light_torch is repaired by the goal-oriented planner from its declarations.
// `node scripts/consumer/run.mjs [--mineflayer <range>] [--packs <dir> [--reuse]] [--keep]`: --packs is where the
// tarballs go (default a temp dir); --reuse takes the ones a previous run left there instead of packing again.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { packAndCheck, sizeTable } from '../pack.mjs';
import { publishablePackages } from '../workspaces.mjs';
import { guideSteps, localCommand } from './guide.mjs';
import { checkSinewTypes } from './types.mjs';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), 'fixture');
// The fixture's own files, type-checked with the guide's with skipLibCheck: false.
const FIXTURE_TYPED = ['custom-bot.ts', 'repaired-bot.ts', 'registry.ts', 'telemetry.mjs'];

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

/** Exactly one installed copy of each package the bot shares with Sinew; returns mineflayer's version. */
function assertSingleCopies(project) {
  const shared = ['mineflayer', 'zod', 'prom-client', 'mineflayer-pathfinder'];
  const nodes = JSON.parse(run(project, 'npm', ['query', `:is(${shared.map((name) => `#${name}`).join(', ')})`]));
  for (const name of shared) {
    const copies = nodes.filter((node) => node.name === name).map((node) => `${node.location}@${node.version}`);
    if (copies.length !== 1) throw new Error(`${name}: expected one installed copy, found ${copies.length}: ${copies.join(', ')}`);
  }
  return nodes.find((node) => node.name === 'mineflayer').version;
}

function tarballMap(files) {
  return new Map(publishablePackages().map(({ pkg }, index) => [pkg.name, files[index]]));
}

/** Runs docs/first-bot.md in the empty project: its commands (with the tarballs) and its files, in order. */
function followGuide(project, tarballs) {
  for (const guideStep of guideSteps()) {
    if (guideStep.kind === 'file') {
      mkdirSync(dirname(join(project, guideStep.path)), { recursive: true });
      writeFileSync(join(project, guideStep.path), `${guideStep.text}\n`);
      continue;
    }
    const command = localCommand(guideStep.command, tarballs, values.mineflayer);
    const name = `guide: ${guideStep.command.length > 54 ? `${guideStep.command.slice(0, 53)}…` : guideStep.command}`;
    const output = step(name, () => run(project, 'sh', ['-c', command]));
    if (guideStep.prints !== undefined && output !== `${guideStep.prints}\n`)
      throw new Error(`${guideStep.command} printed\n${output}\nbut docs/first-bot.md says it prints\n${guideStep.prints}`);
  }
  const missing = [...tarballs.keys()].filter((name) => !existsSync(join(project, 'node_modules', name, 'package.json')));
  if (missing.length) throw new Error(`docs/first-bot.md never installs ${missing.join(', ')}`);
}

/** The dashboards ship in @sinew/server under the documented path (resolved through its exports map). */
function checkDashboards(project) {
  const script = [
    "const { readFileSync } = require('node:fs');",
    "for (const file of ['grafana-dashboard.json', 'sinew.rules.yml', 'prometheus.yml', 'README.md']) readFileSync(require.resolve(`@sinew/server/dashboards/${file}`));",
    "process.stdout.write(String(JSON.parse(readFileSync(require.resolve('@sinew/server/dashboards/grafana-dashboard.json'), 'utf8')).panels.length));",
  ].join('\n');
  return `${run(project, 'node', ['-e', script])} top-level panels and rows in grafana-dashboard.json`;
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
  followGuide(project, tarballMap(files));
  console.log(`    mineflayer ${step('one copy each of mineflayer, mineflayer-pathfinder, zod, prom-client', () => assertSingleCopies(project))}`);
  cpSync(FIXTURE, project, { recursive: true });
  const typed = ['src/bot.ts', 'src/planner.ts', ...FIXTURE_TYPED];
  console.log(`    ${step("Sinew's .d.ts clean (tsc, skipLibCheck: false)", () => checkSinewTypes(project, typed, env))}`);
  console.log(`    ${step('dashboards at @sinew/server/dashboards/*', () => checkDashboards(project))}`);
  const bin = (name) => join(project, 'node_modules', '.bin', name);
  console.log(`    ${step('ESM TypeScript bot, own capability (tsx custom-bot.ts)', () => run(project, bin('tsx'), ['custom-bot.ts'])).trim()}`);
  console.log(`    ${step('own capability repaired from declarations (tsx repaired-bot.ts)', () => run(project, bin('tsx'), ['repaired-bot.ts'])).trim()}`);
  console.log(`    ${step('CommonJS bot (node bot.cjs)', () => run(project, 'node', ['bot.cjs'])).trim()}`);
  step('sinew-verbs check', () => run(project, bin('sinew-verbs'), ['check', '--registry', 'registry.ts', '--scan', 'custom-bot.ts']));
  const diff = step('sinew-codemod wrap-runners --dry-run', () => run(project, bin('sinew-codemod'), ['wrap-runners', 'actions', '--dry-run']));
  if (!diff.includes("name: 'dig_forward'")) throw new Error(`sinew-codemod did not propose dig_forward:\n${diff}`);
  step('sinew-codemod wrap-runners skills (JavaScript, JSDoc)', () => run(project, bin('sinew-codemod'), ['wrap-runners', 'skills']));
  console.log(`    ${step('generated JS registry in plain node (node codemod-bot.mjs)', () => run(project, 'node', ['codemod-bot.mjs'])).trim()}`);
  passed = true;
} finally {
  if (passed && !values.keep) rmSync(project, { recursive: true, force: true });
  else console.log(`  project kept at ${project}`);
}
console.log(`consumer test passed on node ${process.version} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
