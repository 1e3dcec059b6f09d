import { createExecutor, instrumentMethods } from '@sinew/bt-runtime';
import { CapabilityRegistry } from '@sinew/executor-contracts';
import { createToken, serveSinew, type SinewServer } from '@sinew/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from '../../server/test/helpers.js';
import { createFleetQueue, createFleetWorker, createRedisJournal, type FleetJournal, type FleetQueue } from '../src/index.js';
import { fileWorldExecutor } from './fixtures/world.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let redis: RedisServer;
let queue: FleetQueue;
let journal: FleetJournal;
let server: SinewServer;
let bare: SinewServer;
let dir: string;
const token = createToken();
// The control plane's own bot: here a body with no capabilities (the fleet's bots run the plans).
const controlExecutor = () => createExecutor({ registry: new CapabilityRegistry(), body: instrumentMethods({ noop: () => undefined }, ['noop']) });

beforeAll(async () => {
  redis = await startRedisServer();
  dir = mkdtempSync(join(tmpdir(), 'sinew-fleet-http-'));
  const connection = { host: '127.0.0.1', port: redis.port };
  [queue, journal] = [createFleetQueue(connection, { prefix: 'http' }), createRedisJournal(connection, { prefix: 'http' })];
  server = await serveSinew({ executor: controlExecutor(), port: 0, token, fleet: queue });
  bare = await serveSinew({ executor: controlExecutor(), port: 0, token });
});
afterAll(async () => {
  await Promise.all([server.close(), bare.close()]);
  await Promise.all([queue.close(), journal.close()]);
  await redis.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const plan = { planId: 'http/ñ-1', intentId: 'from-http', steps: [{ stepId: 'a', type: 'dig', args: { mark: 'over-http' } }] };

describe('POST /api/fleet/plans', () => {
  it('queues a plan given the token, answers its job id, and a fleet worker elsewhere runs it', async () => {
    const answer = await post(server.url, '/api/fleet/plans', plan, token);
    expect(answer.status).toBe(202);
    expect(answer.json()).toEqual({ planId: 'http/ñ-1', jobId: encodeURIComponent('http/ñ-1'), queue: 'plans.dig', traceParent: expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/) });
    const world = join(dir, 'world.log');
    const worker = createFleetWorker({ queue, journal, executor: (store) => fileWorldExecutor(world, ['dig'], 1, store) });
    try {
      const deadline = Date.now() + 10_000;
      while (!(await journal.history(plan.planId)).records.some((r) => r.kind === 'plan_end') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      expect((await journal.history(plan.planId)).records.map((r) => r.kind)).toEqual(['plan_start', 'step', 'plan_end']);
      expect(readFileSync(world, 'utf8')).toMatch(/^effect over-http /m);
    } finally {
      await worker.close();
    }
  });

  it('refuses a write without the token, and queues nothing', async () => {
    const refused = await post(server.url, '/api/fleet/plans', { ...plan, planId: 'no-token' });
    expect(refused.status).toBe(401);
    const wrong = await post(server.url, '/api/fleet/plans', { ...plan, planId: 'no-token' }, `${token}x`);
    expect(wrong.status).toBe(401);
    expect((await journal.history('no-token')).records).toEqual([]);
    expect(await queue.queueNames()).toEqual(['plans.dig']);
  });

  it('refuses unknown keys at every level, naming the key, and queues nothing', async () => {
    const top = await post(server.url, '/api/fleet/plans', { ...plan, planId: 'extra-top', priority: 3 }, token);
    expect([top.status, top.json().error?.code]).toEqual([400, 'invalid_body']);
    expect(top.text).toContain('priority');
    const inStep = await post(server.url, '/api/fleet/plans', { ...plan, planId: 'extra-step', steps: [{ ...plan.steps[0], retries: 2 }] }, token);
    expect(inStep.status).toBe(400);
    expect(inStep.text).toContain('retries');
    const empty = await post(server.url, '/api/fleet/plans', { planId: 'no-steps', intentId: 'i', steps: [] }, token);
    expect(empty.status).toBe(400);
    const { Queue } = await import('bullmq');
    const jobs = new Queue('plans.dig', { connection: { host: '127.0.0.1', port: redis.port }, prefix: 'http:bull' });
    try {
      expect((await jobs.getJobs(['waiting', 'active', 'completed', 'failed'])).map((job) => job.id)).toEqual([encodeURIComponent('http/ñ-1')]);
    } finally {
      await jobs.close();
    }
  });

  it('answers 501 on a control plane given no fleet', async () => {
    const answer = await post(bare.url, '/api/fleet/plans', plan, token);
    expect([answer.status, answer.json().error?.code]).toEqual([501, 'no_fleet']);
  });
});
