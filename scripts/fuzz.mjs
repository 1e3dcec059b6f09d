// Runs every fuzz/*.fuzz.ts in its own process with tsx, one after another, passing the arguments on
// (`npm run fuzz -- --seed 7 --count 2000`). Each harness takes --seed and --count and exits 1 on any
// hang, throw or unhandled rejection; this script exits 1 if any harness did.
// `npm run fuzz -- http [--time-limit-ms N]` runs only the control-plane attacks (fuzz/http-attacks.ts).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const fuzzDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fuzz');
const http = process.argv[2] === 'http';
const args = process.argv.slice(http ? 3 : 2);
let failed = 0;
for (const file of http ? ['http-attacks.ts'] : readdirSync(fuzzDir).filter((f) => f.endsWith('.fuzz.ts')).sort()) {
  console.log(`\n── ${file}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(fuzzDir, file), ...args], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
