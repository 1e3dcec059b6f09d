import type { Executor } from '@sinew/bt-runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { serveSinew, type SinewServer } from '../src/index.js';
import type { Body } from '../../bt-runtime/test/fake-body.js';
import { fakeExecutor, http, post, rawSocket, StreamClient, TOKEN } from './helpers.js';

// Real sockets and Node timers; the header timeout of the shared slots is long so only the reserve's short one can act.
const LIMITS = { maxConnections: 16, reservedConnections: 4, reserveGraceMs: 250, headersTimeoutMs: 10_000, requestTimeoutMs: 20_000, idleTimeoutMs: 20_000 };

describe('serveSinew: a share of the connection cap is kept for the token holder', () => {
  let executor: Executor<Body>;
  let server: SinewServer;
  const sockets: { socket: { destroy(): void } }[] = [];

  afterEach(async () => {
    for (const s of sockets.splice(0)) s.socket.destroy();
    await server.close();
    await executor.close();
  });

  async function start(limits: Record<string, number> = LIMITS): Promise<void> {
    ({ executor } = fakeExecutor());
    server = await serveSinew({ executor, port: 0, token: TOKEN, limits });
  }
  async function silent(count: number): Promise<Awaited<ReturnType<typeof rawSocket>>[]> {
    const opened = await Promise.all(Array.from({ length: count }, () => rawSocket(server.port)));
    sockets.push(...opened);
    return opened;
  }
  const host = () => ({ host: `127.0.0.1:${server.port}` });

  it('64 silent anonymous sockets fill the cap, yet an authenticated cancel of a running plan succeeds', async () => {
    await start();
    const started = await post(server.url, '/api/cognitive/execute', { planId: 'long', intentId: 'i', steps: [{ stepId: 's', type: 'hold', args: { ms: 60_000 } }] }, TOKEN);
    expect(started.status).toBe(202);
    await silent(64);
    const done = new Promise((resolve) => executor.on('plan.failed', resolve));
    const cancel = await post(server.url, '/api/plans/long/cancel', {}, TOKEN);
    expect(cancel.status).toBe(202);
    expect(await done).toMatchObject({ planId: 'long', status: 'aborted' });
    // The stream (token in the headers) gets in too.
    const stream = new StreamClient(server.url, { token: TOKEN });
    await stream.opened;
    await stream.close();
  });

  it('past the anonymous share a socket keeps its slot only with the token: silent it is closed after reserveGraceMs, anonymous it gets one answer and Connection: close', async () => {
    await start();
    await silent(LIMITS.maxConnections - LIMITS.reservedConnections);
    const [quiet, anonymous] = await silent(2);
    anonymous!.socket.write(`GET /api/bot/status HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\n\r\n`);
    expect(await anonymous!.closed).toBeLessThan(LIMITS.reserveGraceMs);
    expect(anonymous!.received()).toMatch(/^HTTP\/1\.1 200 [\s\S]*connection: close/i);
    const quietFor = await quiet!.closed;
    expect(quietFor).toBeGreaterThanOrEqual(LIMITS.reserveGraceMs - 20);
    expect(quietFor).toBeLessThan(LIMITS.reserveGraceMs + 500);
    const trusted = await rawSocket(server.port);
    sockets.push(trusted);
    trusted.socket.write(`GET /api/bot/status HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\nauthorization: Bearer ${TOKEN}\r\n\r\n`);
    await new Promise((resolve) => setTimeout(resolve, LIMITS.reserveGraceMs + 200));
    expect(trusted.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(trusted.received()).not.toMatch(/connection: close/i);
    trusted.socket.write(`GET /api/bot/status HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\nconnection: close\r\n\r\n`);
    await trusted.closed;
    expect(trusted.received().match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
  });

  it('at the cap the oldest reserve socket without the token makes room for the token holder, before its grace ends', async () => {
    const grace = 5_000; // long: only the eviction can close the socket within the test
    await start({ ...LIMITS, reserveGraceMs: grace });
    await silent(LIMITS.maxConnections - LIMITS.reservedConnections);
    const reserve = await silent(LIMITS.reservedConnections);
    const read = await http(server.url, '/api/cognitive/health', { headers: { ...host(), authorization: `Bearer ${TOKEN}`, connection: 'close' } });
    expect(read.status).toBe(200);
    expect(await reserve[0]!.closed).toBeLessThan(grace / 2);
    expect(reserve[1]!.socket.destroyed).toBe(false);
  });

  it('the anonymous share still serves anonymous reads while the reserve stands empty', async () => {
    await start();
    await silent(LIMITS.maxConnections - LIMITS.reservedConnections - 1);
    expect((await http(server.url, '/api/bot/status', { headers: { ...host(), connection: 'close' } })).status).toBe(200);
  });

  it('validates the reserve against the cap', async () => {
    ({ executor } = fakeExecutor());
    await expect(serveSinew({ executor, port: 0, limits: { maxConnections: 4, reservedConnections: 4 } })).rejects.toThrow(/reservedConnections/);
    server = await serveSinew({ executor, port: 0, limits: { maxConnections: 10 } });
    expect(server.limits).toMatchObject({ maxConnections: 10, reservedConnections: 2, reserveGraceMs: 1_000 });
  });
});
