import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSinew, ServerOptionsError, type SinewServer } from '../src/index.js';
import type { Executor } from '@sinew/bt-runtime';
import type { Body } from '../../bt-runtime/test/fake-body.js';
import { AUTH, fakeExecutor, http, post, rawSocket, StreamClient, TOKEN } from './helpers.js';

const PLAN = { planId: 'p-http', intentId: 'i1', steps: [{ stepId: 's1', type: 'dig_block', args: { block: 'log_3' } }] };

describe('serveSinew: read routes (real HTTP on 127.0.0.1)', () => {
  let executor: Executor<Body>;
  let server: SinewServer;

  beforeAll(async () => {
    ({ executor } = fakeExecutor());
    await executor.run({
      planId: 'p1',
      intentId: 'i1',
      steps: [
        { stepId: 's1', type: 'dig_block', args: { block: 'log_1' } },
        { stepId: 's2', type: 'dig_block', args: { block: 'log_2' } },
      ],
    });
    await executor.run({ planId: 'p2', intentId: 'i1', steps: [{ stepId: 's3', type: 'dig_block', args: { block: 'nope' } }] });
    server = await serveSinew({ executor, port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await executor.close();
  });

  it('binds to 127.0.0.1 on the given (here: a free) port', () => {
    expect(server.host).toBe('127.0.0.1');
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
  });

  it('GET /metrics serves Prometheus text with the sinew_ metrics', async () => {
    const res = await http(server.url, '/metrics');
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/plain');
    expect(res.text).toContain('sinew_steps_total{capability="dig_block",version="1.0.0",outcome="succeeded",code="none"} 2');
    expect(res.text).toContain('sinew_steps_total{capability="dig_block",version="1.0.0",outcome="failed",code="guard_failed"} 1');
    expect(res.text).toContain('sinew_server_stream_clients 0');
  });

  it('GET /api/cognitive/health serves per-capability SLA and executor state', async () => {
    const health = (await http(server.url, '/api/cognitive/health')).json();
    expect(health.executor).toMatchObject({ status: 'idle', waiting: 0, plansRunning: 0, preempting: false });
    expect(health.capabilities).toEqual([
      {
        capability: 'dig_block',
        steps: 3,
        succeeded: 2,
        successRate: 2 / 3,
        meanDurationMs: expect.any(Number),
        ttfaP95Ms: expect.any(Number),
        durationP95Ms: expect.any(Number),
        lastFailures: [{ code: 'guard_failed', reason: 'no block nope', stepId: 's3', version: '1.0.0', at: expect.any(Number) }],
        versions: [expect.objectContaining({ version: '1.0.0', steps: 3, succeeded: 2, successRate: 2 / 3 })],
      },
    ]);
  });

  it('GET /api/bot/status without a bot reports the executor and no active plan', async () => {
    const status = (await http(server.url, '/api/bot/status')).json();
    expect(status).toEqual({ bot: null, executor: expect.objectContaining({ status: 'idle' }), activePlan: null });
  });

  it('answers 404, 405 (with Allow), 413 for a body on a read route, each as a coded JSON error', async () => {
    const missing = await http(server.url, '/admin');
    expect(missing.status).toBe(404);
    expect(missing.json().error?.code).toBe('not_found');
    const post405 = await http(server.url, '/metrics', { method: 'POST', body: 'x=1' });
    expect(post405.status).toBe(405);
    expect(post405.headers.allow).toBe('GET, HEAD');
    const get405 = await http(server.url, '/api/cognitive/execute');
    expect(get405.status).toBe(405);
    expect(get405.headers.allow).toBe('POST');
    const withBody = await http(server.url, '/metrics', { body: 'hello' });
    expect(withBody.status).toBe(413);
    expect(withBody.json().error?.code).toBe('body_not_accepted');
  });

  it('without a token every mutating route answers 403 control_disabled and the stream is refused', async () => {
    for (const path of ['/api/cognitive/execute', '/api/cognitive/signals', '/api/executor/preempt', '/api/plans/p1/cancel']) {
      const res = await post(server.url, path, {}, 'anything-at-all-123456');
      expect(res.status, path).toBe(403);
      expect(res.json().error?.code).toBe('control_disabled');
    }
    await expect(new StreamClient(server.url, { token: 'anything-at-all-123456' }).opened).rejects.toThrow(/403/);
  });

  it('a malformed request target answers 400 bad_url, not 500', async () => {
    for (const target of ['http://[::1', '//evil', '*']) {
      const raw = await rawSocket(server.port);
      raw.socket.write(`GET ${target} HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\nconnection: close\r\n\r\n`);
      await raw.closed;
      expect(raw.received(), target).toMatch(/^HTTP\/1\.1 400/);
      expect(raw.received()).toContain('"code":"bad_url"');
    }
  });

  it('refuses bad options and a non-loopback bind without a token at start', async () => {
    await expect(serveSinew({ executor, port: 70_000 })).rejects.toThrow(/port/);
    await expect(serveSinew({ executor, port: 0, token: 'short' })).rejects.toThrow(/token/);
    await expect(serveSinew({ executor, port: 0, limits: { maxBodyBytes: 10, bogus: 1 } as never })).rejects.toThrow(/bogus/);
    await expect(serveSinew({ executor, port: 0, trees: { gather: 'root { sequence {' } })).rejects.toThrow(/trees\.gather/);
    const insecure = serveSinew({ executor, port: 0, host: '0.0.0.0' });
    await expect(insecure).rejects.toBeInstanceOf(ServerOptionsError);
    await expect(insecure).rejects.toMatchObject({ code: 'invalid_config', where: 'serveSinew', path: ['host'], issues: [{ path: ['host'], code: 'insecure_bind', message: expect.stringContaining('without a token') }] });
    await expect(serveSinew({ executor, port: 0, limits: { maxBodyBytes: 0 } })).rejects.toMatchObject({ code: 'invalid_config', where: 'serveSinew.limits', path: ['maxBodyBytes'] });
  });
});

describe('serveSinew: control routes with a token', () => {
  let executor: Executor<Body>;
  let server: SinewServer;
  let stream: StreamClient;

  beforeAll(async () => {
    ({ executor } = fakeExecutor());
    server = await serveSinew({ executor, port: 0, token: TOKEN, limits: { maxBodyBytes: 2048 } });
    stream = new StreamClient(server.url, { token: TOKEN });
    await stream.opened;
  });
  afterAll(async () => {
    await stream.close();
    await server.close();
    await executor.close();
  });

  it('missing or wrong bearer → 401 with WWW-Authenticate; the right one → 202 with the plan id', async () => {
    const missing = await post(server.url, '/api/cognitive/execute', PLAN);
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    const wrong = await post(server.url, '/api/cognitive/execute', PLAN, `${TOKEN}x`);
    expect(wrong.status).toBe(401);
    expect(wrong.json().error?.code).toBe('unauthorized');
    const ok = await post(server.url, '/api/cognitive/execute', PLAN, TOKEN);
    expect(ok.status).toBe(202);
    expect(ok.json()).toEqual({ planId: 'p-http', intentId: 'i1' });
    const done = await stream.waitFor((e) => e.type === 'executionComplete' && (e.data as { planId: string }).planId === 'p-http');
    expect(done.data).toMatchObject({ status: 'completed', stepCount: 1, stepStatuses: { succeeded: 1 }, outcomePath: '/api/plans/p-http/outcome' });
    const outcome = await http(server.url, '/api/plans/p-http/outcome', { headers: AUTH });
    expect(outcome.json()).toMatchObject({ status: 'completed', steps: [expect.objectContaining({ stepId: 's1', status: 'succeeded' })] });
  });

  it('415 for another content type, 413 over the cap, 400 for bad JSON, 400 with zod issues for a bad plan', async () => {
    const form = await http(server.url, '/api/cognitive/execute', { method: 'POST', body: 'a=1', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(415);
    expect(form.json().error?.code).toBe('unsupported_media_type');
    const big = await post(server.url, '/api/cognitive/execute', { ...PLAN, pad: 'x'.repeat(4096) }, TOKEN);
    expect(big.status).toBe(413);
    expect(big.json().error?.code).toBe('body_too_large');
    const broken = await post(server.url, '/api/cognitive/execute', '{"planId": ', TOKEN);
    expect(broken.status).toBe(400);
    expect(broken.json().error?.code).toBe('invalid_json');
    const typo = await post(server.url, '/api/cognitive/execute', { ...PLAN, steps: [{ ...PLAN.steps[0], typ: 'x' }] }, TOKEN);
    expect(typo.status).toBe(400);
    expect(typo.json().error).toMatchObject({ code: 'invalid_body', issues: [expect.objectContaining({ code: 'unrecognized_keys', path: ['steps', 0] })] });
    const missing = await post(server.url, '/api/cognitive/execute', { intentId: 'i', steps: [] }, TOKEN);
    expect(missing.json().error?.issues?.map((i) => i.path.join('.'))).toEqual(expect.arrayContaining(['planId', 'steps']));
  });

  it('POST /api/plans/:planId/cancel aborts a running plan; an unknown plan is 404', async () => {
    const plan = { planId: 'p-cancel', intentId: 'i1', steps: [{ stepId: 'h', type: 'hold', args: { ms: 2_500 } }] };
    expect((await post(server.url, '/api/cognitive/execute', plan, TOKEN)).status).toBe(202);
    expect((await post(server.url, '/api/cognitive/execute', plan, TOKEN)).json().error?.code).toBe('plan_running');
    await stream.waitFor((e) => e.type === 'step.first_action' && (e.data as { planId: string }).planId === 'p-cancel');
    const cancel = await http(server.url, '/api/plans/p-cancel/cancel', { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(cancel.status).toBe(202);
    const done = await stream.waitFor((e) => e.type === 'executionComplete' && (e.data as { planId: string }).planId === 'p-cancel');
    expect(done.data).toMatchObject({ status: 'aborted', failure: { code: 'aborted' } });
    const unknown = await post(server.url, '/api/plans/nope/cancel', {}, TOKEN);
    expect(unknown.status).toBe(404);
    expect(unknown.json().error?.code).toBe('unknown_plan');
  });

  it('POST /api/executor/preempt runs the steps and reports them as preemptComplete', async () => {
    const res = await post(server.url, '/api/executor/preempt', { reason: 'api:test', steps: [{ stepId: 'pre-1', type: 'dig_block', args: { block: 'log_1' } }] }, TOKEN);
    expect(res.status).toBe(202);
    const { preemptId } = res.json() as { preemptId: string };
    const done = await stream.waitFor((e) => e.type === 'preemptComplete' && (e.data as { preemptId: string }).preemptId === preemptId);
    expect(done.data).toMatchObject({ reason: 'api:test', outcomes: [expect.objectContaining({ stepId: 'pre-1', status: 'succeeded' })] });
    const bad = await post(server.url, '/api/executor/preempt', { reason: 'Has Spaces', steps: [] }, TOKEN);
    expect(bad.status).toBe(400);
  });

  it('POST /api/cognitive/signals without a router answers 501 not_configured', async () => {
    const res = await post(server.url, '/api/cognitive/signals', { goal: 'get wood' }, TOKEN);
    expect(res.status).toBe(501);
    expect(res.json().error?.code).toBe('not_configured');
  });
});
