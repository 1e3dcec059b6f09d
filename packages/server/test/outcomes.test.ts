import type { Executor, PlanOutcome } from '@sinew/bt-runtime';
import { accepted } from '@sinew/executor-contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serveSinew, type EventEnvelope, type ExecutionComplete, type SinewServer } from '../src/index.js';
import { executionComplete } from '../src/stream/outcomes.js';
import { defineFake, type Body } from '../../bt-runtime/test/fake-body.js';
import { AUTH, fakeExecutor, http, post, StreamClient, TOKEN } from './helpers.js';

/** shuffle: moves the body once per step (a cheap step, so a plan can have thousands). */
const shuffle = defineFake({
  name: 'shuffle',
  version: '2.1.0',
  description: 'moves once',
  inputSchema: z.object({ by: z.number().int() }),
  run: async (ctx, { by }) => {
    ctx.body.move(by);
  },
  acceptance: () => accepted,
});

const shuffles = (planId: string, count: number) => ({ planId, intentId: `intent of ${planId}`, steps: Array.from({ length: count }, (_, i) => ({ stepId: `step #${i}`, type: 'shuffle', args: { by: (i % 3) - 1 } })) });
const endOf = (planId: string) => (e: EventEnvelope) => e.type === 'executionComplete' && (e.data as ExecutionComplete).planId === planId;

