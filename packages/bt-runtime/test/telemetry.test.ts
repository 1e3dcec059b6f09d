import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecutor, createMetrics, serveTelemetry, type Executor, type TelemetryServer } from '../src/index.js';
import { craftItem, digBlock, fakeBody, registryWith, type Body } from './fake-body.js';

/** A raw HTTP request (so we can send bodies and odd methods), returning status, headers and text. */
function http(url: string, options: { method?: string; body?: string; path?: string } = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((resolve, reject) => {
    const target = new URL(options.path ?? '/', url);
    const headers = options.body === undefined ? {} : { 'content-length': Buffer.byteLength(options.body) };
    const req = request(target, { method: options.method ?? 'GET', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

describe('serveTelemetry (real HTTP on 127.0.0.1)', () => {
  let executor: Executor<Body>;
  let server: TelemetryServer;

  beforeAll(async () => {
    const body = fakeBody();
    body.inventory.log = 0;
    executor = createExecutor({ registry: registryWith(digBlock, craftItem), body, metrics: createMetrics() });
    await executor.run({
      planId: 'p1',
      intentId: 'i1',
      steps: [
        { stepId: 's1', type: 'dig_block', args: { block: 'log_1' } },
        { stepId: 's2', type: 'dig_block', args: { block: 'log_2' } },
      ],
    });
    await executor.run({ planId: 'p2', intentId: 'i1', steps: [{ stepId: 's3', type: 'dig_block', args: { block: 'nope' } }] });
    server = await serveTelemetry({ executor, port: 0 });
  });

  afterAll(async () => {
    await server.close();
    await executor.close();
  });

  it('binds to 127.0.0.1 on the given (here: a free) port', () => {
    expect(server.host).toBe('127.0.0.1');
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
  });

  it('GET /metrics serves Prometheus text with the sinew_ metrics', async () => {
    const res = await http(server.url, { path: '/metrics' });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/plain');
    expect(res.text).toContain('sinew_steps_total{capability="dig_block",version="1.0.0",outcome="succeeded",code="none"} 2');
    expect(res.text).toContain('sinew_steps_total{capability="dig_block",version="1.0.0",outcome="failed",code="guard_failed"} 1');
    expect(res.text).toContain('# TYPE sinew_step_ttfa_seconds histogram');
    expect(res.text).toContain('sinew_actuator_commands_total{command="dig"} 2');
  });

  it('GET /api/cognitive/health serves per-capability SLA and executor state', async () => {
    const res = await http(server.url, { path: '/api/cognitive/health' });
    expect(res.status).toBe(200);
    const health = JSON.parse(res.text);
    expect(health.executor).toMatchObject({ status: 'idle', waiting: 0, plansRunning: 0, preempting: false });
    expect(health.capabilities).toEqual([
      {
        capability: 'dig_block',
        steps: 3,
        succeeded: 2,
        successRate: 2 / 3,
        meanDurationMs: expect.any(Number),
        ttfaP95Ms: expect.any(Number),
        lastFailures: [{ code: 'guard_failed', reason: 'no block nope', stepId: 's3', at: expect.any(Number) }],
      },
    ]);
  });

  it('answers 404 for other paths, 405 for other methods, 413 for a request body', async () => {
    const missing = await http(server.url, { path: '/admin' });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text)).toMatchObject({ error: 'not_found' });
    const post = await http(server.url, { path: '/metrics', method: 'POST', body: 'x=1' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    const del = await http(server.url, { path: '/api/cognitive/health', method: 'DELETE' });
    expect(del.status).toBe(405);
    const withBody = await http(server.url, { path: '/metrics', method: 'GET', body: 'hello' });
    expect(withBody.status).toBe(413);
    expect(JSON.parse(withBody.text)).toMatchObject({ error: 'body_not_accepted' });
  });

  it('rejects bad options with a clear message', async () => {
    await expect(serveTelemetry({ executor, port: 70_000 })).rejects.toThrow(/port/);
  });
});
