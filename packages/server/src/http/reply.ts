import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';

/** Every error the API answers with: an HTTP status, a stable code and a readable message. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** Writes a JSON body (or nothing for HEAD). */
export function sendJson(response: ServerResponse, status: number, body: unknown, headOnly = false, headers: Record<string, string> = {}): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', ...headers });
  response.end(headOnly ? undefined : text);
}

/** Writes an ApiError as `{ error: { code, message, ...details } }`. */
export function sendError(response: ServerResponse, error: ApiError, headers: Record<string, string> = {}): void {
  sendJson(response, error.status, { error: { code: error.code, message: error.message, ...error.details } }, false, headers);
}

/** A request that carries no body at all (GET, HEAD, and POSTs without input). */
export function hasBody(request: IncomingMessage): boolean {
  return Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
}

/** Reads a JSON body under the size cap: 415 for another content type, 413 over the cap, 400 for bad JSON. */
export async function readJson(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new ApiError(415, 'unsupported_media_type', `expected content-type application/json, got ${type || 'none'}`);
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch (error) {
    throw new ApiError(400, 'invalid_json', `the body is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, 'body_too_large', `the body exceeds ${maxBytes} bytes`);
}

/** Parses with a zod schema; failure → 400 `invalid_body` with the zod issues (or the error `toError` builds). */
export function validate<T extends z.ZodType>(schema: T, value: unknown, toError?: (message: string) => ApiError): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const message = z.prettifyError(parsed.error);
  if (toError) throw toError(message);
  throw new ApiError(400, 'invalid_body', message, { issues: issuesOf(parsed.error) });
}

/** A zod error's issues as the API shows them: `{ path, code, message }`. */
export function issuesOf(error: z.ZodError): { path: (string | number)[]; code: string; message: string }[] {
  return error.issues.map((issue) => ({ path: issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), code: issue.code, message: issue.message }));
}