describe('executionComplete carries how a plan ended; the whole outcome is fetched', () => {
  it('summarizes every field but the step outcomes, which it counts by status', () => {
    const step = (stepId: string, status: string) => ({ planId: 'p/1 ü', stepId, verb: 'dig_block', status, attempts: 2, startedAt: 5, endedAt: 9 });
    const outcome = {
      planId: 'p/1 ü',
      intentId: 'i',
      status: 'failed',
      steps: [step('a', 'succeeded'), step('b', 'preempted'), step('a2', 'succeeded'), step('c', 'failed')],
      failure: { code: 'guard_failed', reason: 'no block', retryable: false, missing: ['has_item:stick:2'] },
      failedStepId: 'c',
      repairs: 3,
      startedAt: 1,
      endedAt: 12,
    } as unknown as PlanOutcome;
    expect(executionComplete(outcome)).toStrictEqual({
      planId: 'p/1 ü',
      intentId: 'i',
      status: 'failed',
      failure: outcome.failure,
      failedStepId: 'c',
      repairs: 3,
      startedAt: 1,
      endedAt: 12,
      stepCount: 4,
      stepStatuses: { succeeded: 2, preempted: 1, failed: 1 },
      outcomePath: '/api/plans/p%2F1%20%C3%BC/outcome',
    });
    expect(executionComplete({ ...outcome, steps: [], status: 'aborted' })).toMatchObject({ stepCount: 0, stepStatuses: {} });
  });

  describe('on a real server', () => {
    let executor: Executor<Body>;
    let server: SinewServer;
    let stream: StreamClient;
    afterEach(async () => {
      await stream.close();
      await server.close();
      await executor.close();
    });
    const serve = async (outcomesKept?: number, outcomeStepsKept?: number) => {
      ({ executor } = fakeExecutor([shuffle]));
      server = await serveSinew({ executor, port: 0, token: TOKEN, limits: { flushIntervalMs: 0, ...(outcomesKept ? { outcomesKept } : {}), ...(outcomeStepsKept ? { outcomeStepsKept } : {}) } });
      stream = new StreamClient(server.url, { token: TOKEN });
      await stream.opened;
    };

    it('the event stays small however many steps ran, and the outcome route serves what run() returned', async () => {
      await serve();
      const small = await executor.run(shuffles('small', 2));
      const large = await executor.run(shuffles('large', 1_000));
      const [smallEnd, largeEnd] = [await stream.waitFor(endOf('small')), await stream.waitFor(endOf('large'))];
      expect(largeEnd.data).toMatchObject({ status: 'completed', stepCount: 1_000, stepStatuses: { succeeded: 1_000 }, outcomePath: '/api/plans/large/outcome' });
      // Only the counts' digits differ: the event does not grow with the plan.
      expect(JSON.stringify(largeEnd.data).length - JSON.stringify(smallEnd.data).length).toBeLessThan(16);
      const fetched = await http(server.url, (largeEnd.data as ExecutionComplete).outcomePath, { headers: AUTH });
      expect(fetched.status).toBe(200);
      expect(fetched.json()).toEqual(JSON.parse(JSON.stringify(large)));
      expect((await http(server.url, '/api/plans/small/outcome', { headers: AUTH })).json()).toEqual(JSON.parse(JSON.stringify(small)));
    });

    it('a failed plan names its failure and step in the event; the oldest outcome leaves past outcomesKept', async () => {
      await serve(2);
      await executor.run({ planId: 'first', intentId: 'i', steps: [{ stepId: 'dig', type: 'dig_block', args: { block: 'log_1' } }] });
      await executor.run({ planId: 'second', intentId: 'i', steps: [{ stepId: 'ok', type: 'shuffle', args: { by: 1 } }, { stepId: 'bad', type: 'dig_block', args: { block: 'log_404' } }] });
      const failed = await stream.waitFor(endOf('second'));
      expect(failed.data).toMatchObject({ status: 'failed', failedStepId: 'bad', failure: { code: 'guard_failed', reason: 'no block log_404' }, stepCount: 2, stepStatuses: { succeeded: 1, failed: 1 } });
      expect((await http(server.url, '/api/plans/first/outcome', { headers: AUTH })).status).toBe(200);
      // Every step's args and results: as private as the stream that used to carry them.
      expect((await http(server.url, '/api/plans/first/outcome')).status).toBe(401);
      expect((await http(server.url, '/api/plans/first/outcome', { headers: { authorization: 'Bearer wrong-token-0123456789abcdef' } })).status).toBe(401);
      await executor.run(shuffles('third', 1));
      const gone = await http(server.url, '/api/plans/first/outcome', { headers: AUTH });
      expect(gone.status).toBe(404);
      expect(gone.json().error).toMatchObject({ code: 'unknown_plan', message: expect.stringContaining('last 2 (limits.outcomesKept)') });
      expect((await http(server.url, '/api/plans/second/outcome', { headers: AUTH })).json()).toMatchObject({ failedStepId: 'bad', steps: [{ stepId: 'ok' }, { stepId: 'bad', status: 'failed' }] });
      expect((await http(server.url, '/api/plans/third/outcome', { method: 'POST', headers: AUTH })).status).toBe(405);
    });

    it('a plan whose run() rejects (a journal that cannot write) still ends on the stream and at the outcome route', async () => {
      ({ executor } = fakeExecutor([shuffle]));
      const real = executor;
      // The real executor, but its run() rejects as one whose journal's disk is full would.
      const failing = new Proxy(real, {
        get(target, key) {
          if (key === 'run') return () => Promise.reject(new Error('ENOSPC: journal'));
          const value: unknown = Reflect.get(target, key, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      server = await serveSinew({ executor: failing, port: 0, token: TOKEN, limits: { flushIntervalMs: 0 } });
      stream = new StreamClient(server.url, { token: TOKEN });
      await stream.opened;
      expect((await post(server.url, '/api/cognitive/execute', shuffles('doomed', 2), TOKEN)).status).toBe(202);
      const ended = await stream.waitFor(endOf('doomed'));
      expect(ended.data).toMatchObject({ status: 'failed', failure: { code: 'runner_error', reason: expect.stringContaining('ENOSPC') }, stepCount: 0, stepStatuses: {}, repairs: 0 });
      const { startedAt, endedAt } = ended.data as ExecutionComplete;
      expect(endedAt).toBeGreaterThanOrEqual(startedAt);
      expect((await http(server.url, '/api/plans/doomed/outcome', { headers: AUTH })).json()).toMatchObject({ status: 'failed', steps: [], failure: { code: 'runner_error' } });
    });

    it('the kept plans hold at most outcomeStepsKept step outcomes: the oldest leave first, the latest stays however long', async () => {
      await serve(32, 10);
      const status = async (planId: string) => (await http(server.url, `/api/plans/${planId}/outcome`, { headers: AUTH })).status;
      for (const planId of ['a', 'b']) await executor.run(shuffles(planId, 4));
      expect([await status('a'), await status('b')]).toEqual([200, 200]);
      await executor.run(shuffles('c', 4)); // 12 steps kept would pass 10: a leaves
      expect([await status('a'), await status('b'), await status('c')]).toEqual([404, 200, 200]);
      await executor.run(shuffles('b', 1)); // run again: its 4 steps give way to 1 (5 in all), nothing else leaves
      expect([await status('b'), await status('c')]).toEqual([200, 200]);
      await executor.run(shuffles('huge', 30));
      expect([await status('b'), await status('c'), await status('huge')]).toEqual([404, 404, 200]);
      const gone = await http(server.url, '/api/plans/c/outcome', { headers: AUTH });
      expect(gone.json().error).toMatchObject({ code: 'unknown_plan', message: expect.stringContaining('at most 10 step outcomes (limits.outcomeStepsKept)') });
      await executor.run(shuffles('d', 2)); // the latest of 32 steps: huge leaves
      expect([await status('huge'), await status('d')]).toEqual([404, 200]);
      await expect(serveSinew({ executor, port: 0, limits: { outcomeStepsKept: 0 } })).rejects.toMatchObject({ code: 'invalid_config', path: ['outcomeStepsKept'] });
    });

    it('a plan id run again serves its latest outcome, and outcomesKept is validated', async () => {
      await serve(1);
      await executor.run(shuffles('again', 1));
      await executor.run(shuffles('again', 3));
      expect((await http(server.url, '/api/plans/again/outcome', { headers: AUTH })).json()).toMatchObject({ steps: [{}, {}, {}] });
      await expect(serveSinew({ executor, port: 0, limits: { outcomesKept: 0 } })).rejects.toMatchObject({ code: 'invalid_config', path: ['outcomesKept'] });
    });
  });
});
