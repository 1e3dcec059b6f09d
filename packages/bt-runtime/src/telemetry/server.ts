import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { ExecutorMetrics } from '../metrics/metrics.js';
import type { HealthReport } from '../executor/types.js';

/** What the telemetry server needs from an executor. */
export interface TelemetrySource {
  readonly metrics: ExecutorMetrics;
  health(): HealthReport;
}

export const TelemetryOptionsSchema = z.object({
  port: z.number().int().min(0).max(65_535),
  host: z.string().min(1).default('127.0.0.1'),
});

export interface TelemetryServer {
  readonly url: string;
  readonly port: number;
  readonly host: string;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` (Prometheus text) and `GET /api/cognitive/health` (per-capability SLA and
 * executor state) on 127.0.0.1 by default. Other paths → 404, other methods → 405, bodies → 413.
 *
 * @example
 * const telemetry = await serveTelemetry({ executor, port: 9464 });
 * // curl http://127.0.0.1:9464/metrics
 * await telemetry.close();
 */
export async function serveTelemetry(options: { executor: TelemetrySource; port: number; host?: string }): Promise<TelemetryServer> {
  const parsed = TelemetryOptionsSchema.safeParse({ port: options.port, host: options.host });
  if (!parsed.success) throw new TypeError(`serveTelemetry: invalid options:\n${z.prettifyError(parsed.error)}`);
  const { port, host } = parsed.data;
  const { executor } = options;
  const server = createServer((request, response) => {
    handle(executor, request, response).catch((error: unknown) => {
      send(response, 500, { error: 'internal_error', message: error instanceof Error ? error.message : String(error) });
    });
  });
  server.headersTimeout = 5000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    host: address.address,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

const ROUTES = new Set(['/metrics', '/api/cognitive/health']);

async function handle(executor: TelemetrySource, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  if (!ROUTES.has(path)) return send(response, 404, { error: 'not_found', message: `no route ${path}; try /metrics or /api/cognitive/health` });
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('allow', 'GET, HEAD');
    return send(response, 405, { error: 'method_not_allowed', message: `${request.method} is not allowed on ${path}; use GET` });
  }
  const length = Number(request.headers['content-length'] ?? 0);
  if (length > 0 || request.headers['transfer-encoding'] !== undefined) {
    return send(response, 413, { error: 'body_not_accepted', message: 'requests to the telemetry server must not carry a body' });
  }
  if (path === '/metrics') {
    const registry = executor.metrics.registry;
    const text = await registry.metrics();
    response.writeHead(200, { 'content-type': registry.contentType });
    response.end(request.method === 'HEAD' ? undefined : text);
    return;
  }
  send(response, 200, executor.health(), request.method === 'HEAD');
}

function send(response: ServerResponse, status: number, body: unknown, headOnly = false): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(headOnly ? undefined : text);
}
