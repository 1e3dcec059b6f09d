// Runs every bench/*.bench.ts in its own process, one after another (the machine is noisy: never in parallel).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'bench');
const only = process.argv[2];
const files = readdirSync(benchDir).filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only))).sort();
let failed = 0;
for (const file of files) {
  console.log(`\n── ${file}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(benchDir, file)], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
