import { accepted, ManualClock, type Logger } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createExecutorMetrics } from '../src/index.js';
import { defineFake, fakeBody, registryWith } from './fake-body.js';
import { metric } from './metric.js';

// A runner's abort listeners are user code the executor calls (by aborting the signal it handed out). Node reports
// a listener that throws, or returns a promise that rejects, as an uncaught exception — without a guard one failing
// listener takes the whole bot process down (vitest fails this file on such an error, so these tests bite).

const kept: string[] = [];
const log: Logger = { debug: () => {}, info: () => {}, warn: (message, fields) => void kept.push(`${message} ${JSON.stringify(fields ?? {})}`), error: () => {} };

/** Moves once, then waits for its abort with listeners of every shape that fail in every way. */
const fragile = defineFake({
  name: 'fragile',
  version: '1.0.0',
  description: 'waits for abort with failing listeners',
  inputSchema: z.object({}),
  run: async (ctx) => {
    ctx.body.move(1);
    const signal = ctx.signal;
    signal.addEventListener('abort', async () => {
      await Promise.resolve();
      throw new Error('async listener failed');
    });
    signal.addEventListener('abort', () => {
      throw new Error('sync listener failed');
    });
    signal.addEventListener('abort', { handleEvent: () => Promise.reject(new Error('handler object rejected')) });
    signal.onabort = () => {
      throw 'a thrown string';
    };
    const removed = () => {
      throw new Error('a removed listener ran');
    };
    signal.addEventListener('abort', removed);
    signal.removeEventListener('abort', removed);
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    throw signal.reason;
  },
  acceptance: () => accepted,
});

describe("a runner's abort listeners", () => {
  it('that throw or reject end as a counted, logged late result — the step times out as it would, the process lives on', async () => {
    const clock = new ManualClock();
    const metrics = createExecutorMetrics();
    const executor = createExecutor({ registry: registryWith(fragile), body: fakeBody(), clock, metrics, logger: log, policy: { maxLocalRetries: 0, stuckMs: 60_000, defaultTimeoutMs: 500 } });
    const done = executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 'fragile' }] });
    await clock.advance(500);
    expect(await done).toMatchObject({ status: 'failed', failure: { code: 'timeout' } });
    for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
    const failures = kept.filter((line) => line.startsWith('abort listener failed'));
    expect(failures.map((line) => JSON.parse(line.slice('abort listener failed '.length)).error).sort()).toEqual(['a thrown string', 'async listener failed', 'handler object rejected', 'sync listener failed']);
    expect(failures[0]).toContain('"capability":"fragile","stepId":"s"');
    expect(await metric(metrics.registry, 'sinew_late_results_dropped_total', { capability: 'fragile' })).toBe(4);
    await executor.close();
  });

  it('the signal is still a real AbortSignal: onabort reads back, AbortSignal.any follows it, a null listener is ignored', async () => {
    const clock = new ManualClock();
    let seen: { onabort: unknown; anyAborted: boolean } | undefined;
    const probe = defineFake({
      name: 'probe',
      version: '1.0.0',
      description: 'reads its signal',
      inputSchema: z.object({}),
      run: async (ctx) => {
        ctx.body.move(1);
        const handler = () => {};
        ctx.signal.onabort = handler;
        ctx.signal.addEventListener('abort', null as unknown as EventListener); // plain JavaScript may pass one
        const any = AbortSignal.any([ctx.signal]);
        await new Promise<void>((resolve) => any.addEventListener('abort', () => resolve(), { once: true }));
        seen = { onabort: ctx.signal.onabort === handler, anyAborted: any.aborted };
        throw ctx.signal.reason;
      },
      acceptance: () => accepted,
    });
    const executor = createExecutor({ registry: registryWith(probe), body: fakeBody(), clock, policy: { maxLocalRetries: 0, stuckMs: 60_000, defaultTimeoutMs: 300 } });
    const done = executor.run({ planId: 'p2', intentId: 'i', steps: [{ stepId: 's', type: 'probe' }] });
    await clock.advance(300);
    expect(await done).toMatchObject({ status: 'failed', failure: { code: 'timeout' } });
    expect(seen).toEqual({ onabort: true, anyAborted: true });
    await executor.close();
  });
});
