import type { Executor } from '@sinew/bt-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSinew, type SinewServer } from '../src/index.js';
import type { Body } from '../../bt-runtime/test/fake-body.js';
import { fakeExecutor, http, rawSocket } from './helpers.js';

// Real sockets against real Node timers: the limits are short so each case takes well under a second.
const LIMITS = { headersTimeoutMs: 300, requestTimeoutMs: 600, idleTimeoutMs: 400, maxConnections: 4 };

describe('serveSinew: HTTP limits are enforced', () => {
  let executor: Executor<Body>;
  let server: SinewServer;

  beforeAll(async () => {
    ({ executor } = fakeExecutor());
    server = await serveSinew({ executor, port: 0, limits: LIMITS });
  });
  afterAll(async () => {
    await server.close();
    await executor.close();
  });

  it('closes a slowloris client that never finishes its headers (headersTimeoutMs)', async () => {
    const raw = await rawSocket(server.port);
    raw.socket.write(`GET /metrics HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\n`);
    const drip = setInterval(() => raw.socket.write('x-slow: 1\r\n'), 50);
    const closedAfter = await raw.closed;
    clearInterval(drip);
    expect(closedAfter).toBeLessThan(LIMITS.headersTimeoutMs + 1_000);
    expect(raw.received()).toMatch(/^HTTP\/1\.1 408|^$/);
  });

  it('closes a connection that sends nothing, and an idle keep-alive connection after a response', async () => {
    const silent = await rawSocket(server.port);
    expect(await silent.closed).toBeLessThan(LIMITS.headersTimeoutMs + 1_000);
    const keepAlive = await rawSocket(server.port);
    keepAlive.socket.write(`GET /api/cognitive/health HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\n\r\n`);
    const closedAfter = await keepAlive.closed;
    expect(keepAlive.received()).toMatch(/^HTTP\/1\.1 200/);
    expect(closedAfter).toBeGreaterThanOrEqual(LIMITS.idleTimeoutMs - 50);
    expect(closedAfter).toBeLessThan(LIMITS.idleTimeoutMs + 2_000); // Node adds up to 1 s of keep-alive grace
  });

  it('refuses connections beyond maxConnections; the open ones keep working', async () => {
    const held = await Promise.all(Array.from({ length: LIMITS.maxConnections }, () => rawSocket(server.port)));
    const extra = await rawSocket(server.port);
    extra.socket.write(`GET /metrics HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\n\r\n`);
    await extra.closed;
    expect(extra.received()).toBe('');
    held[0]!.socket.write(`GET /api/bot/status HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\nconnection: close\r\n\r\n`);
    await held[0]!.closed;
    expect(held[0]!.received()).toMatch(/^HTTP\/1\.1 200/);
    for (const h of held) h.socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await http(server.url, '/api/bot/status')).status).toBe(200);
  });
});
