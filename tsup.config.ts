import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

// One build for every package, run from the package's folder (`tsup --config <root>/tsup.config.ts`).
// Entries come from the package's own `exports` map (plus `src/cli.ts` when it has a bin), so the map
// and the build cannot drift apart.
interface PackageJson {
  exports: Record<string, string | { import: { default: string } }>;
  bin?: Record<string, string>;
}
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as PackageJson;
const entry: Record<string, string> = {};
for (const target of Object.values(pkg.exports)) {
  if (typeof target === 'string') continue; // ./package.json
  const name = target.import.default.replace(/^\.\/dist\//, '').replace(/\.js$/, '');
  entry[name] = `src/${name}.ts`;
}
if (pkg.bin) entry.cli = 'src/cli.ts';

export default defineConfig({
  entry,
  format: ['esm', 'cjs'],
  // Shared chunks in CJS too: an entry point (`/testing`, `/otel`) must not carry its own copy of a class
  // the main entry exports, or `instanceof` fails across them.
  splitting: true,
  // import.meta.url in the CJS chunks (the inspector finds its assets through it).
  shims: true,
  dts: true,
  // Everything but dist/inspector (the server's page, written after tsup by scripts/build-inspector.mjs): `npm test`
  // packs the packages (a build) beside tests that run the demo from source, which serves the page from there.
  clean: ['!inspector/**'],
  sourcemap: true,
  target: 'node20',
  tsconfig: 'tsconfig.json',
});
