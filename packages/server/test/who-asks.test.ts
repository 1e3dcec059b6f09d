import type { Executor } from '@sinew/bt-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSinew, ServerOptionsError, type SinewServer } from '../src/index.js';
import type { Body } from '../../bt-runtime/test/fake-body.js';
import { fakeExecutor, http, rawSocket, StreamClient, streamBody, TOKEN } from './helpers.js';

// DNS rebinding: a page on evil.example whose name now resolves to 127.0.0.1 sends `Host: evil.example:<port>`.
describe('serveSinew: only requests addressed to this server are answered (Host, Origin)', () => {
  let executor: Executor<Body>;
  let server: SinewServer;
  let named: SinewServer;

  beforeAll(async () => {
    ({ executor } = fakeExecutor());
    server = await serveSinew({ executor, port: 0, token: TOKEN });
    named = await serveSinew({ executor, port: 0, token: TOKEN, allowedHosts: ['Bot-7.lan', 'proxy.example:8443'] });
  });
  afterAll(async () => {
    await named.close();
    await server.close();
    await executor.close();
  });

  const status = (target: SinewServer, host: string) => http(target.url, '/api/bot/status', { headers: { host } });

  it('answers 421 misdirected_host to a rebound name, on every route, and 200 to the bound address by any loopback name', async () => {
    const p = server.port;
    const rebound = await status(server, `evil.example:${p}`);
    expect(rebound.status).toBe(421);
    expect(rebound.json().error?.code).toBe('misdirected_host');
    expect(rebound.text).not.toContain('executor');
    for (const path of ['/metrics', '/api/cognitive/health', '/api/capabilities', '/api/provenance', '/', '/nope']) {
      expect((await http(server.url, path, { headers: { host: `evil.example:${p}` } })).status, path).toBe(421);
    }
    expect((await status(server, `localhost:${p + 1}`)).status).toBe(421);
    expect((await status(server, `127.0.0.2:${p}`)).status).toBe(421);
    expect((await status(server, `127.0.0.1.evil.example:${p}`)).status).toBe(421);
    for (const host of [`127.0.0.1:${p}`, `LOCALHOST:${p}`, `[::1]:${p}`, `localhost.:${p}`]) expect((await status(server, host)).status, host).toBe(200);
  });

  it('accepts a configured name at any port, a name:port only at that port', async () => {
    const p = named.port;
    expect((await status(named, `bot-7.lan:${p}`)).status).toBe(200);
    expect((await status(named, 'bot-7.lan')).status).toBe(200);
    expect((await status(named, 'proxy.example:8443')).status).toBe(200);
    expect((await status(named, 'proxy.example')).status).toBe(421);
    expect((await status(named, `bot-8.lan:${p}`)).status).toBe(421);
    expect((await status(named, `127.0.0.1:${p}`)).status).toBe(200);
  });

  it('refuses a WebSocket from a foreign Origin (403 forbidden_origin) or Host (421), even with the token', async () => {
    const p = server.port;
    await expect(new StreamClient(server.url, { token: TOKEN, headers: { origin: `http://evil.example:${p}` } }).opened).rejects.toThrow(/403/);
    await expect(new StreamClient(server.url, { token: TOKEN, headers: { origin: 'null' } }).opened).rejects.toThrow(/403/);
    await expect(new StreamClient(server.url, { token: TOKEN, headers: { host: `evil.example:${p}` } }).opened).rejects.toThrow(/421/);
    const page = new StreamClient(server.url, { token: TOKEN, headers: { origin: `http://localhost:${p}` } });
    await page.opened;
    await page.close();
    const cli = new StreamClient(server.url, { token: TOKEN });
    await cli.opened;
    await cli.close();
  });

  it('refuses a bad allowedHosts and a misspelled option at start, naming the field', async () => {
    await expect(serveSinew({ executor, port: 0, allowedHosts: ['http://bot.lan'] })).rejects.toThrow(/allowedHosts/);
    await expect(serveSinew({ executor, port: 0, allowedHosts: ['bot.lan/x'] })).rejects.toThrow(/allowedHosts/);
    await expect(serveSinew({ executor, port: 0, allowedHosts: 'bot.lan' as never })).rejects.toThrow(/allowedHosts/);
    const typo = serveSinew({ executor, port: 0, allowedHost: ['bot.lan'] } as never);
    await expect(typo).rejects.toBeInstanceOf(ServerOptionsError);
    await expect(typo).rejects.toThrow(/allowedHost\b/);
  });
});

// An unauthenticated client streaming a huge body must not cost the server its reading time.
describe('serveSinew: a refused request closes its connection without reading the body', () => {
  let executor: Executor<Body>;
  let guarded: SinewServer;
  let open: SinewServer;

  beforeAll(async () => {
    ({ executor } = fakeExecutor());
    guarded = await serveSinew({ executor, port: 0, token: TOKEN });
    open = await serveSinew({ executor, port: 0 });
  });
  afterAll(async () => {
    await open.close();
    await guarded.close();
    await executor.close();
  });

  const cases = [
    { name: '401 without the token', target: () => guarded, path: '/api/cognitive/execute', host: (p: number) => `127.0.0.1:${p}`, status: 401 },
    { name: '403 with control disabled', target: () => open, path: '/api/cognitive/execute', host: (p: number) => `127.0.0.1:${p}`, status: 403 },
    { name: '404 on an unknown path', target: () => guarded, path: '/api/nope', host: (p: number) => `127.0.0.1:${p}`, status: 404 },
    { name: '421 for a foreign Host', target: () => guarded, path: '/api/cognitive/execute', host: () => 'evil.example', status: 421 },
  ];
  for (const c of cases) {
    it(`${c.name}: answers, sends Connection: close and drops the socket within a second of a 1 GB upload`, async () => {
      const server = c.target();
      const upload = await streamBody(server.port, { path: c.path, host: c.host(server.port), declaredBytes: 1e9, forMs: 3_000 });
      expect(upload.response).toMatch(new RegExp(`^HTTP/1\\.1 ${c.status} `));
      expect(upload.response.toLowerCase()).toContain('connection: close');
      expect(upload.closedAfterMs).toBeLessThan(1_000);
      expect(upload.bytesWritten).toBeLessThan(32 * 2 ** 20);
    });
  }

  it('a keep-alive GET answered 404 is closed too, a 200 keeps its connection', async () => {
    const raw = await rawSocket(guarded.port);
    raw.socket.write(`GET /api/bot/status HTTP/1.1\r\nhost: 127.0.0.1:${guarded.port}\r\n\r\nGET /nope HTTP/1.1\r\nhost: 127.0.0.1:${guarded.port}\r\n\r\n`);
    const closedAfter = await raw.closed;
    expect(raw.received()).toMatch(/^HTTP\/1\.1 200[\s\S]*HTTP\/1\.1 404/);
    expect(closedAfter).toBeLessThan(1_000);
  });
});
