// Builds the inspector page into dist/inspector (bundled, no CDN): app.ts → app.js, plus index.html and style.css.
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const page = join(root, 'src', 'inspector', 'page');
const out = join(root, 'dist', 'inspector');
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(page, 'app.ts')],
  outfile: join(out, 'app.js'),
  bundle: true,
  format: 'iife',
  target: 'es2022',
  minify: true,
  sourcemap: false,
  logLevel: 'warning',
});
for (const file of ['index.html', 'style.css']) copyFileSync(join(page, file), join(out, file));
