import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { z } from 'zod';
import { isLoopback } from '../auth.js';
import { ApiError, sendError } from '../http/reply.js';
import { HostCheck } from '../http/hosts.js';
import { isAssetPath, loadInspector, sendAsset, type Asset } from '../inspector/assets.js';
import { parseRecording, type Recording } from '../inspector/page/recording.js';
import { ServerOptionsError } from '../options.js';

/** Options of the replay server `sinew-inspect` starts: one recording, loopback only (it has no token). */
export const ReplayServerOptionsSchema = z
  .object({
    file: z.string().min(1),
    port: z.number().int().min(0).max(65_535).default(0),
    host: z.string().refine(isLoopback, 'the replay server has no token: bind a loopback address (127.0.0.1, ::1)').default('127.0.0.1'),
  })
  .strict();

/** A running replay server. */
export interface ReplayServer {
  /** The inspector opened on the recording. */
  readonly url: string;
  readonly recording: Pick<Recording, 'kind' | 'skipped'> & { readonly events: number };
  close(): Promise<void>;
}

/**
 * Serves the inspector for one recorded run: `/` the page, `/api/recording` the file as it is now (read on
 * each request, so a run still being recorded replays up to its last line). The file is read and its kind
 * checked before the server listens: a missing file or one of no known kind fails here.
 */
export async function serveRecording(input: z.input<typeof ReplayServerOptionsSchema>): Promise<ReplayServer> {
  const parsed = ReplayServerOptionsSchema.safeParse(input);
  if (!parsed.success) throw ServerOptionsError.fromZod('sinew-inspect', parsed.error);
  const { file, port, host } = parsed.data;
  const recording = parseRecording(await readFile(file, 'utf8'));
  const assets = loadInspector();
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const hosts = new HostCheck(host, address.port, []);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => void answer({ request, response, hosts, assets, file }));
  const origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  return {
    url: `${origin}/#replay`,
    recording: { kind: recording.kind, skipped: recording.skipped, events: recording.events.length },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function answer(input: { request: IncomingMessage; response: ServerResponse; hosts: HostCheck; assets: ReadonlyMap<string, Asset> | undefined; file: string }): Promise<void> {
  const { request, response } = input;
  try {
    if (!input.hosts.hostAllowed(request.headers.host)) throw new ApiError(421, 'misdirected_host', 'the Host does not name this server');
    if (request.method !== 'GET' && request.method !== 'HEAD') throw new ApiError(405, 'method_not_allowed', 'the replay server answers GET only');
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const head = request.method === 'HEAD';
    if (isAssetPath(path)) return sendAsset(input.assets, path, response, head);
    if (path !== '/api/recording') throw new ApiError(404, 'not_found', `no route ${path}; the replay server has / and /api/recording`);
    const text = await readFile(input.file);
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': text.length, 'cache-control': 'no-store', 'x-recording-name': encodeURIComponent(basename(input.file)) });
    response.end(head ? undefined : text);
  } catch (error) {
    sendError(response, error instanceof ApiError ? error : new ApiError(500, 'internal_error', error instanceof Error ? error.message : String(error)));
  }
}
