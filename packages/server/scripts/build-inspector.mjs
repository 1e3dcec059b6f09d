// Builds the inspector page into dist/inspector (bundled, no CDN): app.ts → app.js, plus index.html and style.css.
// Every file is written beside its target and renamed over it: the browser suites build the page while another
// suite's server may be reading it, and a reader must see the old file or the new one, never half of one.
import { readFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const page = join(root, 'src', 'inspector', 'page');
const out = join(root, 'dist', 'inspector');
mkdirSync(out, { recursive: true });
const bundled = await build({
  entryPoints: [join(page, 'app.ts')],
  outfile: join(out, 'app.js'),
  bundle: true,
  format: 'iife',
  target: 'es2022',
  minify: true,
  sourcemap: false,
  logLevel: 'warning',
  write: false,
});
const files = [
  ['app.js', bundled.outputFiles[0].contents],
  ...['index.html', 'style.css'].map((file) => [file, readFileSync(join(page, file))]),
];
for (const [file, contents] of files) {
  const temporary = join(out, `.${file}.${process.pid}.tmp`);
  writeFileSync(temporary, contents);
  renameSync(temporary, join(out, file));
}
