// Builds the inspector page into dist/inspector (bundled, no CDN): app.ts → app.js, plus index.html and style.css,
// and the 3D page's shell (viewer.html, viewer.css, viewer-hooks.ts → viewer-hooks.js; the renderer itself is the
// optional peer prismarine-viewer's prebuilt page script, served from where it is installed).
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
const bundle = async (entry) =>
  (await build({ entryPoints: [join(page, entry)], bundle: true, format: 'iife', target: 'es2022', minify: true, sourcemap: false, logLevel: 'warning', write: false })).outputFiles[0].contents;
const files = [
  ['app.js', await bundle('app.ts')],
  ['viewer-hooks.js', await bundle('viewer-hooks.ts')],
  ...['index.html', 'style.css', 'viewer.html', 'viewer.css'].map((file) => [file, readFileSync(join(page, file))]),
];
for (const [file, contents] of files) {
  const temporary = join(out, `.${file}.${process.pid}.tmp`);
  writeFileSync(temporary, contents);
  renameSync(temporary, join(out, file));
}
