import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** A fresh random bearer token (base64url, 32 bytes of entropy). */
export function createToken(): string {
  return randomBytes(32).toString('base64url');
}

/** True for hosts only this machine can reach: 127.0.0.0/8, ::1, localhost. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1' || bare === '::ffff:127.0.0.1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/** Compares a presented token with the configured one in constant time (both hashed to equal length first). */
export function tokenMatches(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

const BEARER = /^Bearer ([^\s]+)$/;
/** Browsers cannot set headers on a WebSocket: they offer `bearer.<token>` as a subprotocol instead. */
export const BEARER_PROTOCOL_PREFIX = 'bearer.';
export const STREAM_PROTOCOL = 'sinew.v1';

/** The token a request presents: `Authorization: Bearer <token>`, or (WebSocket only) a `bearer.<token>` subprotocol. */
export function presentedToken(headers: { authorization?: string | undefined; 'sec-websocket-protocol'?: string | undefined }): string | undefined {
  const match = BEARER.exec(headers.authorization ?? '');
  if (match) return match[1];
  const offered = (headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
  const bearer = offered.find((p) => p.startsWith(BEARER_PROTOCOL_PREFIX));
  return bearer?.slice(BEARER_PROTOCOL_PREFIX.length);
}

/** True when the headers carry the configured token (a header or a `bearer.` subprotocol); checked before any body is read. */
export function carriesToken(token: string | undefined, headers: Parameters<typeof presentedToken>[0]): boolean {
  const presented = presentedToken(headers);
  return token !== undefined && presented !== undefined && tokenMatches(presented, token);
}

export type AuthVerdict = { readonly ok: true } | { readonly ok: false; readonly status: 401 | 403; readonly code: 'unauthorized' | 'control_disabled'; readonly message: string };

/** Decides whether a request may mutate or stream: no token configured → 403; missing or wrong token → 401. */
export function authorize(token: string | undefined, presented: string | undefined): AuthVerdict {
  if (token === undefined) {
    return { ok: false, status: 403, code: 'control_disabled', message: 'no token configured: start serveSinew with { token } to enable control and the event stream' };
  }
  if (presented === undefined) return { ok: false, status: 401, code: 'unauthorized', message: 'missing Authorization: Bearer <token>' };
  if (!tokenMatches(presented, token)) return { ok: false, status: 401, code: 'unauthorized', message: 'the bearer token does not match' };
  return { ok: true };
}
