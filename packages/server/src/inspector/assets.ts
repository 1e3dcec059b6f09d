import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiError } from '../http/reply.js';

/** One built inspector file, served from memory. */
export interface Asset {
  readonly type: string;
  readonly body: Buffer;
}

/** URL path → file name inside the built inspector folder (a fixed list: nothing else is reachable). */
const FILES: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/inspector/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/inspector/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
  '/viewer/': { file: 'viewer.html', type: 'text/html; charset=utf-8' },
  '/inspector/viewer-hooks.js': { file: 'viewer-hooks.js', type: 'text/javascript; charset=utf-8' },
  '/inspector/viewer.css': { file: 'viewer.css', type: 'text/css; charset=utf-8' },
};

const INSPECTOR_CSP = "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'";
/** The 3D page: framed by the inspector, a mesher worker, textures drawn from canvases and blobs. */
const VIEWER_CSP = "default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; worker-src 'self'; frame-ancestors 'self'";

/** The folder of this module: `dist/` when built, `src/inspector/` when run from source. */
function here(): string {
  return typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));
}

/** Where `npm run build` puts the page: `dist/inspector` next to the built module, or the package's `dist/inspector` from source. */
export function inspectorDir(): string[] {
  const base = here();
  return [join(base, 'inspector'), join(base, '..', '..', 'dist', 'inspector')];
}

/** Loads the built page once; undefined when the package was not built (the server then answers 503 on `/`). */
export function loadInspector(dirs: readonly string[] = inspectorDir()): ReadonlyMap<string, Asset> | undefined {
  for (const dir of dirs) {
    try {
      const assets = new Map<string, Asset>();
      for (const [path, { file, type }] of Object.entries(FILES)) assets.set(path, { type, body: readFileSync(join(dir, file)) });
      return assets;
    } catch {
      // not in this folder; try the next
    }
  }
  return undefined;
}

/** Whether `path` is one of the inspector's files. */
export function isAssetPath(path: string): boolean {
  return Object.hasOwn(FILES, path);
}

/** Answers with one inspector file under a strict CSP; 503 when the page was not built. */
export function sendAsset(assets: ReadonlyMap<string, Asset> | undefined, path: string, response: ServerResponse, head: boolean): void {
  const found = assets?.get(path);
  if (!found) throw new ApiError(503, 'inspector_not_built', 'the inspector page is not built: run `npm run build -w @sinew/server`');
  response.writeHead(200, {
    'content-type': found.type,
    'content-length': found.body.length,
    'cache-control': 'no-cache',
    'content-security-policy': path === '/viewer/' ? VIEWER_CSP : INSPECTOR_CSP,
    'x-content-type-options': 'nosniff',
  });
  response.end(head ? undefined : found.body);
}
