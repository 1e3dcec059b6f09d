// Consumer-style check of the built packages: every `exports` subpath must load as ESM and as CJS,
// ship its .d.ts/.d.cts, expose named exports only (no default export), and every bin must exist.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { publishablePackages, ROOT } from './workspaces.mjs';

const require = createRequire(join(ROOT, 'package.json'));
const failures = [];
let checked = 0;

for (const { dir, pkg } of publishablePackages()) {
  const pkgDir = join(ROOT, dir);
  for (const [sub, target] of Object.entries(pkg.exports ?? {})) {
    if (typeof target === 'string') continue; // ./package.json
    const spec = sub === '.' ? pkg.name : `${pkg.name}/${sub.slice(2)}`;
    for (const file of [target.import.types, target.import.default, target.require.types, target.require.default]) {
      if (!existsSync(join(pkgDir, file))) failures.push(`${spec}: missing ${file} (run npm run build)`);
    }
    try {
      const esm = await import(spec);
      const names = Object.keys(esm);
      if (names.includes('default')) failures.push(`${spec}: ESM build has a default export`);
      if (names.length === 0) failures.push(`${spec}: ESM build exports nothing`);
      const cjs = require(spec);
      const cjsNames = Object.keys(cjs).filter((n) => n !== 'default');
      const missing = names.filter((n) => n !== 'default' && !cjsNames.includes(n));
      if (missing.length) failures.push(`${spec}: CJS build lacks ${missing.join(', ')}`);
      checked += 1;
    } catch (error) {
      failures.push(`${spec}: failed to load: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  for (const [bin, file] of Object.entries(pkg.bin ?? {})) {
    if (!existsSync(join(pkgDir, file))) failures.push(`${pkg.name}: bin ${bin} → ${file} missing`);
  }
}

if (failures.length) {
  console.error(`exports check failed:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log(`exports check: ${checked} entry points load as ESM and CJS with types`);
